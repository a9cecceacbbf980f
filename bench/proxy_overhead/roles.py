"""The servers a run starts as copies of this package (`python -m bench.proxy_overhead _upstream …` and
`… _ours …`), each in a process of its own so that its CPU time can be measured and it can be pinned, and
our proxy served the way `forge-proxy` serves it (FastAPI on uvicorn: uvloop + httptools)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .calls import MODEL
from .processes import loopback_env
from .upstream import serve_upstream

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "bench.proxy_overhead"
ROLES = ("_upstream", "_ours")


def role_command(role: str, *args: str) -> list[str]:
    """The command of a child playing `role`. `-P` keeps the child's working directory (the run's log
    directory) off `sys.path`; `role_env()` puts the repository there instead."""
    return [sys.executable, "-P", "-m", PACKAGE, role, *args]


def role_env() -> dict[str, str]:
    """Loopback only, with the repository first on `PYTHONPATH` so the child finds this package and
    `proxy/` from any working directory."""
    env = loopback_env()
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    return env


def serve_ours(port: int, upstream: str, run_dir: Path, patch: Path | None) -> None:
    """Our proxy in pass-through mode in front of the upstream, recording every call to SQLite."""
    import uvicorn

    if patch is not None:  # try a change to the proxy without editing it: the file monkeypatches proxy.*
        import runpy

        runpy.run_path(str(patch), run_name="__bench_patch__")

    from proxy.app import create_app
    from proxy.config import ProxyConfig
    from proxy.engines.passthrough import OpenAIPassthrough
    from proxy.store import CallStore

    app = create_app(
        OpenAIPassthrough(base_url=f"{upstream}/v1", model=MODEL),
        CallStore.for_run(run_dir),
        ProxyConfig(models=[MODEL]),
    )
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        backlog=4096,
        timeout_keep_alive=30,
    )


def serve_role(argv: list[str]) -> int:
    """`_upstream …` / `_ours …`: parse the role's own flags and serve until stopped."""
    role = argparse.ArgumentParser(prog=f"{PACKAGE} {argv[0]}")
    role.add_argument("--port", type=int, required=True)
    if argv[0] == "_upstream":
        role.add_argument("--delay-ms", type=float, default=0.0)
        args = role.parse_args(argv[1:])
        serve_upstream(args.port, args.delay_ms)
    else:
        role.add_argument("--upstream", required=True)
        role.add_argument("--run-dir", type=Path, required=True)
        role.add_argument("--patch", type=Path)
        args = role.parse_args(argv[1:])
        serve_ours(args.port, args.upstream, args.run_dir, args.patch)
    return 0
