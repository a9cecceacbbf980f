"""The command line: `python -m bench.proxy_overhead [flags]` from the repository root runs the benchmark;
`… _upstream …` / `… _ours …` are the roles a run starts as children (see `roles`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __doc__ as PACKAGE_DOC
from .calls import MODES
from .litellm import LITELLM_VERSION
from .orchestrate import orchestrate
from .roles import PACKAGE, ROLES, serve_role


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=f"python -m {PACKAGE}",
        description=PACKAGE_DOC.split("\n\n")[0] if PACKAGE_DOC else None,
        epilog="Direct, through our proxy and through LiteLLM; see docs/benchmarks.md.",
    )
    parser.add_argument("--modes", default=",".join(MODES), help="any of direct,ours,litellm (default: all)")
    parser.add_argument("--concurrency", default="1,64,256", help="concurrency levels (default: 1,64,256)")
    parser.add_argument(
        "--stream", choices=("both", "yes", "no"), default="both", help="streamed calls, plain, or both"
    )
    parser.add_argument("--requests-c1", type=int, default=200, help="measured requests at concurrency 1")
    parser.add_argument("--requests", type=int, default=2000, help="measured requests at concurrency > 1")
    parser.add_argument("--warmup-c1", type=int, default=50, help="warmup requests at concurrency 1")
    parser.add_argument(
        "--warmup", type=int, default=0, help="warmup requests at concurrency > 1 (0: twice the concurrency)"
    )
    parser.add_argument(
        "--upstream-delay-ms", type=float, default=0.0, help="the upstream waits this long before answering"
    )
    parser.add_argument(
        "--screenshot-kb",
        type=int,
        default=0,
        help="send a PNG screenshot of about this many KB with every call, as a data URI (0: none)",
    )
    parser.add_argument("--cell-timeout", type=float, default=300.0, help="seconds per batch at most")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin processes to CPUs")
    parser.add_argument("--litellm-version", default=LITELLM_VERSION, help=f"default: {LITELLM_VERSION}")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument(
        "--ours-patch",
        type=Path,
        help="a Python file run in our proxy's process before the app is built (to measure a change to "
        "proxy/ without making it: monkeypatch there)",
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the servers' logs and run directory")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ROLES:
        return serve_role(argv)
    return orchestrate(parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
