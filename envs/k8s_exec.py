"""One command in a pod's container over the API's exec subresource, with the exit code from the status
channel.

The `kubernetes` client's `stream()` swaps its ApiClient's transport while a call is set up, so calls on
one ApiClient must not overlap their set-up: `run_exec` takes the caller's lock for that moment (each
sandbox has its own client and lock). A refused or failed handshake is retried (the command has not
started yet). Output is streamed to a
sink as it comes (capped by the caller), stdin is sent in chunks and closed with the v5 protocol's close
message (the warden's `tar -x` then sees the end of its input), and the command's deadline is ours: at
the timeout the caller's `on_timeout` kills the command's processes inside the pod, never the pod.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from kubernetes.client import CoreV1Api
from kubernetes.client.exceptions import ApiException
from kubernetes.stream import stream
from kubernetes.stream.ws_client import ERROR_CHANNEL, STDERR_CHANNEL, STDOUT_CHANNEL, WSClient

from envs.errors import ClusterError, SandboxError

STDIN_CHUNK = 256 * 1024
"""Stdin goes out in frames of at most this size."""
AFTER_TIMEOUT_SEC = 10.0
HANDSHAKE_ATTEMPTS = 4
"""How long the stream is read on after the timeout's kill, for the status channel."""


@dataclass
class ExecOutcome:
    exit_code: int | None
    timed_out: bool
    status: dict[str, Any] | None
    """The status channel's Status object, as sent."""


def exit_code_of(status: dict[str, Any] | None) -> int | None:
    """The exit code a Status on the error channel reports: 0 for Success, the NonZeroExitCode cause's
    code, None when the command did not report one (it could not start, or the stream broke)."""
    if not status:
        return None
    if status.get("status") == "Success":
        return 0
    for cause in (status.get("details") or {}).get("causes") or []:
        if cause.get("reason") == "ExitCode":
            try:
                return int(cause.get("message", ""))
            except ValueError:
                return None
    return None


def close_stream(ws: WSClient) -> None:
    """Close an exec stream and its socket: websocket-client leaves the socket open when the server's
    close frame came first."""
    with contextlib.suppress(Exception):
        ws.close()
    with contextlib.suppress(Exception):
        if ws.sock is not None:
            ws.sock.shutdown()


def _hand_over(ws: WSClient, on_stdout: Callable[[bytes], None], on_stderr: Callable[[bytes], None]) -> bytes:
    """Give the sinks what the client holds; returns the status channel's bytes.

    Reading a channel the client holds nothing for makes it read the socket again (the client's peek),
    and that read may take further frames of every channel and the close: the loop then ends with output
    still held. So this runs once more after the stream closed, when reads no longer touch the socket.
    """
    for channel, sink in ((STDOUT_CHANNEL, on_stdout), (STDERR_CHANNEL, on_stderr)):
        data = ws.read_channel(channel)
        if data:
            sink(data if isinstance(data, bytes) else data.encode())
    error = ws.read_channel(ERROR_CHANNEL)
    return error if isinstance(error, bytes) else error.encode()


def run_exec(
    api: CoreV1Api,
    pod: str,
    namespace: str,
    container: str,
    argv: Sequence[str],
    on_stdout: Callable[[bytes], None],
    on_stderr: Callable[[bytes], None],
    stdin: IO[bytes] | None = None,
    timeout: float | None = None,
    on_timeout: Callable[[], None] | None = None,
    lock: threading.Lock | None = None,
) -> ExecOutcome:
    """Run `argv` in `container` of `pod`; raises ClusterError when the API refuses the exec (a pod that is
    not running answers 400; the caller decides what that means)."""
    lock = lock or threading.Lock()
    started = time.monotonic()
    ws: WSClient | None = None
    for attempt in range(1, HANDSHAKE_ATTEMPTS + 1):
        try:
            with lock:
                ws = stream(
                    api.connect_get_namespaced_pod_exec,
                    pod,
                    namespace,
                    command=list(argv),
                    container=container,
                    stdin=stdin is not None,
                    stdout=True,
                    stderr=True,
                    tty=False,
                    binary=True,
                    _preload_content=False,
                )
            break
        except ApiException as exc:
            if exc.status in (429, 500, 502, 503, 504) and attempt < HANDSHAKE_ATTEMPTS:
                time.sleep(0.5 * attempt)
                continue
            raise ClusterError(
                f"exec in pod {namespace}/{pod} ({container}) refused: {exc.status} "
                f"{str(exc.reason or '')[:200]}: {str(exc.body or '')[:300]}",
                exc.status,
            ) from exc
        except Exception as exc:  # the websocket layer raises its own classes (handshake, connection)
            if attempt < HANDSHAKE_ATTEMPTS:
                time.sleep(0.5 * attempt)
                continue
            raise ClusterError(f"exec in pod {namespace}/{pod} ({container}) failed: {exc}") from exc
    assert ws is not None
    deadline = None if timeout is None else started + timeout
    timed_out = False
    status_raw = b""
    try:
        if stdin is not None:
            while chunk := stdin.read(STDIN_CHUNK):
                ws.write_stdin(chunk)
            ws.close_channel(0)
        while ws.is_open():
            now = time.monotonic()
            if deadline is not None and now >= deadline and not timed_out:
                timed_out = True
                if on_timeout is not None:
                    on_timeout()
                deadline = now + AFTER_TIMEOUT_SEC
            elif timed_out and deadline is not None and now >= deadline:
                break
            wait = 1.0 if deadline is None else max(0.0, min(1.0, deadline - now))
            ws.update(timeout=wait)
            status_raw += _hand_over(ws, on_stdout, on_stderr)
        status_raw += _hand_over(ws, on_stdout, on_stderr)  # what the last reads took with the close
    except SandboxError:
        raise
    except Exception as exc:
        raise ClusterError(f"exec in pod {namespace}/{pod} ({container}) broke: {exc}") from exc
    finally:
        close_stream(ws)
    status: dict[str, Any] | None = None
    if status_raw:
        try:
            status = json.loads(status_raw)
        except ValueError:
            status = {"status": "Failure", "message": status_raw.decode(errors="replace")}
    code = exit_code_of(status)
    if timed_out:
        code = None if code is None or status is None else code
    return ExecOutcome(exit_code=code, timed_out=timed_out, status=status)
