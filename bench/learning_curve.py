"""Does GRPO teach the embedded CPU policy? The held pass rate of the SFT-only policy (the baseline,
measured in the same run) against the policy after GRPO, on catalog/basics, plus the per-step curve.

    .venv/bin/python bench/learning_curve.py                      # run it (~25 min on 2 cores)
    .venv/bin/python bench/learning_curve.py --run-dir runs/X     # report an existing run only

The run is `forge-train rl --catalog catalog/basics` with the settings below; a run directory that
already has them is resumed, not redone. Prints Markdown: the held evaluation before and after with the
ratio, and the per-step training pass rate, reward and update statistics.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

SETTINGS = [
    "--catalog", "catalog/basics", "--steps", "20", "--batch-tasks", "12", "--group-size", "4",
    "--max-tokens", "128", "--max-turns", "2", "--concurrency", "4", "--eval-samples", "16",
]  # fmt: skip


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def report(run_dir: Path) -> str:
    evals = _lines(run_dir / "eval.jsonl")
    steps = _lines(run_dir / "metrics.jsonl")
    out = ["| policy | held pass rate | rollouts |", "|---|--:|--:|"]
    for e in evals:
        out.append(f"| v{e['policy_version']} | {e['pass_rate']:.3f} | {e['rollouts']} |")
    if len(evals) >= 2 and evals[0]["pass_rate"]:
        before, after = float(evals[0]["pass_rate"]), float(evals[-1]["pass_rate"])  # type: ignore[arg-type]
        out.append(f"\nafter / before (SFT-only baseline, same run): {after / before:.2f}x")
    out += [
        "",
        "| step | pass rate | reward | tokens/rollout | clip | rollout s | train s |",
        "|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for s in steps:
        update = s.get("update") or {}
        timings = s["timings"]
        assert isinstance(update, dict) and isinstance(timings, dict)
        out.append(
            f"| {s['step']} | {s['pass_rate']:.3f} | {s['reward_mean']:.3f} "
            f"| {s['response_tokens_mean']:.0f} | {update.get('clip_fraction', 0):.3f} "
            f"| {timings.get('rollout_sec', 0):.0f} "
            f"| {timings.get('train_sec', 0):.0f} |"
        )
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run-dir", type=Path, default=None, help="Report this run only (no training).")
    args = parser.parse_args()
    run_dir = args.run_dir
    if run_dir is None:
        run_dir = Path("runs/bench-learning-curve")
        forge_train = Path(sys.executable).parent / "forge-train"
        subprocess.run([str(forge_train), "rl", *SETTINGS, "--run-dir", str(run_dir)], check=True)
    print(report(run_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
