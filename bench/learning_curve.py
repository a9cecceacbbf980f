"""Does GRPO teach the embedded CPU policy? For each seed, the held pass rate of the SFT-only policy (the
baseline, measured in the same run) against the policy after GRPO, on catalog/basics; then the mean change
across seeds with its standard error, and the training pass rate curve averaged over seeds.

    .venv/bin/python bench/learning_curve.py                       # seeds 0 1 2 (~20 min each on 2 cores)
    .venv/bin/python bench/learning_curve.py --seeds 3 4           # more seeds
    .venv/bin/python bench/learning_curve.py --report-only         # report the runs already there

Each seed is `forge-train rl --catalog catalog/basics --seed N` with the settings below, in
`runs/bench-learning-curve/seed-N`; a seed's own seed gives it its own initial weights, SFT warm start and
task order. A run directory that already has them is resumed, not redone. Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

SETTINGS = [
    "--model", "tiny", "--catalog", "catalog/basics", "--steps", "20", "--batch-tasks", "12",
    "--group-size", "4", "--max-tokens", "128", "--max-turns", "2", "--concurrency", "4",
    "--eval-samples", "16",
]  # fmt: skip
ROOT = Path("runs/bench-learning-curve")
BLOCK = 5
"""Steps per block of the averaged curve."""


def _lines(path: Path) -> list[dict[str, object]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _mean_se(values: list[float]) -> str:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.3f}"
    return f"{mean:.3f} ± {statistics.stdev(values) / math.sqrt(len(values)):.3f}"


def _binomial_variance(rate: float, n: int) -> float:
    return rate * (1 - rate) / n if n else 0.0


def report(runs: dict[int, Path]) -> str:
    out = [
        "| seed | held before (SFT) | held after GRPO | change ± s.e. | after / before | s/step | eval s |",
        "|--:|--:|--:|--:|--:|--:|--:|",
    ]
    changes: list[float] = []
    variances: list[float] = []
    """Per seed, the binomial variance of its change (two independent evaluations)."""
    befores: list[float] = []
    afters: list[float] = []
    curves: dict[int, dict[int, float]] = {}
    """Seed -> step -> training pass rate."""
    for seed, run_dir in sorted(runs.items()):
        evals = _lines(run_dir / "eval.jsonl")
        steps = _lines(run_dir / "metrics.jsonl")
        curves[seed] = {int(s["step"]): float(s["pass_rate"]) for s in steps}  # type: ignore[arg-type]
        step_sec = [sum(s["timings"].values()) for s in steps]  # type: ignore[union-attr]
        per_step = f"{statistics.fmean(step_sec):.0f}" if step_sec else "-"
        eval_sec = "/".join(f"{float(e['seconds']):.0f}" for e in evals)  # type: ignore[arg-type]
        if len(evals) < 2:
            out.append(f"| {seed} | unfinished ({len(steps)} steps, {len(evals)} evaluations) | | | | "
                       f"{per_step} | {eval_sec} |")  # fmt: skip
            continue
        before, after = float(evals[0]["pass_rate"]), float(evals[-1]["pass_rate"])  # type: ignore[arg-type]
        n0, n1 = evals[0]["rollouts"], evals[-1]["rollouts"]
        befores.append(before)
        afters.append(after)
        changes.append(after - before)
        variance = _binomial_variance(before, n0) + _binomial_variance(after, n1)  # type: ignore[arg-type]
        variances.append(variance)
        ratio = f"{after / before:.2f}x" if before else "-"
        out.append(
            f"| {seed} | {before:.3f} ({n0}) | {after:.3f} ({n1}) | {after - before:+.3f} ± "
            f"{math.sqrt(variance):.3f} | {ratio} | {per_step} | {eval_sec} |"
        )
    if changes:
        out += [
            "",
            f"- over {len(changes)} seed(s), mean ± standard error: held pass rate "
            f"{_mean_se(befores)} before, {_mean_se(afters)} after, change {_mean_se(changes)}; "
            f"{sum(1 for c in changes if c > 0)} of {len(changes)} seeds improved",
            "- mean change with the evaluations' own (binomial) standard error: "
            f"{statistics.fmean(changes):.3f} ± {math.sqrt(sum(variances)) / len(variances):.3f}",
        ]
    last = max((step for curve in curves.values() for step in curve), default=-1)
    if last >= 0:
        out += [
            "",
            "| steps | training pass rate, mean over seeds ± s.e. | change from the first block | seeds |",
            "|---|--:|--:|--:|",
        ]
    first: dict[int, float] = {}
    for start in range(0, last + 1, BLOCK):
        block = range(start, min(start + BLOCK, last + 1))
        per_seed = {
            seed: statistics.fmean(curve[step] for step in block)
            for seed, curve in curves.items()
            if all(step in curve for step in block)
        }
        if not per_seed:
            continue
        first = first or per_seed
        paired = [rate - first[seed] for seed, rate in per_seed.items() if seed in first]
        out.append(
            f"| {block[0]}-{block[-1]} | {_mean_se(list(per_seed.values()))} | "
            f"{_mean_se(paired) if paired else '-'} | {len(per_seed)} |"
        )
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--root", type=Path, default=ROOT, help="Where the seeds' run directories go.")
    parser.add_argument("--report-only", action="store_true", help="Report the runs there; train none.")
    args = parser.parse_args()
    runs = {seed: args.root / f"seed-{seed}" for seed in args.seeds}
    if not args.report_only:
        forge_train = Path(sys.executable).parent / "forge-train"
        for seed, run_dir in runs.items():
            argv = [str(forge_train), "rl", *SETTINGS, "--seed", str(seed), "--run-dir", str(run_dir)]
            subprocess.run(argv, check=True)
    print(report({seed: path for seed, path in runs.items() if path.is_dir()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
