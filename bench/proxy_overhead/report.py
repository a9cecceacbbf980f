"""What a run prints and writes: a line per measured cell as it finishes, the table (plain or Markdown) with
what each proxy adds to direct and our throughput as a multiple of LiteLLM's, and the JSON results with the
machine they were measured on."""

from __future__ import annotations

import contextlib
import json
import os
import platform
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .calls import LABELS, MODES
from .load import Cell


def progress_line(cell: Cell) -> str:
    """One cell as soon as it is measured, with its first error if it had any."""
    return (
        f"[bench] {LABELS[cell.mode]:7} stream={'yes' if cell.stream else 'no ':3} c={cell.concurrency:<3} "
        f"p50 {cell.p50_ms:8.2f} ms  p99 {cell.p99_ms:8.2f} ms  {cell.rps:8.0f} req/s  "
        f"{cell.cpu_us_per_request:6.0f} CPU µs/req"
        + (f"  {cell.errors} errors, first: {cell.first_error}" if cell.errors else "")
    )


def _fmt(value: float | None, digits: int = 2, sign: bool = False) -> str:
    if value is None or value != value:
        return "-"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def table(cells: list[Cell], markdown: bool) -> str:
    direct = {(c.stream, c.concurrency): c for c in cells if c.mode == "direct"}
    litellm = {(c.stream, c.concurrency): c for c in cells if c.mode == "litellm"}
    ours = {(c.stream, c.concurrency): c for c in cells if c.mode == "ours"}
    header = [
        "mode",
        "stream",
        "conc",
        "requests",
        "errors",
        "p50 ms",
        "p99 ms",
        "req/s",
        "CPU µs/req",
        "added p50 ms",
        "added p99 ms",
        "ours/LiteLLM req/s",
    ]
    rows = []
    order = {m: i for i, m in enumerate(MODES)}
    for c in sorted(cells, key=lambda c: (c.stream, c.concurrency, order[c.mode])):
        key = (c.stream, c.concurrency)
        base = direct.get(key) if c.mode != "direct" else None
        ratio = None
        if c.mode == "ours" and key in litellm and litellm[key].rps:
            ratio = c.rps / litellm[key].rps
        elif c.mode == "litellm" and key in ours and c.rps:
            ratio = ours[key].rps / c.rps
        rows.append(
            [
                LABELS[c.mode],
                "yes" if c.stream else "no",
                str(c.concurrency),
                str(c.requests),
                str(c.errors),
                _fmt(c.p50_ms),
                _fmt(c.p99_ms),
                _fmt(c.rps, 0),
                _fmt(c.cpu_us_per_request, 0),
                _fmt(c.p50_ms - base.p50_ms, sign=True) if base else "",
                _fmt(c.p99_ms - base.p99_ms, sign=True) if base else "",
                f"{ratio:.2f}x" if ratio is not None and c.mode == "ours" else "",
            ]
        )
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    right = [False, False] + [True] * (len(header) - 2)

    def line(values: list[str]) -> str:
        cols = [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)]
        return ("| " + " | ".join(cols) + " |") if markdown else "  ".join(cols)

    out = [line(header)]
    if markdown:
        out.append(
            "|"
            + "|".join(
                ("-" * (w + 1) + ":") if r else "-" * (w + 2) for w, r in zip(widths, right, strict=True)
            )
            + "|"
        )
    else:
        out.append("  ".join("-" * w for w in widths))
    out += [line(r) for r in rows]
    return "\n".join(out)


def machine() -> dict[str, Any]:
    cpu = ""
    with contextlib.suppress(OSError):
        for text_line in Path("/proc/cpuinfo").read_text().splitlines():
            if text_line.startswith("model name"):
                cpu = text_line.split(":", 1)[1].strip()
                break
    mem = ""
    with contextlib.suppress(OSError, ValueError, IndexError):
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kib / 1024 / 1024:.0f} GiB"
    return {
        "cpus": len(os.sched_getaffinity(0)),
        "cpu": cpu,
        "memory": mem,
        "kernel": platform.release(),
        "python": platform.python_version(),
    }


def throughput_ratios(cells: list[Cell]) -> str | None:
    """`throughput ours/LiteLLM: …` for every cell measured both ways, or None when there is none."""
    ratios = []
    for c in cells:
        other = next(
            (
                o
                for o in cells
                if o.mode == "litellm" and (o.stream, o.concurrency) == (c.stream, c.concurrency)
            ),
            None,
        )
        if c.mode == "ours" and other and other.rps:
            ratios.append(f"stream={'yes' if c.stream else 'no'} c={c.concurrency}: {c.rps / other.rps:.2f}x")
    return "throughput ours/LiteLLM: " + "; ".join(ratios) if ratios else None


def write_json(
    path: Path,
    cells: list[Cell],
    info: dict[str, Any],
    pinned: bool,
    litellm_version: str | None,
    upstream_delay_ms: float,
) -> None:
    """The results with what they depend on: the machine, the pinning, LiteLLM's version, the delay."""
    path.write_text(
        json.dumps(
            {
                "machine": info,
                "pinned": pinned,
                "litellm_version": litellm_version,
                "upstream_delay_ms": upstream_delay_ms,
                "cells": [asdict(c) for c in cells],
            },
            indent=2,
        )
    )
