"""The driver end of a k8s sandbox's model tunnel (network `model-only`).

A pod gets no egress at all. Its way to the model is the Docker backend's, carried over the API: the
warden runs `sandbox_files/tunnel.py` (a listener on the pod's 127.0.0.1:PORT) through one exec, and each
connection the agent opens there comes out here, where it is joined to the sandbox's own model relay
(envs.model_relay: only its rollout's routes get through, everything else is answered 403). Closing the
tunnel (cut_model, stop) cuts the sandbox off from the model.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import struct
import threading
import time
from pathlib import Path

from kubernetes.client import CoreV1Api
from kubernetes.stream import stream
from kubernetes.stream.ws_client import STDERR_CHANNEL, STDOUT_CHANNEL, WSClient

from envs.errors import NetworkModeError, SandboxError
from envs.k8s_exec import close_stream

log = logging.getLogger("forge.envs")

SOURCE = (Path(__file__).parent / "sandbox_files" / "tunnel.py").read_text()
OPEN, DATA, CLOSE, READY = 1, 2, 3, 4
HEADER = struct.Struct(">BII")
READY_TIMEOUT_SEC = 30.0
MAX_FRAME = 1024 * 1024
"""The pod's end sends at most 64 KiB a frame: anything larger is not our listener (the tunnel closes)."""
MAX_CONNECTIONS = 256
"""Connections open at once through one sandbox's tunnel; more are refused."""


class ModelTunnel:
    """One sandbox's tunnel: a reader thread for the pod's frames, a pump thread per connection."""

    def __init__(
        self,
        api: CoreV1Api,
        lock: threading.Lock,
        pod: str,
        namespace: str,
        container: str,
        relay_socket: Path,
        port: int,
    ) -> None:
        self.api, self.lock, self.pod, self.namespace, self.container = api, lock, pod, namespace, container
        self.relay_socket = relay_socket
        self.port = port
        self.connections = 0
        """Connections the agent opened through the tunnel (for logs and tests)."""
        self._ws: WSClient | None = None
        self._conns: dict[int, socket.socket] = {}
        self._send_lock = threading.Lock()
        self._ready = threading.Event()
        self._closed = threading.Event()
        self._stderr = b""
        self._reader: threading.Thread | None = None

    def start(self) -> None:
        try:
            with self.lock:  # the sandbox's exec client: its set-up must not overlap another's
                self._ws = stream(
                    self.api.connect_get_namespaced_pod_exec,
                    self.pod,
                    self.namespace,
                    command=["python3", "-c", SOURCE, "127.0.0.1", str(self.port)],
                    container=self.container,
                    stdin=True,
                    stdout=True,
                    stderr=True,
                    tty=False,
                    binary=True,
                    _preload_content=False,
                )
        except Exception as exc:
            raise SandboxError(f"pod {self.pod}: the model tunnel could not start: {exc}") from exc
        self._reader = threading.Thread(target=self._read, name=f"tunnel-{self.pod}", daemon=True)
        self._reader.start()
        deadline = time.monotonic() + READY_TIMEOUT_SEC
        while not self._ready.wait(0.1):
            if self._closed.is_set() or time.monotonic() > deadline:
                why = self._stderr.decode(errors="replace").strip()[-500:] or "it did not get ready"
                self.close()
                if "python3" in why and ("not found" in why or "No such file" in why):
                    raise NetworkModeError(
                        "network 'model-only' needs python3 in the image (the model tunnel)"
                    )
                raise SandboxError(f"pod {self.pod}: the model tunnel did not start: {why}")

    def _read(self) -> None:
        ws = self._ws
        buffer = b""
        try:
            while ws is not None and ws.is_open() and not self._closed.is_set():
                ws.update(timeout=1)
                err = ws.read_channel(STDERR_CHANNEL)
                if err:
                    self._stderr = (self._stderr + err)[-4096:]
                data = ws.read_channel(STDOUT_CHANNEL)
                if not data:
                    continue
                buffer += data
                while len(buffer) >= HEADER.size:
                    kind, cid, size = HEADER.unpack_from(buffer)
                    if size > MAX_FRAME:
                        raise ValueError(f"a frame of {size} bytes: not the tunnel's listener")
                    if len(buffer) < HEADER.size + size:
                        break
                    payload = buffer[HEADER.size : HEADER.size + size]
                    buffer = buffer[HEADER.size + size :]
                    self._frame(kind, cid, payload)
        except Exception as exc:  # the stream broke: the tunnel is down, and said so
            log.info("pod %s: the model tunnel ended: %s", self.pod, exc)
        finally:
            self._closed.set()
            self._close_all()

    def _frame(self, kind: int, cid: int, payload: bytes) -> None:
        if kind == READY:
            self._ready.set()
        elif kind == OPEN:
            if len(self._conns) >= MAX_CONNECTIONS or cid in self._conns:
                self._send(CLOSE, cid)
                return
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                conn.connect(str(self.relay_socket))
            except OSError:
                conn.close()
                self._send(CLOSE, cid)
                return
            self._conns[cid] = conn
            self.connections += 1
            threading.Thread(target=self._pump, args=(cid, conn), name=f"tunnel-{cid}", daemon=True).start()
        elif kind == DATA:
            target = self._conns.get(cid)
            if target is not None:
                try:
                    target.sendall(payload)
                except OSError:
                    self._drop(cid)
        elif kind == CLOSE:
            closing = self._conns.pop(cid, None)
            if closing is not None:
                with contextlib.suppress(OSError):
                    closing.shutdown(socket.SHUT_WR)

    def _pump(self, cid: int, conn: socket.socket) -> None:
        """The relay's answers back into the pod, until the relay closes the connection."""
        try:
            while data := conn.recv(65536):
                self._send(DATA, cid, data)
        except OSError:
            pass
        finally:
            self._drop(cid)
            with contextlib.suppress(OSError):
                conn.close()

    def _drop(self, cid: int) -> None:
        conn = self._conns.pop(cid, None)
        self._send(CLOSE, cid)
        if conn is not None:
            with contextlib.suppress(OSError):
                conn.close()

    def _send(self, kind: int, cid: int, data: bytes = b"") -> None:
        ws = self._ws
        if ws is None or self._closed.is_set():
            return
        with self._send_lock, contextlib.suppress(Exception):
            ws.write_stdin(HEADER.pack(kind, cid, len(data)) + data)

    def _close_all(self) -> None:
        for cid in list(self._conns):
            conn = self._conns.pop(cid, None)
            if conn is not None:
                with contextlib.suppress(OSError):
                    conn.close()

    def close(self) -> None:
        """Cut the tunnel: the pod's listener sees its input end and exits; no connection stays open."""
        self._closed.set()
        ws = self._ws
        if ws is not None:
            close_stream(ws)
        self._close_all()
        if self._reader is not None and self._reader is not threading.current_thread():
            self._reader.join(5)
