"""The labels every OpenForge container carries, so leftovers can always be found and removed."""

from __future__ import annotations

MANAGED = "openforge.managed"
TASK = "openforge.task"
RUN = "openforge.run"
ROLE = "openforge.role"
OWNER = "openforge.owner"
"""`<hostname>:<pid>:<nonce>` of the process that started the container."""
CREATED = "openforge.created"
