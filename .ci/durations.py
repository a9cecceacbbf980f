"""Where the suite's time goes, from a JUnit XML of a full run (`pytest --junitxml=F`): the total, the
split by package and by marker, and the slowest tests, as the tables of docs/testing.md.

    .venv/bin/python .ci/durations.py F [--top 30] [--write]

--write also writes each module's seconds to tests/module_seconds.json, which tests/conftest.py uses to
hand the longest modules to the workers first.
Markers are read by collecting the suite again with `-m MARK` (docker is added by tests/conftest.py)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

MARKERS = ("docker", "netns", "vllm", "slow")


def _nodeid(case: ET.Element) -> str:
    """pytest's node id from a testcase's classname (dotted module path) and name."""
    module = case.get("classname", "").replace(".", "/") + ".py"
    return f"{module}::{case.get('name', '')}"


def _marked(mark: str) -> set[str]:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-q",
            "-p",
            "no:cacheprovider",
            "-m",
            mark,
            "-n",
            "0",
        ],
        capture_output=True,
        text=True,
    )
    return {line.strip() for line in out.stdout.splitlines() if "::" in line}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("junit", type=Path)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--write", action="store_true", help="Write tests/module_seconds.json.")
    args = parser.parse_args()
    cases = list(ET.parse(args.junit).getroot().iter("testcase"))
    times = {_nodeid(c): float(c.get("time", 0)) for c in cases}
    total = sum(times.values())
    print(f"{len(times)} tests, {total:.0f} s of test time (setup + call + teardown)\n")
    by_package: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for node, t in times.items():
        parts = node.split("/")
        package = "/".join(parts[:2]) if len(parts) > 2 else "tests (top level)"
        by_package[package] += t
        count[package] += 1
    print("| package | tests | seconds | share |\n|---|---:|---:|---:|")
    for package, t in sorted(by_package.items(), key=lambda kv: -kv[1]):
        print(f"| `{package}` | {count[package]} | {t:.0f} | {100 * t / total:.0f}% |")
    print("\n| marker | tests | seconds | share |\n|---|---:|---:|---:|")
    for mark in MARKERS:
        marked = _marked(mark)
        hit = [t for node, t in times.items() if node in marked]
        print(f"| `{mark}` | {len(hit)} | {sum(hit):.0f} | {100 * sum(hit) / total:.0f}% |")
    if args.write:
        modules: dict[str, float] = defaultdict(float)
        for node, t in times.items():
            modules[node.split("::", 1)[0]] += t
        out = Path(__file__).resolve().parents[1] / "tests" / "module_seconds.json"
        ordered = {m: round(t, 1) for m, t in sorted(modules.items(), key=lambda kv: -kv[1])}
        out.write_text(json.dumps(ordered, indent=1) + "\n")
    print("\n| test | seconds |\n|---|---:|")
    for node, t in sorted(times.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"| `{node}` | {t:.1f} |")


if __name__ == "__main__":
    main()
