"""Test doubles for the loops around a sandbox and a harness, so they have fast tests without Docker.

`FakeSandbox` implements envs.sandbox.Sandbox over a host folder that stands for the sandbox's `/`:
upload, download, export (and with it read_file), make_dir, preloads, mounts and the filesystem diff work
on real files, with the Docker backend's semantics (a folder's contents merge into the target, a file
replaces what was there, the archive's top entry is the path's basename). `exec` runs no program: it
records each command and answers with what the test's handler returns; the handler plays the programs,
writing files with `put_file`. Left to the sandbox, the few commands the code around a harness runs
itself (`mkdir -p`, `test -e`, `rm -rf`, `cat`, `true`) act on the files and any other exits 0.
`model_request` is the sandbox's way to its model, held to the spec's model routes as the relay holds it.

`FakeBackend` hands such sandboxes to envs.sandbox.create_sandbox under a backend name, so code that
starts sandboxes by name (train.rollout, envs.verifier) runs unchanged on them. `NullHarness` is a
harness that does nothing (it launches `true`, installed by an installer that installs nothing), and
`RecordingTrainer` a trainer that learns nothing and records what it was given.
"""

from __future__ import annotations

import io
import json
import os
import posixpath
import shlex
import shutil
import tarfile
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, ClassVar

import httpx
import pytest

from envs import sandbox as sandbox_module
from envs.errors import ArchiveTooLarge, PreloadError, SandboxError
from envs.model_relay import parse_endpoint, route_allowed
from envs.sandbox import ExecResult, PathChange, ProcessDefaults, Sandbox, SandboxSpec
from envs.task_config import NetworkMode
from harnesses.bundle import Bundle
from harnesses.harness import Harness, Launch, LaunchContext
from harnesses.installers import Installer
from train.trainer import StepMetrics, TrainingSample

_TRAINER_STATE = "recording-trainer.json"


@dataclass(frozen=True)
class ExecCall:
    """One command a FakeSandbox was asked to run, with what exec was given."""

    argv: list[str]
    """The command as the sandbox runs it (a string command becomes `bash -c <it>`)."""
    timeout: float | None
    env: dict[str, str]
    workdir: str
    """The directory it runs in: exec's, else the sandbox's default."""
    user: str | None


_SHELLS = frozenset({"sh", "/bin/sh", "bash", "/bin/bash"})
_SHELL_SYNTAX = frozenset({";", "&&", "||", "|", ">", ">>", "<", "&"})

ExecHandler = Callable[["FakeSandbox", ExecCall], ExecResult | None]
"""Plays the program a command runs: returns its result, may write files with `sandbox.put_file`, or
raise SandboxError for a sandbox that fails under it. None leaves the command to the sandbox: the few it
knows (`mkdir -p`, `test -e`, `rm -rf`, `cat`, `true`) act on the files, any other exits 0 silently."""


def _normal(path: str) -> str:
    """`path` as a name relative to the sandbox's `/` (`..` stops at `/`, as it does in the sandbox)."""
    return os.path.normpath("/" + path).lstrip("/")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()


def _snapshot(root: Path) -> dict[str, tuple[str, int, int, int]]:
    """Sandbox path -> (kind, size, mtime, mode) of everything under `root`."""
    found: dict[str, tuple[str, int, int, int]] = {}
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            info = path.lstat()
            kind = "link" if path.is_symlink() else "dir" if path.is_dir() else "file"
            size = 0 if kind == "dir" else info.st_size
            found["/" + path.relative_to(root).as_posix()] = (kind, size, info.st_mtime_ns, info.st_mode)
    return found


class FakeSandbox(Sandbox):
    """A Sandbox over a host folder with scripted commands (see the module docstring).

    What the test can read afterwards: `calls` (every exec), `owners` (uid, gid given to make_dir),
    `baseline_marked`, `model_cut`, `kill_strays_calls`, `started`, `stopped`. What it can set from a
    handler: `strays` (processes the next kill_strays reports killed) and `dead` (the sandbox's init
    stopped: alive() is False)."""

    def __init__(
        self,
        spec: SandboxSpec,
        *,
        root: Path | None = None,
        handler: ExecHandler | None = None,
        files: Mapping[str, str | bytes] | None = None,
        image_env: Mapping[str, str] | None = None,
        image_workdir: str = "/",
    ) -> None:
        self.spec = spec
        self.warnings = []
        self.name = f"fake-{spec.role}-{uuid.uuid4().hex[:8]}"
        self.root = Path(root) if root is not None else Path(tempfile.mkdtemp(prefix="forge-fake-sandbox-"))
        self.handler = handler
        self.files = dict(files or {})
        """The image's files, written when the sandbox starts."""
        self.image_env = dict(image_env or {})
        self.image_workdir = image_workdir
        self.calls: list[ExecCall] = []
        self.owners: dict[str, tuple[int, int]] = {}
        self.baseline_marked = False
        self.model_cut = False
        self.kill_strays_calls = 0
        self.strays = 0
        self.dead = False
        self.started = False
        self.stopped = False
        self._image: dict[str, tuple[str, int, int, int]] = {}
        self._lock = threading.Lock()

    # -- where things are ----------------------------------------------------------------------------

    def host_path(self, path: str) -> Path:
        """The host path of sandbox path `path` (under a mount: in the mount's source)."""
        name = _normal(path)
        for mount in self.spec.mounts:
            target = _normal(mount.target)
            if name == target or name.startswith(target + "/"):
                return Path(mount.source) / os.path.relpath(name, target)
        return self.root / name

    def put_file(self, path: str, content: str | bytes) -> None:
        """Write a file at sandbox path `path` (its folders made): what a handler's program leaves."""
        dest = self._writable(path)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(content.encode() if isinstance(content, str) else content)

    def _writable(self, path: str) -> Path:
        """The host path to write sandbox path `path` at: never `/` itself nor a mount (the engine
        refuses read-only ones; this double writes through none)."""
        name = _normal(path)
        if not name:
            raise SandboxError(f"cannot write to {path!r} in sandbox {self.name}")
        for mount in self.spec.mounts:
            target = _normal(mount.target)
            if name == target or name.startswith(target + "/"):
                raise SandboxError(f"{path} is on the mount {mount.target} in sandbox {self.name}")
        return self.root / name

    def _running(self) -> None:
        if not self.started or self.stopped:
            raise SandboxError(f"sandbox {self.name} is not running")

    def _put(self, archive: IO[bytes], what: str) -> None:
        """Unpack a tar archive at `/` as the engine does: each entry replaces what is at its path, except
        that a folder's entries merge into a folder already there."""
        try:
            with tarfile.open(fileobj=archive, mode="r") as tar:
                for member in tar:
                    dest = self._writable(member.name)
                    merges = member.isdir() and dest.is_dir() and not dest.is_symlink()
                    if (dest.exists() or dest.is_symlink()) and not merges:
                        _remove(dest)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    tar.extract(member, self.root, filter="tar")
                    if member.isdir():
                        dest.chmod(member.mode & 0o7777)
        except (tarfile.TarError, OSError) as exc:
            raise SandboxError(f"{what} failed in sandbox {self.name}: {exc}") from exc

    # -- lifecycle -----------------------------------------------------------------------------------

    def start(self) -> None:
        self.spec.check()
        if self.started:
            raise SandboxError(f"sandbox {self.name} was started already")
        self.root.mkdir(parents=True, exist_ok=True)
        for folder in {self.image_workdir, self.spec.workdir or "/"} - {"/"}:
            self._writable(folder).mkdir(parents=True, exist_ok=True)  # the engine makes the WORKDIR
        for path, content in self.files.items():
            self.put_file(path, content)
        for preload in self.spec.preload:
            with open(preload.archive, "rb") as archive:
                try:
                    self._put(archive, f"unpacking {preload.archive}")
                except SandboxError as exc:
                    raise PreloadError(str(exc)) from exc
        self._image = _snapshot(self.root)
        self.started = True
        self.mark_baseline()

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self.cut_model()

    def cut_model(self) -> None:
        self.model_cut = True

    def alive(self) -> bool:
        return self.started and not self.stopped and not self.dead

    def process_defaults(self) -> ProcessDefaults:
        self._running()
        return ProcessDefaults(
            workdir=self.spec.workdir or self.image_workdir or "/", env=self.image_env | self.spec.env
        )

    # -- processes -----------------------------------------------------------------------------------

    def mark_baseline(self) -> None:
        self.baseline_marked = True

    def kill_strays(self) -> int:
        self._running()
        with self._lock:
            self.kill_strays_calls += 1
            killed, self.strays = self.strays, 0
        return killed

    def exec(
        self,
        command: str | Sequence[str],
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        workdir: str | None = None,
        user: str | None = None,
    ) -> ExecResult:
        self._running()
        argv = ["bash", "-c", command] if isinstance(command, str) else list(command)
        call = ExecCall(
            argv=argv,
            timeout=timeout,
            env=dict(env or {}),
            workdir=workdir or self.process_defaults().workdir,
            user=user,
        )
        self.calls.append(call)
        started = time.monotonic()
        result = self.handler(self, call) if self.handler is not None else None
        result = result if result is not None else self._builtin(call)
        result = result if result is not None else ExecResult(exit_code=0)
        if not result.duration_sec:
            result = result.model_copy(update={"duration_sec": time.monotonic() - started})
        return result

    def _builtin(self, call: ExecCall) -> ExecResult | None:
        """The few commands the code around a harness runs itself (`mkdir -p`, `test -e`, `rm -rf`,
        `cat`, `true`), done on the files; None for any other."""
        argv = call.argv
        if len(argv) == 3 and argv[0] in _SHELLS and argv[1] == "-c":
            try:
                argv = shlex.split(argv[2])
            except ValueError:
                return None
            if any(word in _SHELL_SYNTAX for word in argv):
                return None

        def where(path: str) -> str:
            return posixpath.join(call.workdir, path)

        match argv:
            case ["true"] | [":"]:
                return ExecResult(exit_code=0)
            case ["mkdir", "-p", *paths]:
                for path in paths:
                    self._writable(where(path)).mkdir(parents=True, exist_ok=True)
                return ExecResult(exit_code=0)
            case ["test", "-e", path]:
                found = self.host_path(where(path))
                return ExecResult(exit_code=0 if found.exists() or found.is_symlink() else 1)
            case ["rm", "-rf", "--", *paths] | ["rm", "-rf", *paths]:
                for path in paths:
                    _remove(self._writable(where(path)))
                return ExecResult(exit_code=0)
            case ["cat", path]:
                found = self.host_path(where(path))
                if not found.is_file():
                    return ExecResult(exit_code=1, stderr=f"cat: {path}: No such file or directory\n")
                return ExecResult(exit_code=0, stdout=found.read_text(errors="replace"))
        return None

    # -- files ---------------------------------------------------------------------------------------

    def upload(self, source: Path, target: str) -> None:
        source = Path(source)
        if not source.exists():
            raise SandboxError(f"cannot upload {source}: no such file or directory")
        name = _normal(target)
        self._running()
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            tar.add(str(source), arcname=name)
        buf.seek(0)
        self._put(buf, f"upload of {source} to {target}")

    def export(self, source: str, dest: IO[bytes], max_bytes: int) -> bool:
        if not self.started:
            raise SandboxError(f"sandbox {self.name} was never started")
        path = self.host_path(source)
        if not (path.exists() or path.is_symlink()):
            return False
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            tar.add(str(path), arcname=os.path.basename(_normal(source)) or ".")
        if buf.tell() > max_bytes:
            raise ArchiveTooLarge(f"{source} is more than {max_bytes} bytes as an archive")
        dest.write(buf.getvalue())
        return True

    def make_dir(self, path: str, uid: int = 0, gid: int = 0, mode: int = 0o755) -> None:
        self._running()
        dest = self._writable(path)
        _remove(dest)
        dest.mkdir(parents=True)
        dest.chmod(mode)
        self.owners["/" + _normal(path)] = (uid, gid)

    def changed_paths(self) -> list[PathChange]:
        """What changed under the sandbox's `/` since it started, as the engine lists it: each change,
        and every folder above one as `changed`."""
        self._running()
        now = _snapshot(self.root)
        changes: dict[str, str] = {}
        for path in now.keys() | self._image.keys():
            if path not in self._image:
                changes[path] = "added"
            elif path not in now:
                changes[path] = "deleted"
            elif now[path] != self._image[path] and now[path][0] != "dir":
                changes[path] = "changed"
        for path in list(changes):
            parent = path.rsplit("/", 1)[0]
            while parent and parent not in changes:
                changes[parent] = "changed"
                parent = parent.rsplit("/", 1)[0]
        return [PathChange(kind=kind, path=path) for path, kind in sorted(changes.items())]  # type: ignore[arg-type]

    # -- the model -----------------------------------------------------------------------------------

    def model_request(
        self,
        path: str,
        *,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        method: str = "POST",
        timeout: float = 60.0,
    ) -> httpx.Response:
        """A request from inside the sandbox to http://127.0.0.1:<model_port><path>: a connection error
        unless the network is model-only and the model not cut; 403 from the relay outside the spec's
        model routes; else the model server's answer."""
        if self.spec.network is not NetworkMode.MODEL_ONLY or not self.spec.model_endpoint:
            raise httpx.ConnectError(
                f"sandbox {self.name} has no way to a model (network {self.spec.network})"
            )
        if self.model_cut or not self.alive():
            raise httpx.ConnectError(f"sandbox {self.name}: the way to the model is closed")
        if not route_allowed(method, path, self.spec.model_routes):
            return httpx.Response(403, json={"error": {"type": "forbidden", "message": f"{path} is refused"}})
        _, where = parse_endpoint(self.spec.model_endpoint)
        if isinstance(where, str):  # unix:/path
            transport, base = httpx.HTTPTransport(uds=where), "http://model"
        else:
            transport, base = httpx.HTTPTransport(), f"http://{where[0]}:{where[1]}"
        with httpx.Client(transport=transport, base_url=base, timeout=timeout) as client:
            return client.request(method, path, json=json, headers=dict(headers or {}))


@dataclass
class FakeBackend:
    """Makes FakeSandboxes for envs.sandbox.create_sandbox, each in a folder of its own under `root`,
    all with one handler and one image (`files`, `image_env`, `image_workdir`)."""

    root: Path
    handler: ExecHandler | None = None
    files: Mapping[str, str | bytes] = field(default_factory=dict)
    image_env: Mapping[str, str] = field(default_factory=dict)
    image_workdir: str = "/"
    sandboxes: list[FakeSandbox] = field(default_factory=list)
    """Every sandbox made, in order."""
    sandbox_class: type[FakeSandbox] = field(init=False, repr=False)
    """The backend class create_sandbox gets: built from the spec alone, with this backend's settings."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        backend = self

        class BoundFakeSandbox(FakeSandbox):
            def __init__(self, spec: SandboxSpec, **options: Any) -> None:
                with backend._lock:
                    root = backend.root / f"{len(backend.sandboxes):03d}-{spec.role}"
                    backend.sandboxes.append(self)
                settings: dict[str, Any] = {
                    "root": root,
                    "handler": backend.handler,
                    "files": backend.files,
                    "image_env": backend.image_env,
                    "image_workdir": backend.image_workdir,
                }
                super().__init__(spec, **(settings | options))

        self.sandbox_class = BoundFakeSandbox

    def create(self, spec: SandboxSpec) -> FakeSandbox:
        """A sandbox of this backend (not yet started)."""
        return self.sandbox_class(spec)

    def install(self, monkeypatch: pytest.MonkeyPatch, name: str = "fake") -> str:
        """Register this backend as `name` in envs.sandbox.BACKENDS for the test (undone after it) and
        return the name. A backend is resolved as `module:Class`, so the class is put in this module
        under an attribute of its own for the test's duration."""
        attribute = f"_FakeSandbox_{uuid.uuid4().hex[:8]}"
        monkeypatch.setattr(f"{__name__}.{attribute}", self.sandbox_class, raising=False)
        monkeypatch.setitem(sandbox_module.BACKENDS, name, f"{__name__}:{attribute}")
        return name


def ask_model(sandbox: FakeSandbox, call: ExecCall, content: str = "hello") -> httpx.Response:
    """What a chat-completions harness does first: one call to the model its launch names
    (OPENAI_BASE_URL, OPENAI_API_KEY in the launch's environment), through the sandbox's relay."""
    base_url = call.env["OPENAI_BASE_URL"]
    path = "/" + base_url.split("://", 1)[1].split("/", 1)[1].rstrip("/") + "/chat/completions"
    return sandbox.model_request(
        path,
        json={"model": call.env.get("OPENAI_MODEL", "m"), "messages": [{"role": "user", "content": content}]},
        headers={"authorization": f"Bearer {call.env['OPENAI_API_KEY']}"},
    )


class NullInstall(Installer):
    """Installs nothing: the null harness has no program of its own."""

    def install(self, target: Path) -> None:
        target.mkdir(parents=True, exist_ok=True)


class NullHarness(Harness):
    """A harness that does nothing: it launches `true` with the model's address in its environment
    (where a chat-completions CLI reads it), so a sandbox's handler can play any agent, or none."""

    name: ClassVar[str] = "null"
    version: ClassVar[str] = "0"
    wire_api = "chat.completions"
    tools: ClassVar[tuple[str, ...]] = ("shell",)
    description: ClassVar[str] = "does nothing; for tests of the loops around a harness"
    installer: ClassVar[Installer] = NullInstall()

    def launch(self, ctx: LaunchContext) -> Launch:
        return Launch(
            argv=["true"],
            env={
                "OPENAI_BASE_URL": f"{ctx.base_url}/v1",
                "OPENAI_API_KEY": ctx.api_key,
                "OPENAI_MODEL": ctx.model,
                "HOME": ctx.home,
            },
        )


def is_launch(call: ExecCall) -> bool:
    """Whether `call` is NullHarness's launch (not one of the commands run around it)."""
    return call.argv == ["true"] and "OPENAI_BASE_URL" in call.env


def null_bundle(path: Path) -> Bundle:
    """A bundle for NullHarness at `path` (made, empty)."""
    NullHarness.installer.install(path)
    return Bundle(
        harness=NullHarness.name,
        version=NullHarness.version,
        path=path,
        installer=NullHarness.installer.describe(),
        size_bytes=0,
        build_sec=0.0,
        built_at="1970-01-01T00:00:00+00:00",
    )


class RecordingTrainer:
    """A Trainer (train.trainer's protocol) that learns nothing: it records what each update was given
    and always exports the weights it started from, so the loops around it run on the real engine in
    seconds. A checkpoint holds those weights (`model/`, where the GRPO loop serves a resumed run from)
    and how many updates came before it."""

    def __init__(self, model_dir: Path) -> None:
        self.model_dir = Path(model_dir)
        self.grpo_updates: list[list[TrainingSample]] = []
        self.sft_updates: list[list[TrainingSample]] = []
        self.loaded: list[Path] = []
        """Every checkpoint directory load_checkpoint was given."""
        self.updates = 0

    def _metrics(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        self.updates += 1
        return StepMetrics(
            loss=0.0,
            samples=len(samples),
            rollouts=len({s.rollout_id for s in samples}),
            trained_tokens=sum(sum(s.response_mask) for s in samples),
        )

    def grpo_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        self.grpo_updates.append(list(samples))
        return self._metrics(samples)

    def sft_step(self, samples: Sequence[TrainingSample]) -> StepMetrics:
        self.sft_updates.append(list(samples))
        return self._metrics(samples)

    def export_weights(self, out_dir: Path) -> Path:
        shutil.copytree(self.model_dir, out_dir, dirs_exist_ok=True)
        return out_dir

    def save_checkpoint(self, out_dir: Path) -> None:
        self.export_weights(out_dir / "model")
        (out_dir / _TRAINER_STATE).write_text(json.dumps({"updates": self.updates}) + "\n")

    def load_checkpoint(self, checkpoint_dir: Path) -> None:
        state = checkpoint_dir / _TRAINER_STATE
        if not state.is_file():
            raise FileNotFoundError(f"{checkpoint_dir} is not a checkpoint: {_TRAINER_STATE} is missing")
        self.updates = int(json.loads(state.read_text())["updates"])
        self.loaded.append(checkpoint_dir)
