"""The local Docker sandbox backend.

A container is created (never on a bridge: network `none`, or `host` with an opt-in), our three small
files are put into it before it starts (`/opt/forge/sandbox`: init, model forwarder, tree killer), and
`tini` runs as PID 1. Exec timeouts are enforced from the host: the command's process tree is killed
inside the container and the container lives on.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tarfile
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import docker
import docker.errors
from docker.models.containers import Container

from envs import cleanup, labels
from envs.docker_client import docker_client, relay_root
from envs.errors import SandboxError, SandboxStartError
from envs.model_relay import ModelRelay
from envs.sandbox import ExecResult, Sandbox, SandboxSpec
from envs.task_config import NetworkMode

SANDBOX_FILES = "/opt/forge/sandbox"
SANDBOX_FILES_DIR = Path(__file__).parent / "sandbox_files"
MODEL_MOUNT = "/run/forge-model"
EXEC_PID_DIR = "/tmp/.forge-exec"
MAX_OUTPUT_BYTES = 4 * 1024 * 1024
READY_TIMEOUT_SEC = 30.0

# Runs the command as `exec`, after writing its pid where the tree killer can find it.
_EXEC_WRAPPER = f'echo $$ > "{EXEC_PID_DIR}/$1.pid" 2>/dev/null; shift; exec "$@"'


def _sandbox_files_tar() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name in ("init.sh", "forward.py", "killtree.sh"):
            data = (SANDBOX_FILES_DIR / name).read_bytes()
            info = tarfile.TarInfo(f"{SANDBOX_FILES.lstrip('/')}/{name}")
            info.size = len(data)
            info.mode = 0o755
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


_client_lock = threading.Lock()
_client: docker.DockerClient | None = None


def _shared_client() -> docker.DockerClient:
    """One engine client for every sandbox of this process (it is safe to share across threads)."""
    global _client
    with _client_lock:
        if _client is None:
            _client = docker_client()
        return _client


class _Output:
    """Collects a stream up to a cap (keeps the head; counts what was dropped)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self.dropped = 0

    def add(self, data: bytes | None) -> None:
        if not data:
            return
        room = MAX_OUTPUT_BYTES - self.size
        if room <= 0:
            self.dropped += len(data)
            return
        self.parts.append(data[:room])
        self.size += min(room, len(data))
        self.dropped += max(0, len(data) - room)

    def text(self) -> str:
        out = b"".join(self.parts).decode("utf-8", errors="replace")
        if self.dropped:
            out += f"\n[... {self.dropped} more bytes dropped]"
        return out


class DockerSandbox(Sandbox):
    """One container on the local Docker engine."""

    def __init__(self, spec: SandboxSpec, client: docker.DockerClient | None = None) -> None:
        self.spec = spec
        self._client = client
        self.container: Container | None = None
        self.relay: ModelRelay | None = None
        self.name = f"forge-{(spec.task or 'sandbox')[:40]}-{uuid.uuid4().hex[:10]}"
        self.name = "".join(c if c.isalnum() or c in "-_." else "-" for c in self.name)
        self._stopped = False
        self._lifecycle = threading.RLock()

    @property
    def client(self) -> docker.DockerClient:
        if self._client is None:
            self._client = _shared_client()
        return self._client

    # -- lifecycle -----------------------------------------------------------------------------------------

    def start(self) -> None:
        spec = self.spec
        spec.check()
        cleanup.ensure_watchdog()
        owner = cleanup.owner_id()
        container_labels = {
            **spec.labels,
            labels.MANAGED: "true",
            labels.TASK: spec.task,
            labels.RUN: spec.run,
            labels.ROLE: spec.role,
            labels.OWNER: owner,
            labels.CREATED: str(int(time.time())),
        }
        env = dict(spec.env)
        volumes: dict[str, dict[str, str]] = {}
        for mount in spec.mounts:
            if not mount.source.exists():
                raise SandboxStartError(f"cannot mount {mount.source} at {mount.target}: no such path")
            volumes[str(mount.source.resolve())] = {
                "bind": mount.target,
                "mode": "ro" if mount.read_only else "rw",
            }
        if spec.network is NetworkMode.MODEL_ONLY:
            assert spec.model_endpoint is not None
            folder = relay_root() / uuid.uuid4().hex[:12]
            self.relay = ModelRelay(folder, spec.model_endpoint)
            self.relay.start()
            (folder / "owner").write_text(owner)
            volumes[str(folder)] = {"bind": MODEL_MOUNT, "mode": "ro"}
            env.update(
                FORGE_MODEL_SOCKET=f"{MODEL_MOUNT}/model.sock",
                FORGE_MODEL_PORT=str(spec.model_port),
                FORGE_MODEL_URL=f"http://127.0.0.1:{spec.model_port}",
            )
        kwargs: dict[str, Any] = {}
        if spec.cpus:
            kwargs["nano_cpus"] = int(spec.cpus * 1e9)
        if spec.memory_mb:
            kwargs["mem_limit"] = f"{spec.memory_mb}m"
            kwargs["memswap_limit"] = f"{spec.memory_mb}m"
        if spec.pids_limit:
            kwargs["pids_limit"] = spec.pids_limit
        cleanup.register(self)
        try:
            with self._lifecycle:  # stop() waits for a create in flight, then removes what it made
                if self._stopped or cleanup.shutting_down():
                    raise SandboxStartError(f"sandbox {self.name} was stopped before it started")
                self.container = self._create(spec, container_labels, env, volumes, kwargs)
            self.container.start()
            self._wait_ready()
        except docker.errors.ImageNotFound as exc:
            self.stop()
            raise SandboxStartError(f"image {spec.image} not found (run `forge-env build`)") from exc
        except docker.errors.DockerException as exc:
            self.stop()
            raise SandboxStartError(f"could not start a sandbox from {spec.image}: {exc}") from exc
        except BaseException:
            self.stop()
            raise

    def _create(
        self,
        spec: SandboxSpec,
        container_labels: dict[str, str],
        env: dict[str, str],
        volumes: dict[str, dict[str, str]],
        limits: dict[str, Any],
    ) -> Container:
        container = self.client.containers.create(
            spec.image,
            command=["/bin/sh", f"{SANDBOX_FILES}/init.sh"],
            entrypoint=[],
            name=self.name,
            labels=container_labels,
            environment=env,
            working_dir=spec.workdir or None,
            network_mode="host" if spec.network is NetworkMode.HOST else "none",
            volumes=volumes,
            init=True,
            detach=True,
            **limits,
        )
        container.put_archive("/", _sandbox_files_tar())
        return container

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_SEC
        probe = "test -e /run/forge/ready && { cat /run/forge/error 2>/dev/null; exit 0; }; exit 1"
        while time.monotonic() < deadline:
            result = self._raw_exec(["/bin/sh", "-c", probe], user="root")
            if result.exit_code == 0:
                if result.stdout.strip():
                    raise SandboxStartError(result.stdout.strip())
                return
            self.container.reload()  # type: ignore[union-attr]
            if self.container.status not in ("running", "created"):  # type: ignore[union-attr]
                logs = self.container.logs(tail=20).decode(errors="replace")  # type: ignore[union-attr]
                raise SandboxStartError(f"sandbox exited while starting ({self.container.status}): {logs}")  # type: ignore[union-attr]
            time.sleep(0.05)
        raise SandboxStartError(f"sandbox was not ready within {READY_TIMEOUT_SEC:.0f}s")

    def stop(self) -> None:
        with self._lifecycle:
            if self._stopped:
                return
            self._stopped = True
            self._remove()

    def _remove(self) -> None:
        try:
            if self.relay is not None:
                self.relay.close()
            container = self.container
            if container is None:
                with contextlib.suppress(docker.errors.DockerException):
                    container = self.client.containers.get(self.name)
            if container is not None:
                try:
                    container.remove(force=True, v=True)
                except docker.errors.NotFound:
                    pass
                except docker.errors.APIError as exc:
                    if exc.status_code != 409:  # 409: someone (gc, the watchdog) is removing it already
                        raise
        except docker.errors.DockerException as exc:
            raise SandboxError(f"could not remove sandbox {self.name}: {exc}") from exc
        finally:
            cleanup.unregister(self)

    def cut_model(self) -> None:
        """Close the model relay: from now on the sandbox reaches nothing (used before verification)."""
        if self.relay is not None:
            self.relay.close()
            self.relay = None

    # -- exec ----------------------------------------------------------------------------------------------

    def _container(self) -> Container:
        if self.container is None or self._stopped:
            raise SandboxError(f"sandbox {self.name} is not running")
        return self.container

    def _raw_exec(self, argv: list[str], user: str = "root") -> ExecResult:
        result = self._container().exec_run(argv, user=user, demux=True)
        out, err = result.output if isinstance(result.output, tuple) else (None, None)
        return ExecResult(
            exit_code=result.exit_code,
            stdout=out.decode(errors="replace") if isinstance(out, bytes) else "",
            stderr=err.decode(errors="replace") if isinstance(err, bytes) else "",
        )

    def exec(
        self,
        command: str | Sequence[str],
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        workdir: str | None = None,
        user: str | None = None,
    ) -> ExecResult:
        container = self._container()
        argv = ["bash", "-c", command] if isinstance(command, str) else list(command)
        exec_id_name = uuid.uuid4().hex
        wrapped = ["/bin/sh", "-c", _EXEC_WRAPPER, "forge-exec", exec_id_name, *argv]
        api = self.client.api
        started = time.monotonic()
        try:
            exec_id = api.exec_create(
                container.id,
                wrapped,
                stdout=True,
                stderr=True,
                environment=dict(env or {}),
                workdir=workdir or self.spec.workdir or None,
                user=user or "",
            )["Id"]
            stream = api.exec_start(exec_id, stream=True, demux=True)
        except docker.errors.DockerException as exc:
            raise SandboxError(f"exec in sandbox {self.name} failed: {exc}") from exc

        stdout, stderr = _Output(), _Output()
        done = threading.Event()

        def read() -> None:
            try:
                for out, err in stream:
                    stdout.add(out)
                    stderr.add(err)
            except Exception:
                pass
            finally:
                done.set()

        reader = threading.Thread(target=read, name=f"exec-{exec_id_name[:8]}", daemon=True)
        reader.start()
        deadline = None if timeout is None else started + timeout
        timed_out = False
        next_inspect = started + 2.0
        while not done.wait(0.05):
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                timed_out = True
                self._kill_tree(exec_id_name)
                done.wait(10)
                break
            if now >= next_inspect:
                # The command may have exited while a background child still holds its output open.
                next_inspect = now + 1.0
                if not api.exec_inspect(exec_id).get("Running", True):
                    done.wait(1.0)
                    break
        with contextlib.suppress(Exception):
            stream.close()
        info = api.exec_inspect(exec_id)
        exit_code = info.get("ExitCode")
        if timed_out and info.get("Running"):
            exit_code = None
        self._raw_exec(["rm", "-f", f"{EXEC_PID_DIR}/{exec_id_name}.pid"])
        return ExecResult(
            exit_code=exit_code,
            stdout=stdout.text(),
            stderr=stderr.text(),
            timed_out=timed_out,
            duration_sec=time.monotonic() - started,
        )

    def _kill_tree(self, exec_name: str) -> None:
        script = (
            f'pid=$(cat {EXEC_PID_DIR}/{exec_name}.pid 2>/dev/null) && sh {SANDBOX_FILES}/killtree.sh "$pid"'
        )
        with contextlib.suppress(docker.errors.DockerException):
            self._raw_exec(["/bin/sh", "-c", script])

    # -- files ---------------------------------------------------------------------------------------------

    def upload(self, source: Path, target: str) -> None:
        container = self._container()
        source = Path(source)
        if not source.exists():
            raise SandboxError(f"cannot upload {source}: no such file or directory")
        if source.is_dir():
            dest_dir, arcname_root = target, "."
        else:
            dest_dir, arcname_root = os.path.dirname(target.rstrip("/")) or "/", os.path.basename(target)
        mk = self._raw_exec(["mkdir", "-p", dest_dir])
        if mk.exit_code != 0:
            raise SandboxError(f"cannot create {dest_dir} in sandbox {self.name}: {mk.stderr.strip()}")
        with tempfile.TemporaryFile() as buf:
            with tarfile.open(fileobj=buf, mode="w") as tar:
                tar.add(str(source), arcname=arcname_root)
            buf.seek(0)
            try:
                ok = container.put_archive(dest_dir, buf)
            except docker.errors.DockerException as exc:
                raise SandboxError(f"upload of {source} to {target} failed: {exc}") from exc
        if not ok:
            raise SandboxError(f"upload of {source} to {target} failed")

    def download(self, source: str, target: Path) -> None:
        container = self._container()
        target = Path(target)
        try:
            chunks, stat = container.get_archive(source)
        except docker.errors.NotFound as exc:
            raise SandboxError(f"cannot download {source}: no such file or directory in the sandbox") from exc
        except docker.errors.DockerException as exc:
            raise SandboxError(f"download of {source} failed: {exc}") from exc
        with tempfile.TemporaryDirectory(prefix="forge-dl-") as tmp:
            with tempfile.TemporaryFile() as buf:
                for chunk in chunks:
                    buf.write(chunk)
                buf.seek(0)
                with tarfile.open(fileobj=buf, mode="r") as tar:
                    tar.extractall(tmp, filter="data")
            extracted = Path(tmp) / (stat or {}).get("name", os.path.basename(source.rstrip("/")))
            if extracted.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                for item in extracted.iterdir():
                    dest = target / item.name
                    if dest.is_dir() and not dest.is_symlink():
                        shutil.rmtree(dest)
                    shutil.move(str(item), dest)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(extracted), target)
