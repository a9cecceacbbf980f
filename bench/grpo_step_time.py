"""Where the time of a GRPO step goes with the real model (SmolLM2-135M-Instruct), for our CPU engine and
for vLLM side by side, in one run (issue 14).

For each engine: its start-up, sampled tokens per second through the recording proxy at concurrency 1
and 8 (a claw task's instruction as the prompt, temperature 1, as training samples), then one GRPO step
on claw tasks with forge-react, split into rollout time (sandbox start, harness, model calls, verifier:
sums over rollouts, and the step's wall time), training, weight sync and checkpoint. The first engine
listed is the baseline; every other is printed as a ratio to it.

    .venv/bin/python bench/grpo_step_time.py                      # local and vllm (~25 min on 2 cores)
    .venv/bin/python bench/grpo_step_time.py --engines local --group-size 2 --markdown
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from envs.docker_client import docker_client  # noqa: E402
from envs.image_builder import build_image  # noqa: E402
from envs.task import load_catalog  # noqa: E402
from harnesses.bundle import build_bundle  # noqa: E402
from harnesses.registry import get_harness  # noqa: E402
from proxy.cpu_engine.smollm2 import cached_smollm2  # noqa: E402
from proxy.policy_server import PolicyServer  # noqa: E402
from proxy.store import CallStore  # noqa: E402
from train.grpo_loop import GRPORunConfig, run_grpo  # noqa: E402
from train.local_trainer import LocalTrainer  # noqa: E402
from train.rollout_set import load_results  # noqa: E402
from train.trainer import TrainingSample  # noqa: E402

DEFAULT_TASKS = "organize-downloads,rotate-backups,crontab-schedule,git-release-chore"


def tokens_per_second(socket: Path, prompt: str, concurrency: int, requests: int, max_tokens: int) -> float:
    """Sampled tokens per second of `requests` chat completions, `concurrency` at a time."""
    body = {
        "model": "forge-policy",
        "messages": [{"role": "user", "content": prompt}],
        "max_tokens": max_tokens,
    }

    def one(i: int) -> int:
        transport = httpx.HTTPTransport(uds=str(socket))
        with httpx.Client(transport=transport, base_url="http://proxy", timeout=1800) as client:
            answer = client.post(f"/rollouts/bench-tps-{concurrency}-{i}/v1/chat/completions", json=body)
            answer.raise_for_status()
            return int(answer.json()["usage"]["completion_tokens"])

    started = time.monotonic()
    with ThreadPoolExecutor(concurrency) as pool:
        sampled = sum(pool.map(one, range(requests)))
    return sampled / (time.monotonic() - started)


def measure(engine: str, args: argparse.Namespace, tasks: list, harness: object, bundle: object) -> dict:
    model = cached_smollm2()
    run_dir = Path(tempfile.mkdtemp(prefix=f"forge-bench-step-{engine}-"))
    out: dict = {"engine": engine, "run_dir": str(run_dir)}
    prompt = tasks[0][0].instruction
    started = time.monotonic()
    with PolicyServer(model, run_dir / "tps", max_tokens=args.max_tokens, engine=engine) as policy:
        out["start_sec"] = time.monotonic() - started
        for c in (1, 8):
            out[f"tokens_per_sec_c{c}"] = tokens_per_second(
                policy.proxy.socket, prompt, c, max(c, args.tps_requests), args.tps_tokens
            )
            print(f"[bench] {engine}: {out[f'tokens_per_sec_c{c}']:.1f} sampled tokens/s at concurrency {c}")
    config = GRPORunConfig(
        steps=1,
        batch_tasks=len(tasks),
        group_size=args.group_size,
        concurrency=args.concurrency,
        max_tokens=args.max_tokens,
        max_turns=args.max_turns,
        engine=engine,
        seed=args.seed,
    )
    trainer = LocalTrainer(model, config.local, config.grpo)
    started = time.monotonic()
    [record] = run_grpo(tasks, [(harness, bundle)], trainer, model, run_dir / "grpo", config)
    out["step_wall_sec"] = time.monotonic() - started
    out |= record.timings
    results = load_results(run_dir / "grpo" / "steps" / "0000")
    for key in ("sandbox_start_sec", "agent_sec", "verify_sec"):
        out[f"sum_{key}"] = sum(r.timings.get(key, 0.0) for r in results)
    with CallStore.for_run(run_dir / "grpo") as store:
        calls = [c for rid in store.rollout_ids() for c in store.calls(rid)]
    out["model_calls"] = len(calls)
    out["sum_model_call_sec"] = sum(c.latency_ms for c in calls) / 1000
    out["sampled_tokens"] = sum(len(c.completion_ids or []) for c in calls)
    out["rollouts"] = record.rollouts
    out["pass_rate"] = record.pass_rate
    out["median_rollout_sec"] = statistics.median(r.timings.get("total_sec", 0.0) for r in results)
    out["update_sec"] = record.timings.get("train_sec", 0.0) if record.update is not None else 0.0
    if record.update is None:  # no group had signal: time an update on the same calls instead
        samples = [
            TrainingSample(
                rollout_id=c.rollout_id,
                prompt_ids=c.prompt_ids or [],
                response_ids=c.completion_ids or [],
                response_mask=[1] * len(c.completion_ids or []),
                logprobs=c.logprobs,
                advantage=1.0 if i % 2 else -1.0,
            )
            for i, c in enumerate(calls)
            if c.completion_ids
        ]
        started = time.monotonic()
        trainer.grpo_step(samples)
        out["update_sec"] = time.monotonic() - started
        out["update_measured_apart"] = True
    out["trained_tokens"] = sum(len(c.prompt_ids or []) + len(c.completion_ids or []) for c in calls)
    return out


ROWS = [
    ("engine start-up (s)", "start_sec"),
    ("sampled tokens/s, concurrency 1", "tokens_per_sec_c1"),
    ("sampled tokens/s, concurrency 8", "tokens_per_sec_c8"),
    ("GRPO step wall (s)", "step_wall_sec"),
    ("  rollouts, wall (s)", "rollout_sec"),
    ("    sandbox start, summed over rollouts (s)", "sum_sandbox_start_sec"),
    ("    harness run, summed (s)", "sum_agent_sec"),
    ("      of which model calls, summed (s)", "sum_model_call_sec"),
    ("    verifier, summed (s)", "sum_verify_sec"),
    ("  training, in the step (s)", "train_sec"),
    ("  an update on the step's calls (s) [1]", "update_sec"),
    ("    tokens it runs through (prompt + completion)", "trained_tokens"),
    ("  weight sync: export + reload (s)", "sync_sec"),
    ("  checkpoint (s)", "checkpoint_sec"),
    ("rollouts / model calls / sampled tokens", None),
    ("median rollout (s)", "median_rollout_sec"),
]


def report(measured: list[dict], markdown: bool) -> str:
    base = measured[0]
    header = [
        "",
        *(m["engine"] for m in measured),
        *(f"{m['engine']} / {base['engine']}" for m in measured[1:]),
    ]
    lines = []
    for label, key in ROWS:
        if key is None:
            cells = [f"{m['rollouts']} / {m['model_calls']} / {m['sampled_tokens']}" for m in measured]
            ratios = ["" for _ in measured[1:]]
        else:
            cells = [f"{m.get(key, 0.0):.1f}" for m in measured]
            ratios = [f"{m.get(key, 0.0) / base[key]:.2f}x" if base.get(key) else "-" for m in measured[1:]]
        lines.append([label, *cells, *ratios])
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(row) + " |" for row in lines]
        return "\n".join(out)
    width = max(len(r[0]) for r in lines) + 2
    out = ["".ljust(width) + "".join(h.rjust(16) for h in header[1:])]
    out += [row[0].ljust(width) + "".join(c.rjust(16) for c in row[1:]) for row in lines]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--engines", default="local,vllm")
    parser.add_argument("--catalog", type=Path, default=REPO / "catalog" / "claw")
    parser.add_argument("--tasks", default=DEFAULT_TASKS)
    parser.add_argument("--harness", default="forge-react")
    parser.add_argument("--group-size", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=256)
    parser.add_argument("--max-turns", type=int, default=2)
    parser.add_argument("--tps-requests", type=int, default=8)
    parser.add_argument("--tps-tokens", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    tasks = load_catalog(args.catalog, args.tasks.split(","))
    client = docker_client()
    images = []
    for task in tasks:
        built = build_image(client, task)
        if not built.ok or built.tag is None:
            raise SystemExit(f"task {task.name}: {built.error}")
        images.append((task, built.tag))
    harness = get_harness(args.harness)
    bundle = build_bundle(harness)
    measured = [measure(engine, args, images, harness, bundle) for engine in args.engines.split(",")]
    if args.json:
        args.json.write_text(json.dumps(measured, indent=2) + "\n")
    print(
        f"one GRPO step: {len(images)} claw tasks x {args.group_size} rollouts, {args.harness}, SmolLM2, "
        f"max {args.max_tokens} tokens a call, {args.max_turns} turns, {args.concurrency} rollouts at once"
    )
    print(report(measured, args.markdown))
    if any(m.get("update_measured_apart") for m in measured):
        print(
            "[1] no group of the step had a learning signal (all its rollouts scored alike), so the step "
            "trained nothing; the update is timed apart on the step's recorded calls, advantages +1/-1"
        )


if __name__ == "__main__":
    main()
