"""Nothing we start outlives us: live-sandbox registry, Ctrl-C handling and a crash watchdog.

Three layers, so a container is removed however the parent ends:

1. `with sandbox:` stops it on any exception, KeyboardInterrupt included.
2. `stop_all()` stops every sandbox still alive in this process (the CLIs call it on Ctrl-C / SIGTERM,
   so worker threads fail fast instead of running on), and it runs at interpreter exit: the exit hook
   is installed with the first sandbox registered, not at import, so importing envs changes nothing.
   A container the engine refused to remove within `stop()`'s wait (a fork bomb under load can take
   longer to kill) is handed to `keep_removing()`: a background thread goes on removing it, and
   `stop_all()` waits for those threads too.
3. A watchdog process (`python -m envs.reaper`), started with the first sandbox in its own session so
   Ctrl-C does not reach it, holds the read end of a pipe from us. When we die, even by SIGKILL, the pipe
   closes and it removes every container labelled with our owner id.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from envs.sandbox import Sandbox

_lock = threading.Lock()
_live: dict[int, Sandbox] = {}
_owner: str | None = None
_watchdog: subprocess.Popen[bytes] | None = None
_watchdog_pid = -1
_shutting_down = threading.Event()
_exit_hook_installed = False
_removals: list[Removal] = []

log = logging.getLogger("forge.envs")


@dataclass
class Removal:
    """A container `stop()` could not remove in its wait, handed to a background thread."""

    name: str
    why: str
    """What the engine said when `stop()` gave up."""
    thread: threading.Thread | None = field(default=None, repr=False)
    outcome: str | None = None
    """None while it goes on; then "removed", or why it was given up."""


def owner_id() -> str:
    """This process's identity on the containers it starts."""
    global _owner
    with _lock:
        if _owner is None or _owner.split(":")[1] != str(os.getpid()):
            _owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        return _owner


def ensure_watchdog() -> None:
    """Start the crash watchdog once per process (again after a fork)."""
    global _watchdog, _watchdog_pid
    owner = owner_id()
    with _lock:
        if _watchdog is not None and _watchdog_pid == os.getpid() and _watchdog.poll() is None:
            return
        _watchdog = subprocess.Popen(
            [sys.executable, "-m", "envs.reaper", "watch", "--owner", owner],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )
        _watchdog_pid = os.getpid()


def register(sandbox: Sandbox) -> None:
    global _exit_hook_installed
    with _lock:
        _live[id(sandbox)] = sandbox
        if not _exit_hook_installed:
            atexit.register(stop_all)
            _exit_hook_installed = True


def unregister(sandbox: Sandbox) -> None:
    with _lock:
        _live.pop(id(sandbox), None)


def live_sandboxes() -> list[Sandbox]:
    with _lock:
        return list(_live.values())


def shutting_down() -> bool:
    """True once begin_shutdown() or stop_all() has run: no new sandbox may start after that, and what
    fails from then on was cut short, not an outcome."""
    return _shutting_down.is_set()


def begin_shutdown() -> None:
    """Mark the process as stopping, before anything is torn down: the CLIs call it from the signal
    handler, so a rollout that fails because the proxy is closing under it is never recorded as a result."""
    _shutting_down.set()


def stop_all() -> int:
    """Stop every sandbox this process still has, and refuse new ones; wait for removals still going on.
    Returns how many sandboxes there were."""
    begin_shutdown()
    sandboxes = live_sandboxes()
    threads = [threading.Thread(target=_quiet_stop, args=(s,), daemon=True) for s in sandboxes]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    wait_for_removals(REMOVAL_WAIT_AT_EXIT_SEC)
    return len(sandboxes)


REMOVAL_WAIT_AT_EXIT_SEC = 120.0
"""How long the exit waits for background removals (the watchdog removes what is left after that)."""


def keep_removing(name: str, why: str, remove: Callable[[], str | None]) -> None:
    """Run `remove` (which retries until its own deadline; None once the container is gone, else why not)
    in a background thread, so a container that outlasted `stop()`'s wait is still removed while the
    process lives, and at its exit. Every hand-off and its outcome is logged and kept (`removals()`)."""
    log.warning("sandbox %s: the engine refused its removal (%s); it goes on in the background", name, why)
    removal = Removal(name=name, why=why)
    thread = threading.Thread(target=_run_removal, args=(removal, remove), name=f"remove-{name}", daemon=True)
    removal.thread = thread
    with _lock:
        _removals.append(removal)
    thread.start()


def _run_removal(removal: Removal, remove: Callable[[], str | None]) -> None:
    try:
        refused = remove()
    except Exception as exc:  # a daemon thread has no caller to raise to: said, and kept
        refused = f"{type(exc).__name__}: {exc}"
    removal.outcome = "removed" if refused is None else f"given up: {refused}"
    if refused is not None:
        log.warning("sandbox %s: its background removal was given up: %s", removal.name, refused)


def removals() -> list[Removal]:
    """Every removal handed to the background in this process, finished or not (for diagnosis)."""
    with _lock:
        return list(_removals)


def wait_for_removals(timeout: float) -> bool:
    """Wait until every background removal has ended; False when some still run at the timeout."""
    deadline = time.monotonic() + timeout
    pending = [r.thread for r in removals() if r.thread is not None and r.thread.is_alive()]
    for thread in pending:
        thread.join(max(0.0, deadline - time.monotonic()))
    return not any(t.is_alive() for t in pending)


def _quiet_stop(sandbox: Sandbox) -> None:
    with contextlib.suppress(Exception):
        sandbox.stop()
