"""The sandbox interface every backend implements.

Lifecycle and use: start, exec (with a timeout that kills the command's processes, not the sandbox),
upload, download, cut_model, stop. What the verification phase needs from outside the agent's reach
(see docs/security.md): mark_baseline and kill_strays (the agent's processes end with its phase,
killed from outside), export and read_file (files read through the engine, never with the sandbox's own
tools), make_dir (a clean folder, whatever the agent left there), changed_paths (the engine's own
filesystem diff), alive and process_defaults.

Callers only see this module. The local Docker backend lives in `envs.docker_sandbox`, the Kubernetes
backend (one pod per sandbox) in `envs.k8s_sandbox`; both implement the same methods, so no caller
changes with the backend. Backends are named in one registry, imported lazily.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal, Self

from pydantic import BaseModel, Field

from envs.errors import ArchiveTooLarge, NetworkModeError, SandboxError
from envs.plugins import PluginError, load_plugin
from envs.task_config import NetworkMode

DOWNLOAD_MAX_BYTES = 8 * 1024**3
"""The most `download` takes from a sandbox."""


class ExecResult(BaseModel):
    """What one command in a sandbox did."""

    exit_code: int | None
    """None when the command was killed at its timeout before reporting a code."""
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    duration_sec: float = 0.0

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


class Mount(BaseModel):
    """A host directory shown inside the sandbox (harness bundles are mounted read-only this way)."""

    source: Path
    target: str
    read_only: bool = True
    image: str | None = None
    """The same folder as an image (at /bundle: envs.cluster_images), for a backend that cannot mount the
    driver's folders (k8s copies it into the pod)."""


class Preload(BaseModel):
    """A tar archive on the host, unpacked at `/` in the sandbox before it starts (the verifier's
    sandbox gets the agent's artifacts this way, in place before the image's own services start)."""

    archive: Path


class PathChange(BaseModel):
    """One entry of the engine's filesystem diff against the image."""

    kind: Literal["changed", "added", "deleted"]
    path: str


class ProcessDefaults(BaseModel):
    """What a command run in the sandbox starts with when exec says nothing else."""

    workdir: str = "/"
    env: dict[str, str] = Field(default_factory=dict)


class OutputBuffer:
    """Collects a command's output stream up to a cap (keeps the head; counts what was dropped)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[bytes] = []
        self.size = 0
        self.dropped = 0

    def add(self, data: bytes | None) -> None:
        if not data:
            return
        room = self.cap - self.size
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


class SandboxSpec(BaseModel):
    """Everything needed to start one sandbox."""

    image: str
    network: NetworkMode = NetworkMode.NONE
    model_endpoint: str | None = None
    """For `model-only`: the host's model server, as `unix:/path/to.sock` or `http://127.0.0.1:PORT`."""
    model_port: int = 8000
    """Port of the loopback forwarder inside the sandbox (the agent uses http://127.0.0.1:PORT)."""
    model_routes: list[str] = Field(default_factory=lambda: ["/v1/"])
    """Path prefixes the model relay lets through (a rollout's own `/rollouts/<id>/v1/`); every other
    request is answered 403 by the relay and never reaches the model server."""
    allow_host_network: bool = False
    """`host` networking is refused unless this is set (an explicit opt-in)."""
    cpus: float | None = 1.0
    memory_mb: int | None = 2048
    pids_limit: int | None = 4096
    storage_mb: int | None = None
    """A cap on the sandbox's writable layer, where the engine supports one (warned by name where not)."""
    workdir: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    mounts: list[Mount] = Field(default_factory=list)
    labels: dict[str, str] = Field(default_factory=dict)
    """Extra labels; `openforge.*` identity labels are always added."""
    preload: list[Preload] = Field(default_factory=list)
    task: str = ""
    run: str = ""
    role: str = "agent"
    """What the sandbox is for: agent, oracle, nop, verify, test."""

    def check(self) -> None:
        if self.network is NetworkMode.HOST and not self.allow_host_network:
            raise NetworkModeError(
                "network 'host' gives the sandbox the host's whole network; it needs an explicit opt-in "
                "(allow_host_network=True, or --allow-host-network on the command line)"
            )
        if self.network is NetworkMode.MODEL_ONLY and not self.model_endpoint:
            raise NetworkModeError(
                "network 'model-only' needs model_endpoint (unix:/path or http://127.0.0.1:PORT)"
            )


class Sandbox(ABC):
    """One isolated container for one rollout. Use as a context manager so it is always stopped."""

    spec: SandboxSpec
    warnings: list[str]
    """What the backend could not enforce, by name (e.g. a storage limit the engine cannot set)."""

    @abstractmethod
    def start(self) -> None:
        """Create and start the sandbox; returns when it is ready for exec."""

    @abstractmethod
    def exec(
        self,
        command: str | Sequence[str],
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        workdir: str | None = None,
        user: str | None = None,
    ) -> ExecResult:
        """Run a command (a string runs under bash -c). At the timeout its whole process tree is killed,
        not the sandbox."""

    @abstractmethod
    def upload(self, source: Path, target: str) -> None:
        """Copy a host file or directory to `target` in the sandbox (a directory's contents go into it)."""

    def download(self, source: str, target: Path) -> None:
        """Copy a sandbox file or directory to `target` on the host (a directory's contents go into it),
        through `export`, so every backend unpacks the same way."""
        target = Path(target)
        with tempfile.TemporaryDirectory(prefix="forge-dl-") as tmp, tempfile.TemporaryFile() as buf:
            if not self.export(source, buf, max_bytes=DOWNLOAD_MAX_BYTES):
                raise SandboxError(f"cannot download {source}: no such file or directory in the sandbox")
            buf.seek(0)
            with tarfile.open(fileobj=buf, mode="r") as tar:
                first = tar.next()
                tar.extractall(tmp, filter="data")
            extracted = Path(tmp) / (first.name if first is not None else os.path.basename(source))
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

    @abstractmethod
    def cut_model(self) -> None:
        """Close the sandbox's way to the model (network model-only) so that from now on it reaches
        nothing; the verifier calls this before the hidden tests run. A no-op for other networks."""

    @abstractmethod
    def stop(self) -> None:
        """Stop and remove the sandbox and everything it holds. Safe to call twice."""

    @abstractmethod
    def mark_baseline(self) -> None:
        """The processes running now are the sandbox's own (its init, model forwarder, the image's
        services): `kill_strays` spares them. `start` marks them once the sandbox is ready."""

    @abstractmethod
    def kill_strays(self) -> int:
        """Kill every process not in the baseline, from outside the sandbox, whatever it did to escape
        (a new session, a double fork, ignored signals, a fork bomb); returns how many were killed. The
        sandbox lives on. A sandbox that is not running has none."""

    @abstractmethod
    def export(self, source: str, dest: IO[bytes], max_bytes: int) -> bool:
        """Write the engine's tar archive of `source` (a file or a folder, symlinks kept as links) to
        `dest`; False when there is no such path. Raises ArchiveTooLarge past `max_bytes`. Works on a
        sandbox whose processes have all exited, and never runs anything inside it."""

    @abstractmethod
    def make_dir(self, path: str, uid: int = 0, gid: int = 0, mode: int = 0o755) -> None:
        """Make `path` an empty folder owned by uid:gid, replacing whatever is there (a file, a symlink,
        a full folder), through the engine: never with the sandbox's own tools."""

    @abstractmethod
    def changed_paths(self) -> list[PathChange]:
        """The engine's own diff of the sandbox's filesystem against its image (mounts not included)."""

    @abstractmethod
    def alive(self) -> bool:
        """Whether the sandbox is still running (its init may have been stopped from inside)."""

    @abstractmethod
    def process_defaults(self) -> ProcessDefaults:
        """The working directory and environment a command gets when exec gives none (the image's
        WORKDIR and ENV with the spec's on top)."""

    def read_file(self, path: str, max_bytes: int) -> bytes | None:
        """The bytes of the regular file at `path` (None when there is none), read through the engine.
        Raises ArchiveTooLarge past `max_bytes`, SandboxError for a path that is not a regular file."""
        with tempfile.TemporaryFile() as buf:
            if not self.export(path, buf, max_bytes + 64 * 1024):
                return None
            buf.seek(0)
            try:
                with tarfile.open(fileobj=buf, mode="r") as tar:
                    member = tar.next()
                    if member is None:
                        return None
                    if not member.isfile():
                        raise SandboxError(f"{path} is not a regular file")
                    if member.size > max_bytes:
                        raise ArchiveTooLarge(f"{path} is {member.size} bytes; at most {max_bytes} are read")
                    extracted = tar.extractfile(member)
                    return extracted.read() if extracted is not None else b""
            except tarfile.TarError as exc:  # e.g. the file changed size while the engine read it
                raise SandboxError(f"{path} could not be read whole: {exc}") from exc

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def pack_upload(source: Path, target: str, dest: IO[bytes]) -> None:
    """Write the archive an upload of `source` to `target` unpacks at `/` (every backend's the same):
    names under `target`, owned by root, the target folder readable by any user the tests run as."""
    source = Path(source)
    if not source.exists():
        raise SandboxError(f"cannot upload {source}: no such file or directory")
    name = os.path.normpath(target).lstrip("/")
    if not name or name.startswith(".."):
        raise SandboxError(f"cannot upload to {target!r}")

    def normal(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        if info.isdir() and info.name == name:
            info.mode = 0o755
        return info

    with tarfile.open(fileobj=dest, mode="w") as tar:
        tar.add(str(source), arcname=name, filter=normal)


BACKENDS: dict[str, str] = {
    "docker": "envs.docker_sandbox:DockerSandbox",
    "k8s": "envs.k8s_sandbox:KubernetesSandbox",
}
"""Backend name -> `module:Class`; a `module:Class` path not listed here works too."""


_default_backend = "docker"


def set_default_backend(name: str) -> None:
    """The backend `create_sandbox` uses when none is named (the CLIs' `--backend`)."""
    global _default_backend
    _default_backend = name


def default_backend() -> str:
    return _default_backend


def create_sandbox(spec: SandboxSpec, backend: str | None = None, **options: Any) -> Sandbox:
    """A sandbox (not yet started) of the named backend (None: the process's default, `--backend`);
    `options` go to its constructor (e.g. client).

    Raises PluginError for a backend that does not resolve (PluginDependencyMissing: its client package
    is not installed)."""
    backend = backend or _default_backend
    cls = load_plugin(backend, BACKENDS, "sandbox backend")
    if not (isinstance(cls, type) and issubclass(cls, Sandbox)):
        raise PluginError(f"sandbox backend {backend!r} ({BACKENDS.get(backend, backend)}) is not a Sandbox")
    backend_class: Callable[..., Sandbox] = cls  # every backend takes (spec, **its options)
    return backend_class(spec, **options)
