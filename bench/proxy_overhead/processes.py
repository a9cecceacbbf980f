"""The children of a run: each in a session of its own (so its whole process group can be stopped), pinned
to CPUs when asked, dying with us, and all stopped on the way out."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
from collections.abc import Sequence
from pathlib import Path


def free_port() -> int:
    """A port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def loopback_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """No HTTP proxy for anyone: every byte stays on 127.0.0.1."""
    env = dict(os.environ if env is None else env)
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        env.pop(key, None)
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["PYTHONUNBUFFERED"] = "1"
    return env


class Processes:
    """Children started for the benchmark; `stop_all()` ends each one's process group."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(
        self, name: str, argv: Sequence[str], env: dict[str, str], cpus: set[int] | None
    ) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{name}.log", "wb")  # noqa: SIM115 - lives as long as the child

        def prepare() -> None:  # in the child, before exec
            with contextlib.suppress(Exception):
                ctypes.CDLL("libc.so.6", use_errno=True).prctl(
                    1, signal.SIGKILL
                )  # PR_SET_PDEATHSIG: die with us
            if cpus:
                os.sched_setaffinity(0, cpus)

        proc = subprocess.Popen(
            list(argv),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=prepare,
            cwd=self.log_dir,
        )
        log.close()
        self.running.append((name, proc))
        return proc

    def log_tail(self, name: str, lines: int = 30) -> str:
        path = self.log_dir / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        for sig, wait in ((signal.SIGTERM, 8.0), (signal.SIGKILL, 5.0)):
            if proc.poll() is not None:
                break
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, sig)  # the child leads its own session: pgid == pid
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(wait)
        # anything left in the group (workers of a child that exited first)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        self.running = [(n, p) for n, p in self.running if p is not proc]

    def stop_all(self) -> None:
        for _, proc in reversed(list(self.running)):
            self.stop(proc)
