"""What reward integrity costs per rollout: the oracle through forge-react on claw tasks, verified in a
fresh sandbox (the default) and in the agent's own sandbox after the tamper check, in the same run.

    .venv/bin/python bench/verification_cost.py                 # 8 claw tasks x 2 samples per mode
    .venv/bin/python bench/verification_cost.py --tasks 16 --samples 3

For each mode: seconds per rollout in total, in the verification phase, and in each of its steps
(killing the agent's processes, packing the artifacts, starting the fresh sandbox, the tamper check,
the tests themselves), as means over the rollouts; then the fresh/agent ratio of the verification
phase. Every rollout must score 1 (the oracle); a rollout that does not is reported and left out.
Prints Markdown.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from envs.docker_client import docker_client  # noqa: E402
from envs.image_builder import build_image  # noqa: E402
from envs.task import Task, find_task_dirs, load_task  # noqa: E402
from envs.task_config import VerifierSandbox  # noqa: E402
from harnesses.bundle import build_bundle  # noqa: E402
from harnesses.forge_react import ForgeReact  # noqa: E402
from proxy.engines.oracle import OracleEngine  # noqa: E402
from proxy.session import ProxySession  # noqa: E402
from train.rollout import run_rollout  # noqa: E402

STEPS = ("kill", "artifacts", "sandbox", "tamper_check", "tests")


def _with_mode(task: Task, mode: VerifierSandbox) -> Task:
    config = task.config.model_copy(deep=True)
    config.verifier.sandbox = mode
    return Task(path=task.path, config=config, instruction=task.instruction)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--samples", type=int, default=2)
    args = parser.parse_args()
    catalog = REPO / "catalog" / "claw"
    tasks = [load_task(d) for d in find_task_dirs(catalog)[: args.tasks]]
    client = docker_client()
    images = {t.name: build_image(client, t).tag for t in tasks}
    harness = ForgeReact()
    bundle = build_bundle(harness)
    seconds: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    failed: list[str] = []
    with (
        tempfile.TemporaryDirectory(prefix="bench-verification-") as tmp,
        ProxySession(OracleEngine(catalog), Path(tmp) / "proxy") as proxy,
    ):
        for sample in range(args.samples):
            for mode in (VerifierSandbox.FRESH, VerifierSandbox.AGENT):  # interleaved: same conditions
                for task in tasks:
                    image = images[task.name]
                    assert image is not None
                    result = run_rollout(
                        _with_mode(task, mode), image, harness, bundle, proxy,
                        model="forge-policy", logs_root=Path(tmp) / "logs", sample=sample,
                    )  # fmt: skip
                    if result.reward != 1.0 or result.verifier is None:
                        failed.append(f"{mode.value} {task.name}: {result.status} {result.error_class}")
                        continue
                    times = seconds[mode.value]
                    times["total"].append(result.timings["total_sec"])
                    times["verification"].append(result.verifier.duration_sec)
                    for step in STEPS:
                        times[step].append(result.verifier.timings.get(step, 0.0))
    print(f"Oracle via forge-react, {len(tasks)} claw tasks x {args.samples} samples per mode.\n")
    print("| mode | rollouts | total s | verification s | " + " | ".join(f"{s} s" for s in STEPS) + " |")
    print("|---|--:|--:|--:|" + "--:|" * len(STEPS))
    for mode, times in seconds.items():
        cells = [f"{statistics.fmean(times[k]):.2f}" for k in ("total", "verification", *STEPS)]
        print(f"| {mode} | {len(times['total'])} | " + " | ".join(cells) + " |")
    if "fresh" in seconds and "agent" in seconds:
        ratio = statistics.fmean(seconds["fresh"]["verification"]) / statistics.fmean(
            seconds["agent"]["verification"]
        )
        print(f"\nfresh / agent verification time: {ratio:.2f}x")
    for line in failed:
        print(f"- not scored 1, left out: {line}")


if __name__ == "__main__":
    main()
