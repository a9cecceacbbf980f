"""One whole run: check the plan, install LiteLLM if it is wanted, place the processes on CPUs, start the
upstream, then for each mode start its server, wait until it answers, measure every cell and stop it; report
what was measured even when the run fails or is interrupted, and stop every child on the way out."""

from __future__ import annotations

import argparse
import enum
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .calls import LABELS, MODES, screenshot_png
from .litellm import ensure_litellm, litellm_config, litellm_env
from .load import Cell, measure_cell, wait_ready
from .processes import Processes, free_port, loopback_env
from .report import machine, progress_line, table, throughput_ratios, write_json
from .roles import role_command, role_env

STREAMS = {"both": [False, True], "yes": [True], "no": [False]}


def parse_list(text: str, cast: Callable[[str], Any]) -> list[Any]:
    return [cast(p.strip()) for p in text.split(",") if p.strip()]


@dataclass(frozen=True)
class Plan:
    """What to measure and how, from the command line, with the modes checked."""

    modes: list[str]
    levels: list[int]
    streams: list[bool]
    requests_c1: int
    requests: int
    warmup_c1: int
    warmup: int
    """At concurrency > 1; 0 means twice the concurrency."""
    cell_timeout: float
    upstream_delay_ms: float
    litellm_version: str
    ours_patch: Path | None
    screenshot: bytes | None = None
    """Sent with every call (`--screenshot-kb`), as a PNG data URI."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Plan:
        modes = parse_list(args.modes, str)
        unknown = [m for m in modes if m not in MODES]
        if unknown:
            raise SystemExit(f"unknown mode(s): {', '.join(unknown)}")
        return cls(
            modes=modes,
            levels=parse_list(args.concurrency, int),
            streams=STREAMS[args.stream],
            requests_c1=args.requests_c1,
            requests=args.requests,
            warmup_c1=args.warmup_c1,
            warmup=args.warmup,
            cell_timeout=args.cell_timeout,
            upstream_delay_ms=args.upstream_delay_ms,
            litellm_version=args.litellm_version,
            ours_patch=args.ours_patch,
            screenshot=screenshot_png(args.screenshot_kb) if args.screenshot_kb else None,
        )

    def requests_at(self, level: int) -> tuple[int, int]:
        """(measured, warmup) requests of a cell at concurrency `level`."""
        if level == 1:
            return self.requests_c1, self.warmup_c1
        return self.requests, self.warmup or 2 * level


@dataclass(frozen=True)
class Placement:
    """The proxy under test alone on the last CPU, the upstream and the load generator on the others; no
    pinning on one CPU or with `--no-pin` (both None)."""

    proxy_cpu: int | None
    harness_cpus: set[int] | None

    @property
    def pinned(self) -> bool:
        return self.proxy_cpu is not None

    @property
    def proxy_cpus(self) -> set[int] | None:
        return None if self.proxy_cpu is None else {self.proxy_cpu}

    @classmethod
    def apply(cls, pin: bool) -> Placement:
        """Decide, and pin this process (the load generator) to the harness CPUs right away."""
        cpus = sorted(os.sched_getaffinity(0))
        if not (pin and len(cpus) >= 2):
            return cls(None, None)
        placement = cls(cpus[-1], set(cpus[:-1]))
        if placement.harness_cpus:
            os.sched_setaffinity(0, placement.harness_cpus)  # the load generator; the upstream gets the same
        return placement

    def describe(self) -> str:
        if not self.pinned:
            return "no CPU pinning"
        return (
            f"proxy pinned to CPU {self.proxy_cpu}, "
            f"upstream and load generator to {sorted(self.harness_cpus or [])}"
        )


class Outcome(enum.Enum):
    DONE = "done"
    FAILED = "failed"
    INTERRUPTED = "interrupted"


def stop_on_signals() -> None:
    """SIGTERM and SIGHUP end a run the way Ctrl-C does, so that every child is stopped."""

    def on_signal(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)


class Run:
    """The children, the scratch directory (logs, LiteLLM's config, our run directory) and the cells
    measured so far, which are kept when a later cell fails or the run is interrupted."""

    def __init__(self, plan: Plan, placement: Placement, litellm_bin: Path | None) -> None:
        self.plan = plan
        self.placement = placement
        self.litellm_bin = litellm_bin
        self.work = Path(tempfile.mkdtemp(prefix="openforge-bench-"))
        self.procs = Processes(self.work)
        self.cells: list[Cell] = []

    def execute(self, keep_logs: bool) -> Outcome:
        """Measure everything; a failure or an interruption ends the run, and every child is stopped."""
        outcome = Outcome.DONE
        try:
            self._measure_all()
        except KeyboardInterrupt:
            outcome = Outcome.INTERRUPTED
            print("\n[bench] interrupted; stopping every process started here", file=sys.stderr)
        except RuntimeError as exc:
            outcome = Outcome.FAILED
            print(f"[bench] {exc}", file=sys.stderr)
        finally:
            self.procs.stop_all()
            if keep_logs or outcome is Outcome.FAILED:
                print(f"[bench] logs kept in {self.work}", file=sys.stderr)
            else:
                shutil.rmtree(self.work, ignore_errors=True)
        return outcome

    def _measure_all(self) -> None:
        import uvloop

        up_port = free_port()
        upstream = self.procs.start(
            "upstream",
            role_command("_upstream", "--port", str(up_port), "--delay-ms", str(self.plan.upstream_delay_ms)),
            role_env(),
            self.placement.harness_cpus,
        )
        uvloop.run(wait_ready(up_port, upstream, 30, "the upstream"))
        for mode in self.plan.modes:
            self._measure_mode(mode, upstream, up_port)

    def _start_under_test(self, mode: str, up_port: int) -> tuple[int, subprocess.Popen[bytes] | None]:
        """(port, process) of the server that `mode` sends to: a new one for the proxies, the upstream
        itself (no process of its own) for direct."""
        upstream_url = f"http://127.0.0.1:{up_port}"
        if mode == "ours":
            port = free_port()
            patch = ["--patch", str(self.plan.ours_patch.resolve())] if self.plan.ours_patch else []
            args = ["--port", str(port), "--upstream", upstream_url, "--run-dir", str(self.work / "run")]
            command = role_command("_ours", *args, *patch)
            return port, self.procs.start("ours", command, role_env(), self.placement.proxy_cpus)
        if mode == "litellm":
            port = free_port()
            config = litellm_config(self.work / "litellm.yaml", upstream_url)
            command = [
                str(self.litellm_bin),
                "--config",
                str(config),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--num_workers",
                "1",
            ]
            env = loopback_env(litellm_env())
            return port, self.procs.start("litellm", command, env, self.placement.proxy_cpus)
        return up_port, None

    def _measure_mode(self, mode: str, upstream: subprocess.Popen[bytes], up_port: int) -> None:
        """Every cell of one mode; its server's log tail is shown when it fails, and it is stopped after."""
        import uvloop

        port, proc = self._start_under_test(mode, up_port)
        try:
            if proc is not None:
                uvloop.run(wait_ready(port, proc, 180, LABELS[mode], self.plan.streams, self.plan.screenshot))
            for stream in self.plan.streams:
                for level in self.plan.levels:
                    requests, warmup = self.plan.requests_at(level)
                    cell = uvloop.run(
                        measure_cell(
                            mode,
                            port,
                            stream,
                            level,
                            requests,
                            warmup,
                            self.plan.cell_timeout,
                            (proc or upstream).pid,
                            self.plan.screenshot,
                        )
                    )
                    self.cells.append(cell)
                    print(progress_line(cell), flush=True)
                    if proc is not None and proc.poll() is not None:
                        raise RuntimeError(f"{LABELS[mode]} exited with status {proc.returncode}")
        except RuntimeError:
            if proc is not None:
                print(self.procs.log_tail(mode), file=sys.stderr)
            raise
        finally:
            if proc is not None:
                self.procs.stop(proc)


def report(
    cells: list[Cell], args: argparse.Namespace, plan: Plan, info: dict[str, Any], pinned: bool
) -> None:
    """The table and the ours/LiteLLM ratios on stdout, the JSON file when asked; nothing without cells."""
    if not cells:
        return
    print()
    print(table(cells, args.markdown))
    ratios = throughput_ratios(cells)
    if ratios:
        print("\n" + ratios)
    if args.json:
        litellm_version = plan.litellm_version if "litellm" in plan.modes else None
        write_json(args.json, cells, info, pinned, litellm_version, plan.upstream_delay_ms)


def orchestrate(args: argparse.Namespace) -> int:
    """The whole benchmark; 130 when interrupted, 1 when it failed or any request failed, else 0."""
    plan = Plan.from_args(args)
    litellm_bin = ensure_litellm(plan.litellm_version) if "litellm" in plan.modes else None
    info = machine()  # before pinning: the CPUs of the machine, not of the load generator
    placement = Placement.apply(args.pin)
    stop_on_signals()
    run = Run(plan, placement, litellm_bin)
    print(
        f"[bench] {info['cpus']} CPUs ({info['cpu']}), {info['memory']}, Python {info['python']}; "
        + placement.describe(),
        flush=True,
    )
    outcome = run.execute(args.keep_logs)
    report(run.cells, args, plan, info, placement.pinned)
    if outcome is Outcome.INTERRUPTED:
        return 130
    return 1 if outcome is Outcome.FAILED or any(c.errors for c in run.cells) else 0
