"""The paper's loop on CPU: synthesize claw tasks offline, train the embedded policy on them (SFT on the
oracle's trajectories, then GRPO), and evaluate on the held-out catalog/claw before and after.

    .venv/bin/python bench/synth_loop.py                  # n=40, smollm2, 2 GRPO steps (hours on 2 cores)
    .venv/bin/python bench/synth_loop.py --n 12 --model tiny --steps 1 --eval-samples 1   # a smoke run
    .venv/bin/python bench/synth_loop.py --report-only     # report what ROOT already holds

Every step is one of our commands, resumed if its directory exists:
1. `forge-synth run --domain claw --offline --n N --seed S --out ROOT/synth`, then
   `forge-synth export ROOT/synth --catalog ROOT/catalog` (disjoint from catalog/claw: prune's blocklist);
2. `forge-train rl --catalog ROOT/catalog --model M --steps K --eval-samples 0 --run-dir ROOT/rl`;
3. `forge-train rollout --catalog catalog/claw -n E` with the base model, the SFT warm start
   (`ROOT/rl/sft-model`) and the last GRPO checkpoint, each in its own run directory `ROOT/eval-<policy>`
   (`--policies` picks which), served with the engine and temperature rl sampled with.
Prints Markdown: the held-out pass rate of each policy with its binomial standard error, and the changes.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

from train.rollout_set import load_results

BIN = Path(sys.executable).parent
HELD_OUT = Path("catalog/claw")


def _run(*argv: str) -> None:
    print("$", " ".join(argv), flush=True)
    subprocess.run(list(argv), check=True)


def _last_checkpoint(rl: Path) -> Path | None:
    state = rl / "state.json"  # train.grpo_loop.last_checkpoint's record
    if not state.is_file():
        return None
    return rl / "checkpoints" / json.loads(state.read_text())["checkpoint"] / "model"


def _held_out(
    name: str, model: Path | str, root: Path, samples: int, engine: str, temperature: float
) -> Path:
    """The held-out evaluation of one policy, served as `forge-train rl` serves it (engine, temperature,
    the same call and turn caps)."""
    run_dir = root / f"eval-{name}"
    _run(
        str(BIN / "forge-train"), "rollout", "--catalog", str(HELD_OUT), "--model", str(model),
        "--engine", engine, "--temperature", str(temperature),
        "-n", str(samples), "--concurrency", "8", "--max-tokens", "1024", "--max-turns", "4",
        "--run-dir", str(run_dir),
    )  # fmt: skip
    return run_dir


def _pass_rate(run_dir: Path) -> tuple[float, int]:
    """(pass rate, scored rollouts) of a held-out evaluation (infrastructure errors left out)."""
    scored = [r for r in load_results(run_dir) if r.status != "infra-error"]
    passed = sum(1 for r in scored if r.passed)
    return (passed / len(scored) if scored else 0.0), len(scored)


POLICIES = ("base", "sft", "grpo")


def report(root: Path, policies: tuple[str, ...] = POLICIES) -> str:
    lines = ["| policy | held-out pass rate (catalog/claw) | rollouts |", "|---|--:|--:|"]
    rates: dict[str, tuple[float, int]] = {}
    for name in policies:
        run_dir = root / f"eval-{name}"
        if (run_dir / "results.jsonl").is_file():
            rate, n = _pass_rate(run_dir)
            rates[name] = (rate, n)
            se = math.sqrt(rate * (1 - rate) / n) if n else 0.0
            lines.append(f"| {name} | {rate:.3f} ± {se:.3f} | {n} |")
    for a, b in (("base", "sft"), ("sft", "grpo"), ("base", "grpo")):
        if a in rates and b in rates:
            (ra, na), (rb, nb) = rates[a], rates[b]
            se = math.sqrt(ra * (1 - ra) / na + rb * (1 - rb) / nb)
            lines.append(f"| change {a} → {b} | {rb - ra:+.3f} ± {se:.3f} | |")
    status = subprocess.run(
        [str(BIN / "forge-synth"), "status", str(root / "synth")], capture_output=True, text=True
    )
    return "\n".join(lines) + "\n\n```text\n" + status.stdout + "```\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=40, help="Synthesized tasks to accept.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="smollm2", help="smollm2 or tiny.")
    parser.add_argument("--steps", type=int, default=2, help="GRPO steps.")
    parser.add_argument("--eval-samples", type=int, default=2, help="Rollouts per held-out task.")
    parser.add_argument(
        "--temperature", type=float, default=None, help="Sampling temperature (default: the model's recipe)."
    )
    parser.add_argument("--root", type=Path, default=Path("runs/bench-synth-loop"))
    parser.add_argument(
        "--policies",
        default=",".join(POLICIES),
        help="Which to evaluate on the held-out catalog, of base (untrained), sft (the warm start), grpo.",
    )
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()
    root: Path = args.root
    policies = tuple(name.strip() for name in args.policies.split(",") if name.strip())
    if unknown := set(policies) - set(POLICIES):
        parser.error(f"--policies: unknown {', '.join(sorted(unknown))} (choose from {', '.join(POLICIES)})")
    if not args.report_only:
        synth, catalog = root / "synth", root / "catalog"
        _run(
            str(BIN / "forge-synth"), "run", "--domain", "claw", "--offline", "--n", str(args.n),
            "--seed", str(args.seed), "--out", str(synth),
        )  # fmt: skip
        _run(str(BIN / "forge-synth"), "export", str(synth), "--catalog", str(catalog), "--replace")
        rl = root / "rl"
        _run(
            str(BIN / "forge-train"), "rl", "--catalog", str(catalog), "--model", args.model,
            "--steps", str(args.steps), "--eval-samples", "0", "--seed", str(args.seed), "--run-dir", str(rl),
            *([] if args.temperature is None else ["--temperature", str(args.temperature)]),
        )  # fmt: skip
        ran = json.loads((rl / "run.json").read_text())["config"]  # train.grpo_loop.RunManifest
        engine, temperature = ran["engine"], ran["grpo"]["temperature"]  # what rl sampled with
        if "base" in policies and args.model == "smollm2":  # the tiny model's random start: not worth it
            _held_out("base", "smollm2", root, args.eval_samples, engine, temperature)
        if "sft" in policies:
            _held_out("sft", rl / "sft-model", root, args.eval_samples, engine, temperature)
        last = _last_checkpoint(rl)
        if "grpo" in policies and last is not None:
            _held_out("grpo", last, root, args.eval_samples, engine, temperature)
    print(report(root, policies))


if __name__ == "__main__":
    main()
