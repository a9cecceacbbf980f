"""Command line: `python3 -m forge_sites serve SITE --db PATH` and `... seed SITE --seed JSON --db PATH`.

Why: the browser image seeds a site's database once at build time and serves it at container start; both
go through this one entry point so the image needs no other script.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from types import ModuleType

from . import SITES
from .common import create_db


def site_module(name: str) -> ModuleType:
    return importlib.import_module(f".{name}", __package__)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="forge_sites", description="Serve or seed one local web site.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve SITE over HTTP from its database")
    serve.add_argument("site", choices=SITES)
    serve.add_argument("--db", required=True, help="the SQLite database file")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080)
    seed = sub.add_parser("seed", help="create SITE's database from a seed JSON file")
    seed.add_argument("site", choices=SITES)
    seed.add_argument("--seed", required=True, help="the seed JSON file (see seeds/<site>.json)")
    seed.add_argument("--db", required=True, help="the database file to create; must not exist")
    args = parser.parse_args(argv)
    module = site_module(args.site)
    if args.command == "seed":
        with open(args.seed, encoding="utf-8") as handle:
            data = json.load(handle)
        try:
            create_db(args.db, module.SCHEMA, module.seed, data)
        except FileExistsError as exc:
            print(f"forge_sites: refusing to seed: {exc}", file=sys.stderr)
            return 1
        return 0
    import uvicorn

    uvicorn.run(
        module.make_app(args.db), host=args.host, port=args.port, log_level="warning", access_log=False
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
