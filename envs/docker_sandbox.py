"""The local Docker sandbox backend.

A container is created (never on a bridge: network `none`, or `host` with an opt-in), our small helper files
are bind-mounted read-only at `/opt/forge/sandbox` (init and model forwarder: the agent can run them, not
change them), `tini` runs as PID 1 with the image's own ENTRYPOINT under it (given our INIT to run, as Harbor
gives it `sleep infinity`), and the processes running once it is ready are its baseline. Everything that
must hold against the agent is done from the host, through the engine: timeouts and the end of the agent
phase freeze the container and SIGKILL every process that is not the baseline (`envs.host_processes`), files
are read and folders made with archives, and the filesystem diff is the engine's own. Nothing of the
container's userland is trusted by this module.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import tarfile
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import docker
import docker.errors
import requests
from docker.models.containers import Container

from envs import cleanup, labels
from envs.docker_client import docker_client, relay_root
from envs.errors import (
    ArchiveTooLarge,
    NetworkModeError,
    PreloadError,
    SandboxError,
    SandboxNotReady,
    SandboxStartError,
)
from envs.host_processes import HostProcess, boot_ticks, container_processes, kill_processes
from envs.model_relay import ModelRelay
from envs.reaper import MODEL_MOUNT
from envs.sandbox import (
    ExecResult,
    OutputBuffer,
    PathChange,
    ProcessDefaults,
    Sandbox,
    SandboxSpec,
    pack_upload,
)
from envs.task_config import NetworkMode

log = logging.getLogger("forge.envs")

SANDBOX_FILES = "/opt/forge/sandbox"
SANDBOX_FILES_DIR = Path(__file__).parent / "sandbox_files"
MAX_OUTPUT_BYTES = 4 * 1024 * 1024
"""`download` (harness logs, state) reads at most this much."""
READY_TIMEOUT_SEC = 30.0
REMOVE_WAIT_SEC = 30.0
"""How long `stop()` retries a removal the engine refuses before it says so."""
REMOVE_WAIT_BACKGROUND_SEC = 600.0
"""How long a background thread then goes on retrying it (envs.cleanup.keep_removing)."""
INIT = ["/bin/sh", f"{SANDBOX_FILES}/init.sh"]
"""The sandbox's command. The image's ENTRYPOINT, if it has one, is given it as Harbor gives it `sh -c
"sleep infinity"`: an entrypoint that sets things up and ends with `exec "$@"` runs our init after its
services started (so they are the baseline)."""
ENTRYPOINT_GRACE_SEC = 3.0
"""An entrypoint that has not run its command by then never will (a service in the foreground): our init
is then started beside it."""
RUN_DIR = "/run/forge"
"""Our init's state (its run marker, `ready`, `error`): made empty before every start."""
DOCKER_INIT = "/usr/sbin/docker-init"
"""Docker's own init (tini), put in the container by the engine (`init=True`)."""
_DIFF_KINDS = {0: "changed", 1: "added", 2: "deleted"}
_STORAGE_REFUSALS = ("storage-opt", "storage opt", "quota")

_client_lock = threading.Lock()
_client: docker.DockerClient | None = None
_storage_unsupported: str | None = None
"""Why the engine refused a storage limit, once it has (later sandboxes then do not ask again)."""


def _shared_client() -> docker.DockerClient:
    """One engine client for every sandbox of this process (it is safe to share across threads)."""
    global _client
    with _client_lock:
        if _client is None:
            _client = docker_client()
        return _client


def _dir_entry(name: str, uid: int = 0, gid: int = 0, mode: int = 0o755) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    info.mode, info.uid, info.gid, info.mtime = mode, uid, gid, int(time.time())
    return info


class DockerSandbox(Sandbox):
    """One container on the local Docker engine."""

    def __init__(self, spec: SandboxSpec, client: docker.DockerClient | None = None) -> None:
        self.spec = spec
        self._client = client
        self.container: Container | None = None
        self.relay: ModelRelay | None = None
        self.relay_folder: Path | None = None
        self.name = f"forge-{(spec.task or 'sandbox')[:40]}-{uuid.uuid4().hex[:10]}"
        self.name = "".join(c if c.isalnum() or c in "-_." else "-" for c in self.name)
        self.warnings: list[str] = []
        """What the engine could not enforce (a storage limit), by name."""
        self._baseline: set[HostProcess] = set()
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
        volumes: dict[str, dict[str, str]] = {
            str(SANDBOX_FILES_DIR.resolve()): {"bind": SANDBOX_FILES, "mode": "ro"},
        }
        for mount in spec.mounts:
            if not mount.source.exists():
                raise SandboxStartError(f"cannot mount {mount.source} at {mount.target}: no such path")
            volumes[str(mount.source.resolve())] = {
                "bind": mount.target,
                "mode": "ro" if mount.read_only else "rw",
            }
        cleanup.register(self)
        try:
            if spec.network is NetworkMode.MODEL_ONLY:
                if not spec.model_endpoint:  # SandboxSpec's validator refuses it; said again for the type
                    raise NetworkModeError("network 'model-only' needs model_endpoint")
                self.relay_folder = relay_root() / uuid.uuid4().hex[:12]
                self.relay = ModelRelay(self.relay_folder, spec.model_endpoint, spec.model_routes)
                self.relay.start()
                (self.relay_folder / "owner").write_text(owner)
                volumes[str(self.relay_folder)] = {"bind": MODEL_MOUNT, "mode": "ro"}
                env.update(
                    FORGE_MODEL_SOCKET=f"{MODEL_MOUNT}/model.sock",
                    FORGE_MODEL_PORT=str(spec.model_port),
                    FORGE_MODEL_URL=f"http://127.0.0.1:{spec.model_port}",
                )
            with self._lifecycle:  # stop() waits for a create in flight, then removes what it made
                if self._stopped or cleanup.shutting_down():
                    raise SandboxStartError(f"sandbox {self.name} was stopped before it started")
                self.container = self._create(spec, container_labels, env, volumes, self._limits(spec))
            self.container.start()
            self._wait_ready()
            self.mark_baseline()
        except docker.errors.ImageNotFound as exc:
            self.stop()
            raise SandboxStartError(f"image {spec.image} not found (run `forge-env build`)") from exc
        except docker.errors.DockerException as exc:
            self.stop()
            raise SandboxStartError(f"could not start a sandbox from {spec.image}: {exc}") from exc
        except BaseException:
            self.stop()
            raise

    @staticmethod
    def _limits(spec: SandboxSpec) -> dict[str, Any]:
        limits: dict[str, Any] = {}
        if spec.cpus:
            limits["nano_cpus"] = int(spec.cpus * 1e9)
        if spec.memory_mb:
            limits["mem_limit"] = f"{spec.memory_mb}m"
            limits["memswap_limit"] = f"{spec.memory_mb}m"
        if spec.pids_limit:
            limits["pids_limit"] = spec.pids_limit
        if spec.storage_mb:
            limits["storage_opt"] = {"size": f"{spec.storage_mb}M"}
        return limits

    def _create(
        self,
        spec: SandboxSpec,
        container_labels: dict[str, str],
        env: dict[str, str],
        volumes: dict[str, dict[str, str]],
        limits: dict[str, Any],
    ) -> Container:
        global _storage_unsupported
        if "storage_opt" in limits and _storage_unsupported:
            limits.pop("storage_opt")
            self._warn_storage(spec, _storage_unsupported)
        kwargs: dict[str, Any] = dict(
            command=INIT,  # the image's own ENTRYPOINT stays and is given this, as in Harbor
            name=self.name,
            labels=container_labels,
            environment=env,
            working_dir=spec.workdir or None,
            network_mode="host" if spec.network is NetworkMode.HOST else "none",
            volumes=volumes,
            init=True,
            detach=True,
        )
        try:
            container = self.client.containers.create(spec.image, **kwargs, **limits)
        except docker.errors.APIError as exc:
            refusal = str(exc.explanation or exc)
            if "storage_opt" not in limits or not any(w in refusal.lower() for w in _STORAGE_REFUSALS):
                raise
            _storage_unsupported = refusal
            limits.pop("storage_opt")
            self._warn_storage(spec, refusal)
            container = self.client.containers.create(spec.image, **kwargs, **limits)
        for preload in spec.preload:
            with open(preload.archive, "rb") as archive:
                try:
                    ok = container.put_archive("/", archive)
                except docker.errors.APIError as exc:
                    raise PreloadError(
                        f"could not unpack {preload.archive} in sandbox {self.name}: {exc}"
                    ) from exc
            if not ok:
                raise PreloadError(f"could not unpack {preload.archive} in sandbox {self.name}")
        fresh = io.BytesIO()  # no readiness marker an image (a committed sandbox, say) or a preload brought
        with tarfile.open(fileobj=fresh, mode="w") as tar:
            tar.addfile(tarfile.TarInfo(RUN_DIR.lstrip("/")), io.BytesIO(b""))  # replaces whatever is there
            tar.addfile(_dir_entry(RUN_DIR.lstrip("/")))
        container.put_archive("/", fresh.getvalue())
        return container

    def _warn_storage(self, spec: SandboxSpec, refusal: str) -> None:
        message = (
            f"task '{spec.task}': [environment].storage_mb = {spec.storage_mb} is not enforced: "
            f"the Docker engine cannot limit a container's disk here ({refusal})"
        )
        self.warnings.append(message)
        log.warning(message)

    def _start_init_beside(self, container: Container) -> None:
        """Run our init as an exec of its own, for an entrypoint that keeps the main process."""
        try:
            exec_id = self.client.api.exec_create(container.id, INIT)["Id"]
            self.client.api.exec_start(exec_id, detach=True)
        except docker.errors.APIError as exc:
            log.debug("could not start init beside the entrypoint of %s: %s", self.name, exc)

    def _wait_ready(self) -> None:
        started = time.monotonic()
        deadline = started + READY_TIMEOUT_SEC
        container = self._container()
        beside = not (container.attrs.get("Config") or {}).get("Entrypoint")
        while time.monotonic() < deadline:
            if not beside and time.monotonic() - started >= ENTRYPOINT_GRACE_SEC:
                beside = True
                self._start_init_beside(container)
            try:
                ready = self._raw_exec(
                    ["/bin/sh", "-c", "test -e /run/forge/ready"], user="root"
                ).ok  # a builtin
            except docker.errors.APIError as exc:
                # the container stopped under the exec (409, or 500 when it exits mid-exec): said
                # below, with its logs; any other refusal is raised as it is
                self._container().reload()
                if exc.status_code != 409 and self._container().status in ("running", "created"):
                    raise
                ready = False
            if ready:
                error = self.read_file("/run/forge/error", 64 * 1024)
                if error and error.strip():
                    raise SandboxNotReady(error.decode(errors="replace").strip())
                return
            self.container.reload()  # type: ignore[union-attr]
            if self.container.status not in ("running", "created"):  # type: ignore[union-attr]
                logs = self.container.logs(tail=20).decode(errors="replace")  # type: ignore[union-attr]
                raise SandboxNotReady(
                    f"sandbox exited while starting ({self.container.status}; the image's ENTRYPOINT, "  # type: ignore[union-attr]
                    f"if it has one, runs first): {logs}"
                )
            time.sleep(0.05)
        raise SandboxNotReady(f"sandbox was not ready within {READY_TIMEOUT_SEC:.0f}s")

    def stop(self) -> None:
        with self._lifecycle:
            if self._stopped:
                return
            self._stopped = True
            self._remove()

    def _remove(self) -> None:
        try:
            try:
                self.cut_model()
            finally:
                container = self.container
                if container is None:
                    with contextlib.suppress(docker.errors.DockerException):
                        container = self.client.containers.get(self.name)
                if container is not None:
                    self._remove_container(container)
        except docker.errors.DockerException as exc:
            raise SandboxError(f"could not remove sandbox {self.name}: {exc}") from exc
        finally:
            cleanup.unregister(self)

    def _remove_container(self, container: Container) -> None:
        """Remove the container and return only once it is gone. When the engine still refuses at
        REMOVE_WAIT_SEC, a background thread goes on for REMOVE_WAIT_BACKGROUND_SEC (the process waits
        for it at exit) and this raises SandboxError."""
        refused = self._remove_until(container, time.monotonic() + REMOVE_WAIT_SEC)
        if refused is None:
            return
        cleanup.keep_removing(
            self.name,
            refused,
            lambda: self._remove_until(container, time.monotonic() + REMOVE_WAIT_BACKGROUND_SEC),
        )
        raise SandboxError(
            f"could not remove sandbox {self.name} within {REMOVE_WAIT_SEC:.0f}s ({refused}); "
            f"it goes on being removed in the background"
        )

    def _remove_until(self, container: Container, deadline: float) -> str | None:
        """Retry the removal until the container is gone (None) or the deadline passes (why not, then).
        The engine can refuse for a while: 409 while another removal (gc, the watchdog) is in flight,
        which may fail; 500 "could not kill" while a fork-bombed container takes long to die; a read
        timeout while it is busy."""
        while True:
            try:
                container.remove(force=True, v=True)
            except docker.errors.NotFound:
                return None
            except (docker.errors.APIError, requests.exceptions.RequestException) as exc:
                refused = str(exc)
            else:
                refused = "it is still there"
            try:
                self.client.containers.get(container.id or self.name)
            except docker.errors.NotFound:
                return None
            except (docker.errors.APIError, requests.exceptions.RequestException) as exc:
                refused = f"{refused}; then {exc}"
            if time.monotonic() > deadline:
                return refused
            time.sleep(0.25)

    def cut_model(self) -> None:
        """Close the model relay and remove its folder: from now on the sandbox reaches nothing."""
        if self.relay is not None:
            self.relay.close()
            self.relay = None

    def alive(self) -> bool:
        if self.container is None or self._stopped:
            return False
        try:
            self.container.reload()
        except docker.errors.NotFound:
            return False
        except docker.errors.DockerException as exc:
            raise SandboxError(f"cannot inspect sandbox {self.name}: {exc}") from exc
        return self.container.status == "running"

    def process_defaults(self) -> ProcessDefaults:
        config = self._container().attrs.get("Config") or {}
        env = dict(item.split("=", 1) for item in config.get("Env") or [] if "=" in item)
        return ProcessDefaults(workdir=self.spec.workdir or config.get("WorkingDir") or "/", env=env)

    # -- processes -----------------------------------------------------------------------------------------

    def mark_baseline(self) -> None:
        self._baseline = container_processes(self._container())

    def kill_strays(self) -> int:
        baseline = self._baseline
        return kill_processes(self._container(), lambda p: p in baseline)

    def _kill_since(self, ticks: int) -> int:
        """Kill every process (but the baseline) that started at or after `ticks`."""
        baseline = self._baseline
        return kill_processes(self._container(), lambda p: p in baseline or p.start_ticks < ticks)

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
        """Run a command; at the timeout every process started since it began is killed from the host
        (its whole tree, reparented or not), and the sandbox lives on."""
        container = self._container()
        argv = ["bash", "-c", command] if isinstance(command, str) else list(command)
        api = self.client.api
        started = time.monotonic()
        since = boot_ticks()
        create: dict[str, Any] = dict(
            stdout=True,
            stderr=True,
            environment=dict(env or {}),
            workdir=workdir or self.spec.workdir or None,
            user=user or "",
        )
        try:
            try:
                exec_id = api.exec_create(container.id, argv, **create)["Id"]
            except docker.errors.APIError as exc:
                # only we pause a sandbox (kill_processes); under load its thaw can land late
                if exc.status_code != 409 or "paused" not in str(exc.explanation or ""):
                    raise
                with contextlib.suppress(docker.errors.APIError):
                    container.unpause()
                exec_id = api.exec_create(container.id, argv, **create)["Id"]
            stream = api.exec_start(exec_id, stream=True, demux=True)
        except docker.errors.DockerException as exc:
            raise SandboxError(f"exec in sandbox {self.name} failed: {exc}") from exc

        stdout, stderr = OutputBuffer(MAX_OUTPUT_BYTES), OutputBuffer(MAX_OUTPUT_BYTES)
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

        reader = threading.Thread(target=read, name=f"exec-{exec_id[:8]}", daemon=True)
        reader.start()
        deadline = None if timeout is None else started + timeout
        timed_out = False
        next_inspect = started + 2.0
        while not done.wait(0.05):
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                timed_out = True
                with contextlib.suppress(SandboxError, docker.errors.DockerException):
                    self._kill_since(since)
                done.wait(10)
                break
            if now >= next_inspect:
                # The command may have exited while a background child still holds its output open.
                next_inspect = now + 1.0
                try:
                    running = api.exec_inspect(exec_id).get("Running", True)
                except docker.errors.DockerException:
                    running = False
                if not running:
                    done.wait(1.0)
                    break
        with contextlib.suppress(Exception):
            stream.close()
        try:
            info = api.exec_inspect(exec_id)
        except docker.errors.DockerException:
            info = {}
        exit_code = info.get("ExitCode")
        if timed_out and info.get("Running"):
            exit_code = None
        return ExecResult(
            exit_code=exit_code,
            stdout=stdout.text(),
            stderr=stderr.text(),
            timed_out=timed_out,
            duration_sec=time.monotonic() - started,
        )

    # -- files ---------------------------------------------------------------------------------------------

    def _put(self, archive: IO[bytes] | bytes, what: str) -> None:
        try:
            ok = self._container().put_archive("/", archive)
        except docker.errors.DockerException as exc:
            raise SandboxError(f"{what} in sandbox {self.name} failed: {exc}") from exc
        if not ok:
            raise SandboxError(f"{what} in sandbox {self.name} failed")

    def upload(self, source: Path, target: str) -> None:
        """Through the engine's archive API (envs.sandbox.pack_upload); missing parent folders are made
        (root, 0755), a folder's contents merge into `target`."""
        with tempfile.TemporaryFile() as buf:
            pack_upload(source, target, buf)
            buf.seek(0)
            self._put(buf, f"upload of {source} to {target}")

    def make_dir(self, path: str, uid: int = 0, gid: int = 0, mode: int = 0o755) -> None:
        name = os.path.normpath(path).lstrip("/")
        if not name or name.startswith(".."):
            raise SandboxError(f"cannot make a folder at {path!r}")
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            placeholder = tarfile.TarInfo(name)  # a file first: the engine removes whatever was there
            tar.addfile(placeholder, io.BytesIO(b""))
            tar.addfile(_dir_entry(name, uid, gid, mode))  # then the folder replaces the file
        self._put(buf.getvalue(), f"making {path}")

    def export(self, source: str, dest: IO[bytes], max_bytes: int) -> bool:
        """The engine's tar stream of `source` into `dest`, at most `max_bytes` of it. The HTTP response is
        closed whatever happens: one left open mid-stream (a file over the bound) keeps the engine
        writing into a full socket while it holds the container, so its removal would hang until the
        garbage collector happened to close the socket."""
        container = self._container()
        api = self.client.api
        url = f"{api.base_url}/v{api.api_version}/containers/{container.id}/archive"
        try:
            with api.get(
                url,
                params={"path": source},
                stream=True,
                headers={"Accept-Encoding": "identity"},
                timeout=api.timeout,
            ) as res:
                if res.status_code == 404:
                    return False
                if res.status_code >= 400:
                    raise SandboxError(
                        f"cannot read {source} from sandbox {self.name}: {res.status_code} {res.text}"
                    )
                written = 0
                for chunk in res.iter_content(64 * 1024):
                    written += len(chunk)
                    if written > max_bytes:
                        raise ArchiveTooLarge(f"{source} is more than {max_bytes} bytes as an archive")
                    dest.write(chunk)
        except (docker.errors.DockerException, requests.RequestException) as exc:
            raise SandboxError(f"cannot read {source} from sandbox {self.name}: {exc}") from exc
        return True

    def changed_paths(self) -> list[PathChange]:
        """The engine's diff, less what the engine itself made: docker-init, and the mount points (and
        the folders above them) of the helper files, the model socket and the mounts."""
        try:
            diff = self._container().diff() or []
        except docker.errors.DockerException as exc:
            raise SandboxError(f"cannot read the filesystem diff of sandbox {self.name}: {exc}") from exc
        made = {DOCKER_INIT, SANDBOX_FILES, MODEL_MOUNT, *(m.target.rstrip("/") for m in self.spec.mounts)}
        above = {parent for path in made for parent in _parents(path)}
        return [
            PathChange(kind=_DIFF_KINDS.get(entry["Kind"], "changed"), path=entry["Path"])  # type: ignore[arg-type]
            for entry in diff
            if entry["Path"] not in made and not (entry["Path"] in above and entry["Kind"] != 2)
        ]


def _parents(path: str) -> list[str]:
    """/a/b/c -> [/a, /a/b]."""
    parts = path.strip("/").split("/")
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]
