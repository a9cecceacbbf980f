"""Run the real harness CLIs (Codex CLI, Claude Code, Qwen Code) headless against a model endpoint.

Helper for tests, not a test module. The CLIs come from the harness bundles (`forge-env harness build
codex claude-code qwen-code`, which `.ci/setup` runs), at the versions their adapters pin; here they run
on the host. A CLI only ever runs inside a fresh network namespace that has nothing but
loopback (`run_in_netns`): the model endpoint is a Unix socket on the host, reachable from inside because
it is a filesystem object, and served inside the namespace on http://127.0.0.1:PORT by the stdlib
forwarder of the sandboxes (envs/sandbox_files/forward.py). The CLI runs under `strace`, so a test can
check that it connected to nothing but that port (and local Unix/netlink sockets): no DNS lookup, no
telemetry, no update check.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from envs.connect_trace import Connect, outside_connects, parse_strace
from harnesses.bundle import bundle_dir, find_bundle
from harnesses.registry import get_harness

REPO = Path(__file__).resolve().parents[2]
FORWARD_PY = REPO / "envs" / "sandbox_files" / "forward.py"
INSTALL_HINT = (
    "run `forge-env harness build codex claude-code qwen-code` (and .ci/setup for unshare/ip/strace)"
)

WireApi = Literal["responses", "messages", "chat.completions"]


@dataclass(frozen=True)
class CliRun:
    """What one headless run of a harness CLI needs.

    base_url is the proxy's root without the API prefix, e.g. http://127.0.0.1:PORT or
    http://127.0.0.1:PORT/rollouts/ID; each CLI's builder adds /v1 where that CLI expects it.
    home_dir is private to this run: HOME, the CLI's state and config dirs and TMPDIR go under it.
    """

    base_url: str
    api_key: str
    model: str
    workdir: Path
    prompt: str
    home_dir: Path


@dataclass(frozen=True)
class Invocation:
    argv: list[str]
    env: dict[str, str]
    files: list[Path] = field(default_factory=list)  # config files written under home_dir


@dataclass(frozen=True)
class HarnessCli:
    name: str
    package: str
    version: str
    wire_api: WireApi
    request_path: str  # path (and query) of its model call, relative to the server root
    auth_header: str  # header that carries the API key
    bin_relpath: str
    build: Callable[[HarnessCli, CliRun], Invocation]

    adapter: str = ""
    """The harness adapter whose bundle holds this CLI."""

    @property
    def install_dir(self) -> Path:
        return bundle_dir(get_harness(self.adapter))

    @property
    def bin_path(self) -> Path:
        return self.install_dir / self.bin_relpath

    def invocation(self, run: CliRun) -> Invocation:
        return self.build(self, run)


def _base_env(cli: HarnessCli, run: CliRun) -> dict[str, str]:
    """A clean environment: nothing of the caller's (no stray API keys or proxies) leaks in."""
    tmp = run.home_dir / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    node_dir = Path(shutil.which("node") or "/usr/bin/node").parent
    return {
        "PATH": os.pathsep.join(
            [str(cli.bin_path.parent), str(node_dir), "/usr/local/bin", "/usr/bin", "/bin"]
        ),
        "HOME": str(run.home_dir),
        # TMPDIR outside CODEX_HOME: Codex refuses to put its helper binaries under a temp dir.
        "TMPDIR": str(tmp),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "XDG_CONFIG_HOME": str(run.home_dir / ".config"),
        "XDG_CACHE_HOME": str(run.home_dir / ".cache"),
        "XDG_DATA_HOME": str(run.home_dir / ".local" / "share"),
        "XDG_STATE_HOME": str(run.home_dir / ".local" / "state"),
    }


def _build_codex(cli: HarnessCli, run: CliRun) -> Invocation:
    codex_home = run.home_dir / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    env = _base_env(cli, run) | {"CODEX_HOME": str(codex_home), "FORGE_API_KEY": run.api_key}
    provider = f'{{name="forge",base_url="{run.base_url}/v1",env_key="FORGE_API_KEY",wire_api="responses"}}'
    argv = [
        str(cli.bin_path),
        "exec",
        "--skip-git-repo-check",
        "--ephemeral",
        "--disable",
        "plugins",
        "--disable",
        "apps",
        "-c",
        "analytics.enabled=false",
        "-c",
        "check_for_update_on_startup=false",
        "-c",
        "model_provider=forge",
        "-c",
        f"model_providers.forge={provider}",
        "-m",
        run.model,
        "--dangerously-bypass-approvals-and-sandbox",
        "--json",
        "-C",
        str(run.workdir),
        "-o",
        str(run.home_dir / "last-message.txt"),
        run.prompt,
    ]
    return Invocation(argv, env)


def _build_claude(cli: HarnessCli, run: CliRun) -> Invocation:
    config_dir = run.home_dir / ".claude"
    config_dir.mkdir(parents=True, exist_ok=True)
    env = _base_env(cli, run) | {
        "ANTHROPIC_BASE_URL": run.base_url,
        "ANTHROPIC_API_KEY": run.api_key,
        "CLAUDE_CONFIG_DIR": str(config_dir),
        # Every side model (title, summaries, "haiku" calls) goes to the same model name.
        "ANTHROPIC_SMALL_FAST_MODEL": run.model,
        "ANTHROPIC_DEFAULT_HAIKU_MODEL": run.model,
        "ANTHROPIC_DEFAULT_SONNET_MODEL": run.model,
        "ANTHROPIC_DEFAULT_OPUS_MODEL": run.model,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_BUG_COMMAND": "1",
        # As root it refuses --dangerously-skip-permissions unless told it is in a sandbox.
        "IS_SANDBOX": "1",
    }
    argv = [
        str(cli.bin_path),
        "-p",
        run.prompt,
        "--output-format",
        "stream-json",
        "--verbose",
        "--dangerously-skip-permissions",
        "--model",
        run.model,
    ]
    return Invocation(argv, env)


def _build_qwen(cli: HarnessCli, run: CliRun) -> Invocation:
    settings = run.home_dir / ".qwen" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(
        json.dumps(
            {
                "general": {"enableAutoUpdate": False},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
            },
            indent=2,
        )
    )
    env = _base_env(cli, run) | {
        "OPENAI_API_KEY": run.api_key,
        "OPENAI_BASE_URL": f"{run.base_url}/v1",
        "OPENAI_MODEL": run.model,
    }
    argv = [
        str(cli.bin_path),
        "--auth-type",
        "openai",
        "--approval-mode",
        "yolo",
        "-o",
        "json",
        run.prompt,
    ]
    return Invocation(argv, env, [settings])


HARNESS_CLIS: dict[str, HarnessCli] = {
    cli.name: cli
    for cli in [
        HarnessCli(
            name="codex",
            adapter="codex",
            package="@openai/codex",
            version="0.171.0",
            wire_api="responses",
            request_path="/v1/responses",
            auth_header="authorization",
            bin_relpath="node_modules/.bin/codex",
            build=_build_codex,
        ),
        HarnessCli(
            name="claude",
            adapter="claude-code",
            package="@anthropic-ai/claude-code",
            version="2.1.332",
            wire_api="messages",
            request_path="/v1/messages?beta=true",
            auth_header="x-api-key",
            bin_relpath="node_modules/.bin/claude",
            build=_build_claude,
        ),
        HarnessCli(
            name="qwen",
            adapter="qwen-code",
            package="@qwen-code/qwen-code",
            version="0.24.4",
            wire_api="chat.completions",
            request_path="/v1/chat/completions",
            auth_header="authorization",
            bin_relpath="node_modules/.bin/qwen",
            build=_build_qwen,
        ),
    ]
}


def installed(name: str) -> bool:
    """Whether this CLI's harness bundle is built (at the pinned version)."""
    cli = HARNESS_CLIS[name]
    return find_bundle(get_harness(cli.adapter)) is not None and cli.bin_path.exists()


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
