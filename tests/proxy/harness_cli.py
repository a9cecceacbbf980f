"""Run the real harness CLIs (Codex CLI, Claude Code, Qwen Code) headless against a model endpoint.

Helper for tests, not a test module. The CLIs come from the harness bundles (`forge-env harness build
codex claude-code qwen-code`, which `.ci/setup` runs), at the versions their adapters pin; here they run
on the host. Their argv, environment and config files are the adapters' own `launch()` (harnesses/),
given host paths instead of the task container's, so the flags that keep them quiet live in one place.
A CLI only ever runs inside a fresh network namespace that has nothing but loopback (`run_in_netns`):
the model endpoint is a Unix socket on the host, reachable from inside because it is a filesystem
object, and served inside the namespace on http://127.0.0.1:PORT by the stdlib forwarder of the
sandboxes (envs/sandbox_files/forward.py). The CLI runs under `strace`, so a test can check that it
connected to nothing but that port (and local Unix/netlink sockets): no DNS lookup, no telemetry, no
update check.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from envs.connect_trace import Connect, outside_connects, parse_strace
from harnesses.bundle import bundle_dir, find_bundle
from harnesses.harness import Harness, Launch, LaunchContext, WireApi
from harnesses.installers import NpmInstall
from harnesses.registry import get_harness

REPO = Path(__file__).resolve().parents[2]
FORWARD_PY = REPO / "envs" / "sandbox_files" / "forward.py"
INSTALL_HINT = (
    "run `forge-env harness build codex claude-code qwen-code` (and .ci/setup for unshare/ip/strace)"
)


@dataclass(frozen=True)
class CliRun:
    """What one headless run of a harness CLI needs.

    base_url is the proxy's root without the API prefix, e.g. http://127.0.0.1:PORT or
    http://127.0.0.1:PORT/rollouts/ID; each adapter adds /v1 where its CLI expects it.
    home_dir is private to this run: HOME, the CLI's state and config dirs, TMPDIR and the logs go under it.
    """

    base_url: str
    api_key: str
    model: str
    workdir: Path
    prompt: str
    home_dir: Path

    @property
    def logs_dir(self) -> Path:
        """The host's stand-in for the container's /logs/agent (Codex writes its final message there)."""
        return self.home_dir / "logs"


@dataclass(frozen=True)
class Invocation:
    argv: list[str]
    env: dict[str, str]
    files: list[Path] = field(default_factory=list)  # config files written under home_dir


@dataclass(frozen=True)
class HarnessCli:
    """A harness adapter, run on the host, plus what the tests check of its first model call."""

    name: str
    adapter: str
    """The harness adapter that launches this CLI and whose bundle holds it."""
    request_path: str  # path (and query) of its model call, relative to the server root
    auth_header: str  # header that carries the API key

    @property
    def harness(self) -> Harness:
        return get_harness(self.adapter)

    @property
    def version(self) -> str:
        return self.harness.version

    @property
    def wire_api(self) -> WireApi:
        return self.harness.wire_api

    @property
    def package(self) -> str:
        """The npm package the adapter installs (its spec without the pinned version)."""
        installer = self.harness.installer
        assert isinstance(installer, NpmInstall), f"{self.adapter} is not installed from npm"
        return installer.packages[0].rpartition("@")[0]

    @property
    def install_dir(self) -> Path:
        return bundle_dir(self.harness)

    def launch(self, run: CliRun) -> Launch:
        """The adapter's launch, with the bundle, home and logs at their host paths."""
        return self.harness.launch(_host_context(self.install_dir, run))

    def bundle_paths(self) -> list[Path]:
        """The bundle files the launch runs (the program, and the script a bundled runtime runs)."""
        probe = CliRun("http://127.0.0.1", "", "", Path("/"), "", Path("/"))
        root = f"{self.install_dir}/"
        return [Path(arg) for arg in self.launch(probe).argv if arg.startswith(root)]

    def invocation(self, run: CliRun) -> Invocation:
        """Prepare run.home_dir as the sandbox's runner would, and return what to run there."""
        launch = self.launch(run)
        if launch.stdin is not None:
            raise NotImplementedError(f"{self.adapter} reads its stdin from a file; run_in_netns does not")
        return Invocation(launch.argv, launch.env, _prepare_host(launch, run))


def _host_context(bundle: Path, run: CliRun) -> LaunchContext:
    return LaunchContext(
        instruction=run.prompt,
        model=run.model,
        base_url=run.base_url,
        api_key=run.api_key,
        workdir=str(run.workdir),
        home=str(run.home_dir),
        bundle=str(bundle),
        logs=str(run.logs_dir),
    )


def _prepare_host(launch: Launch, run: CliRun) -> list[Path]:
    """What harnesses.headless does in the container: make TMPDIR and the logs dir, write the files."""
    for folder in (Path(launch.env["TMPDIR"]), run.logs_dir):
        folder.mkdir(parents=True, exist_ok=True)
    written = []
    for target, text in launch.files.items():
        path = Path(target)
        if not path.is_relative_to(run.home_dir):
            raise ValueError(f"{target}: a launch file outside the run's home would land on the host")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        written.append(path)
    return written


HARNESS_CLIS: dict[str, HarnessCli] = {
    cli.name: cli
    for cli in [
        HarnessCli("codex", "codex", request_path="/v1/responses", auth_header="authorization"),
        HarnessCli("claude", "claude-code", request_path="/v1/messages?beta=true", auth_header="x-api-key"),
        HarnessCli("qwen", "qwen-code", request_path="/v1/chat/completions", auth_header="authorization"),
    ]
}


def installed(name: str) -> bool:
    """Whether this CLI's harness bundle is built (at the pinned version) with the files its launch runs."""
    cli = HARNESS_CLIS[name]
    paths = cli.bundle_paths()
    return find_bundle(cli.harness) is not None and bool(paths) and all(p.exists() for p in paths)


def missing_tools() -> list[str]:
    """Host tools run_in_netns needs that are not on PATH."""
    return [tool for tool in ("unshare", "ip", "strace") if shutil.which(tool) is None]


def not_installed_reason(name: str) -> str:
    cli = HARNESS_CLIS[name]
    return f"{cli.package}@{cli.version} is not installed under {cli.install_dir}: {INSTALL_HINT}"


# --- running inside a loopback-only network namespace -------------------------------------------------


class NetnsResult(subprocess.CompletedProcess[str]):
    """The CLI's exit status and output, plus what the run saw of it."""

    def __init__(
        self,
        args: list[str],
        returncode: int,
        stdout: str,
        stderr: str,
        *,
        timed_out: bool,
        connects: list[Connect],
        started_at: float | None,
        seconds: float,
    ) -> None:
        super().__init__(args, returncode, stdout, stderr)
        self.timed_out = timed_out
        self.connects = connects
        self.started_at = started_at  # time.time() just before the CLI was started, None if it never was
        self.seconds = seconds

    def outside_connects(self, port: int) -> list[Connect]:
        """Every address that is not the forwarder's 127.0.0.1:port, a Unix socket or netlink."""
        return outside_connects(self.connects, {f"127.0.0.1:{port}"})


# Runs the sandboxes' forwarder unchanged, but makes it touch our ready file instead of
# /run/forge/forward.ready (which does not exist on the host).
_FORWARDER = """
import asyncio, importlib.util, pathlib, sys, types
path, ready, host, port, sock = sys.argv[1:]
spec = importlib.util.spec_from_file_location("forge_forward", path)
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
mod.pathlib = types.SimpleNamespace(Path=lambda _p: pathlib.Path(ready))
asyncio.run(mod.main(host, int(port), sock))
"""

# PID 1 of the new pid + network namespace: loopback up, forwarder up, then the CLI under strace.
# When it exits (or is killed), the kernel kills everything else left in the namespace.
_INNER = """
import json, os, subprocess, sys, time
spec = json.loads(sys.argv[1])
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
fwd = subprocess.Popen([sys.executable, "-c", spec["forwarder"], spec["forward_py"], spec["ready"],
                        "127.0.0.1", str(spec["port"]), spec["socket"]])
deadline = time.monotonic() + 15
while not os.path.exists(spec["ready"]):
    if fwd.poll() is not None or time.monotonic() > deadline:
        print("forge: the loopback forwarder did not start", file=sys.stderr, flush=True)
        sys.exit(97)
    time.sleep(0.01)
with open(spec["started"], "w") as f:
    f.write(repr(time.time()))
argv = ["strace", "-f", "-qq", "-s", "256", "-e", "trace=connect,sendto,sendmsg", "-e", "signal=none",
        "-o", spec["strace"], "--"] + spec["argv"]
cli = subprocess.run(argv, env=spec["env"], cwd=spec["cwd"], stdin=subprocess.DEVNULL)
sys.exit(cli.returncode)
"""


def run_in_netns(
    argv: list[str],
    env: dict[str, str],
    cwd: Path,
    socket_path: Path,
    port: int,
    timeout: float,
    *,
    run_dir: Path | None = None,
) -> NetnsResult:
    """Run argv in a new network + pid namespace that has only loopback, with 127.0.0.1:port forwarded
    to socket_path, under strace. On timeout the whole namespace is killed (every process in it).

    As root it needs no user namespace; otherwise it maps the caller to root in a new one. run_dir keeps
    strace's log and the forwarder's ready file; a fresh temp dir by default.
    """
    if missing := missing_tools():
        raise RuntimeError(f"missing host tools {missing}: {INSTALL_HINT}")
    if run_dir is None:
        run_dir = Path(tempfile.mkdtemp(prefix="forge-netns-"))
    run_dir.mkdir(parents=True, exist_ok=True)
    spec = {
        "forwarder": _FORWARDER,
        "forward_py": str(FORWARD_PY),
        "ready": str(run_dir / "forward.ready"),
        "started": str(run_dir / "cli.started"),
        "strace": str(run_dir / "strace.log"),
        "port": port,
        "socket": str(socket_path),
        "argv": argv,
        "env": env,
        "cwd": str(cwd),
    }
    for stale in ("ready", "started", "strace"):
        Path(str(spec[stale])).unlink(missing_ok=True)
    outer = [
        "unshare",
        # Root needs no user namespace; anyone else gets one where they are root (if the kernel allows).
        *([] if os.geteuid() == 0 else ["--map-root-user"]),
        "--net",
        "--pid",
        "--fork",
        "--kill-child",
        "--mount-proc",
        "--",
        sys.executable,
        "-c",
        _INNER,
        json.dumps(spec),
    ]
    began = time.monotonic()
    proc = subprocess.Popen(
        outer, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    timed_out = False
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        proc.kill()  # unshare dies; --kill-child kills PID 1 of the namespace, and with it all the rest
        stdout, stderr = proc.communicate()
    seconds = time.monotonic() - began
    strace_log = run_dir / "strace.log"
    started = run_dir / "cli.started"
    return NetnsResult(
        argv,
        proc.returncode,
        stdout,
        stderr,
        timed_out=timed_out,
        connects=parse_strace(strace_log.read_text(errors="replace")) if strace_log.exists() else [],
        started_at=float(started.read_text()) if started.exists() else None,
        seconds=seconds,
    )
