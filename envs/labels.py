"""The labels every OpenForge container and image carries, so leftovers can always be found and removed;
the one definition of each."""

from __future__ import annotations

MANAGED = "openforge.managed"
TASK = "openforge.task"
RUN = "openforge.run"
ROLE = "openforge.role"
OWNER = "openforge.owner"
"""`<hostname>:<pid>:<nonce>` of the process that started the container."""
CREATED = "openforge.created"
HARNESS = "openforge.harness"
"""The harness a rollout's container runs."""
CONTENT_HASH = "openforge.content-hash"
"""A task image's content hash (also its tag)."""
VERIFIER_TASK_IMAGE = "openforge.verifier.task-image"
"""A prepared verifier layer: the id of the task image it was made from."""
VERIFIER_TESTS_HASH = "openforge.verifier.tests-hash"
"""A prepared verifier layer: the hash of tests/ (and the [verifier] user and env that ran them) it was
prepared with."""
