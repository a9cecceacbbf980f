"""The CLIs' Ctrl-C / SIGTERM handling marks the process as stopping before anything unwinds.

Without that, a worker thread's rollout that fails because the proxy is closing under it (the interrupt
unwinds `with proxy_session()` before `stop_all()` runs) looks like an infrastructure failure and is
written to results.jsonl, so a resumed run holds a false infra-error line.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import REPO, sigint_default

SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    from envs import cleanup
    from envs.cli_support import interruptible

    seen = []

    def worker():  # a rollout in a pool thread: it looks at the flag when its call fails
        stop.wait(30)
        seen.append(cleanup.shutting_down())

    stop = threading.Event()
    thread = threading.Thread(target=worker)
    thread.start()
    with interruptible():
        try:
            os.kill(os.getpid(), signal.{name})
            time.sleep(30)
        finally:  # the proxy closing, as `with proxy_session()` does on the way out
            stop.set()
            thread.join()
            print("worker saw shutting_down =", seen[0], flush=True)
    """
)


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_failure_during_the_unwind_already_sees_the_shutdown(name: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(name=name)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=sigint_default,
    )
    assert proc.returncode == 130, proc.stdout + proc.stderr
    assert "worker saw shutting_down = True" in proc.stdout, proc.stdout + proc.stderr


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    """A shell's `cmd &` job ignores SIGINT; wrapping it in interruptible() must not make it stoppable."""
    script = textwrap.dedent(
        """
        import os, signal, time
        from envs.cli_support import interruptible

        with interruptible():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)
        print("still running", flush=True)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert proc.returncode == 0 and "still running" in proc.stdout, proc.stdout + proc.stderr
