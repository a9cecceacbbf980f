"""The GRPO loop: each step samples a batch of tasks and a group of rollouts per task through harness +
proxy + engine (with several harnesses, each group gets one: `assign_harnesses`), scores them with the
hidden tests, updates the policy on the token-exact chains each rollout built from the proxy's records
(train.samples), pushes the new weights to the engine (pause, drain, reload, resume) and logs.

Everything lands in the run directory: `steps/NNNN/results.jsonl` and rollout logs, `calls.sqlite`,
`metrics.jsonl` and TensorBoard events under `tb/`, `checkpoints/`, and `run.json`, what the run is.
A run started again resumes after its last checkpoint; a step cut short redoes only its missing rollouts.
Resuming with other settings than the run was started with is refused, except for more steps or another
concurrency, so a run's metrics always come from one recipe.
"""

from __future__ import annotations

import json
import random
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from envs.task import Task
from harnesses.bundle import Bundle
from harnesses.harness import Harness
from proxy.policy_server import PolicyServer, RunningPolicy
from train.errors import RunMismatch
from train.grpo import RolloutReward, group_advantages
from train.grpo_config import GRPOConfig
from train.judge import JudgeConfig, WebJudge
from train.local_trainer import LocalTrainerConfig
from train.pass_at_k import passed
from train.rollout import RolloutResult
from train.rollout_set import Assignment, InfraPolicy, run_assigned_rollouts, scored_reward
from train.samples import samples_from_results
from train.trainer import StepMetrics, Trainer

METRICS_FILE = "metrics.jsonl"
CHECKPOINTS = "checkpoints"
STATE_FILE = "state.json"
RUN_FILE = "run.json"
RESUMABLE_CHANGES = frozenset({"steps", "concurrency"})
"""Settings a resumed run may change: neither changes what a step computes."""
BASE_VERSION = -1
"""The policy version of a held evaluation of the model before its warm start (version 0 is the policy
GRPO starts from)."""
BASE_EVAL_DIR = "eval-base"
"""Where the base model is served for that evaluation (its calls and vLLM's copy of it)."""


class GRPORunConfig(BaseModel):
    """One GRPO run: its schedule, GRPO's algorithm settings (`grpo`) and the local trainer's optimiser
    settings (`local`)."""

    model_config = ConfigDict(extra="forbid")

    steps: int = Field(default=10, ge=1)
    batch_tasks: int = Field(default=8, ge=1)
    """Tasks sampled per step (all of them when fewer)."""
    group_size: int = Field(default=8, ge=2)
    """Rollouts per task per step; GRPO needs at least two to compare."""
    concurrency: int = Field(default=4, ge=1)
    max_tokens: int = Field(default=512, ge=1)
    """Cap on each model call's completion."""
    max_turns: int | None = Field(default=8, ge=1)
    agent_timeout: float | None = Field(default=None, gt=0)
    """Per-rollout agent timeout (default: each task's own)."""
    infra: InfraPolicy = "drop"
    grpo: GRPOConfig = Field(default_factory=GRPOConfig)
    """Advantages and loss: what a step optimises (the trainer gets it too, `LocalTrainer(grpo=)`)."""
    local: LocalTrainerConfig = Field(default_factory=LocalTrainerConfig)
    checkpoint_every: int = Field(default=1, ge=1)
    eval_samples: int = Field(default=0, ge=0)
    """Rollouts per task of a held evaluation of every training task before the first step and after
    the last (0: none). Unlike a step's batch, it covers every task, so the two are comparable."""
    seed: int = 0
    model_name: str = "forge-policy"
    engine: Literal["local", "vllm"] = "local"
    """What samples the policy: our CPU engine in-process, or a vLLM server the run starts and stops."""
    judge: JudgeConfig | None = None
    """The judge of open-ended tasks (train.judge); its key is never written to run.json."""


class RunManifest(BaseModel):
    """What a run is: `run.json`, written when it starts and checked when it resumes."""

    config: GRPORunConfig
    harness: str
    """The harness, or the harnesses joined by commas in the order groups are assigned them."""
    tasks: list[str]
    model: str
    """The starting policy's directory (relative to the run directory when inside it)."""


def check_manifest(run_dir: Path, manifest: RunManifest) -> None:
    """Write `run.json` for a new run; for an existing one, refuse settings that would change what its
    steps compute (it is rewritten with the new steps and concurrency)."""
    path = run_dir / RUN_FILE
    if path.is_file():
        old = _read_manifest(path)
        before, now = _flat(old.model_dump(mode="json")), _flat(manifest.model_dump(mode="json"))
        changed = sorted(
            key
            for key in before.keys() | now.keys()
            if before.get(key) != now.get(key) and key.removeprefix("config.") not in RESUMABLE_CHANGES
        )
        if changed:
            detail = "; ".join(f"{key}: {before.get(key)!r} -> {now.get(key)!r}" for key in changed)
            raise RunMismatch(
                f"{path}: this run was started with other settings ({detail}); resume it with the same "
                "settings or start a new run directory"
            )
    path.write_text(manifest.model_dump_json(indent=2) + "\n")


def _read_manifest(path: Path) -> RunManifest:
    """`run.json`; one written before GRPO's settings moved from `config.local.grpo` to `config.grpo`
    (and `config.trainer` went) is read in today's shape, so that run still resumes and is checked."""
    data = json.loads(path.read_text())
    config = data.get("config") if isinstance(data, dict) else None
    if isinstance(config, dict):
        config.pop("trainer", None)
        local = config.get("local")
        if isinstance(local, dict) and "grpo" in local and "grpo" not in config:
            config["grpo"] = local.pop("grpo")
    return RunManifest.model_validate(data)


def _relative_to(model_dir: Path, run_dir: Path) -> str:
    """The model's path, relative when it lives in the run directory (the embedded default's), so a run
    directory can be moved and still resume."""
    model, run = model_dir.resolve(), run_dir.resolve()
    return str(model.relative_to(run)) if model.is_relative_to(run) else str(model)


def _flat(data: object, prefix: str = "") -> dict[str, object]:
    if isinstance(data, dict):
        out: dict[str, object] = {}
        for key, value in data.items():
            out |= _flat(value, f"{prefix}{key}.")
        return out
    return {prefix.removesuffix("."): data}


class GroupStats(BaseModel):
    """Pass rate and mean reward of some of a step's or an evaluation's rollouts (one harness, one task)."""

    pass_rate: float
    reward_mean: float
    scored: int
    """Rollouts that count (an infrastructure failure left out under `infra="drop"`)."""
    passed: int


class EvalRecord(BaseModel):
    """A held evaluation of the policy on every training task (with every harness of the run)."""

    policy_version: int
    """BASE_VERSION (-1) for the model before its warm start."""
    pass_rate: float
    reward_mean: float
    rollouts: int
    per_task: dict[str, float]
    """Task -> its pass rate."""
    seconds: float
    scored: int = 0
    """Rollouts that count; `pass_rate`'s standard error is sqrt(p (1 - p) / scored)."""
    per_harness: dict[str, GroupStats] = Field(default_factory=dict)
    per_task_harness: dict[str, dict[str, GroupStats]] = Field(default_factory=dict)
    """Task -> harness -> its stats."""


class StepRecord(BaseModel):
    """One line of metrics.jsonl."""

    step: int
    policy_version: int
    reward_mean: float
    pass_rate: float
    rollouts: int
    infra_errors: int
    groups: int
    skipped_groups: int
    response_tokens_mean: float
    """Model-sampled tokens per trained rollout."""
    calls_mean: float
    timings: dict[str, float]
    update: StepMetrics | None = None
    per_harness: dict[str, GroupStats] = Field(default_factory=dict)
    """Harness -> the pass rate and reward of its groups this step."""


def _log(run_dir: Path, record: StepRecord, writer: Any) -> None:
    with open(run_dir / METRICS_FILE, "a") as f:
        f.write(json.dumps(record.model_dump(mode="json")) + "\n")
    if writer is None:
        return
    scalars = {
        "rollout/reward_mean": record.reward_mean,
        "rollout/pass_rate": record.pass_rate,
        "rollout/response_tokens_mean": record.response_tokens_mean,
        "rollout/calls_mean": record.calls_mean,
        "rollout/infra_errors": record.infra_errors,
        **{f"time/{k}": v for k, v in record.timings.items()},
    }
    if record.update is not None:
        u = record.update
        scalars |= {
            "update/loss": u.loss,
            "update/kl": u.kl,
            "update/clip_fraction": u.clip_fraction,
            "update/approx_kl_old": u.approx_kl_old,
            **({"update/mismatch_kl": u.mismatch_kl} if u.mismatch_kl is not None else {}),
            **({"update/mismatch_max": u.mismatch_max} if u.mismatch_max is not None else {}),
            "update/grad_norm": u.grad_norm,
        }
    for name, value in scalars.items():
        writer.add_scalar(name, value, record.step)
    writer.flush()


def _tensorboard(run_dir: Path) -> Any:
    from torch.utils.tensorboard import SummaryWriter

    return SummaryWriter(str(run_dir / "tb"))


def last_checkpoint(run_dir: Path) -> tuple[int, Path] | None:
    """(step, directory) of the run's last complete checkpoint."""
    state = run_dir / STATE_FILE
    if not state.is_file():
        return None
    data = json.loads(state.read_text())
    return int(data["step"]), run_dir / CHECKPOINTS / data["checkpoint"]


HarnessBundles = Sequence[tuple[Harness, Bundle]]
"""The harnesses a run trains with, each with its bundle."""


def assign_harnesses(
    step: int, chosen: Sequence[tuple[Task, str]], harnesses: HarnessBundles
) -> list[Assignment]:
    """The harness of each of a step's groups: round-robin over the groups, shifted by one each step.

    Every step then splits its groups evenly (to within one) between the harnesses, so each step's update
    sees every harness, and a task sampled in consecutive steps meets each harness in turn. The same
    seed gives the same assignment, and one harness gives what a single-harness run always did."""
    n = len(harnesses)
    return [Assignment(task, image, *harnesses[(step + i) % n]) for i, (task, image) in enumerate(chosen)]


def run_grpo(
    tasks: list[tuple[Task, str]],
    harnesses: HarnessBundles,
    trainer: Trainer,
    model_dir: Path,
    run_dir: Path,
    config: GRPORunConfig,
    on_rollout: Callable[[RolloutResult], None] = lambda result: None,
    on_step: Callable[[StepRecord], None] = lambda record: None,
    on_eval: Callable[[EvalRecord], None] = lambda record: None,
    base_model: Path | None = None,
) -> list[StepRecord]:
    """Train for `config.steps` steps (resuming after the run's last checkpoint). `base_model`: the model
    `model_dir` was warm-started from; with `eval_samples` it is evaluated first, so the held evaluations
    show what the warm start and GRPO each did."""
    if not harnesses:
        raise ValueError("run_grpo needs at least one harness")
    run_dir.mkdir(parents=True, exist_ok=True)
    check_manifest(
        run_dir,
        RunManifest(
            config=config,
            harness=",".join(h.name for h, _ in harnesses),
            tasks=sorted(task.name for task, _ in tasks),
            model=_relative_to(model_dir, run_dir),
        ),
    )
    first = 0
    serve_dir = model_dir
    if (found := last_checkpoint(run_dir)) is not None:
        step, checkpoint = found
        trainer.load_checkpoint(checkpoint)
        first, serve_dir = step + 1, checkpoint / "model"
    records: list[StepRecord] = []
    if base_model is not None and config.eval_samples and first == 0 and not _has_base_eval(run_dir):
        with _policy_server(base_model, run_dir / BASE_EVAL_DIR, config) as base:
            base.policy_version = BASE_VERSION
            on_eval(evaluate_policy(base, tasks, harnesses, run_dir, config, on_rollout))
    writer = _tensorboard(run_dir)
    try:
        with _policy_server(serve_dir, run_dir, config) as policy:
            policy.policy_version = first
            if config.eval_samples and first == 0:
                on_eval(evaluate_policy(policy, tasks, harnesses, run_dir, config, on_rollout))
            for step in range(first, config.steps):
                record = _step(step, tasks, harnesses, trainer, policy, run_dir, config, on_rollout)
                records.append(record)
                _log(run_dir, record, writer)
                on_step(record)
            if config.eval_samples and records:
                on_eval(evaluate_policy(policy, tasks, harnesses, run_dir, config, on_rollout))
    finally:
        if writer is not None:
            writer.close()
    return records


def _policy_server(model_dir: Path, serve_dir: Path, config: GRPORunConfig) -> PolicyServer:
    """The run's policy server for `model_dir`, sampling as the run samples (its cap, engine, temperature)."""
    return PolicyServer(
        model_dir,
        serve_dir,
        max_tokens=config.max_tokens,
        engine=config.engine,
        temperature=config.grpo.temperature,
    )


def version_name(version: int) -> str:
    """`v3`, or `base` for the model before its warm start."""
    return "base" if version == BASE_VERSION else f"v{version}"


def _eval_name(version: int) -> str:
    """The folder of an evaluation's rollouts: `base`, or `v0003` (sorted as numbers)."""
    return "base" if version == BASE_VERSION else f"v{version:04d}"


def _has_base_eval(run_dir: Path) -> bool:
    path = run_dir / "eval.jsonl"
    if not path.is_file():
        return False
    return any(
        EvalRecord.model_validate_json(line).policy_version == BASE_VERSION
        for line in path.read_text().splitlines()
        if line.strip()
    )


def _rollouts(
    policy: RunningPolicy,
    assigned: Sequence[Assignment],
    config: GRPORunConfig,
    samples: int,
    set_dir: Path,
    on_rollout: Callable[[RolloutResult], None],
) -> list[RolloutResult]:
    """`samples` rollouts of each (task, harness) with the policy as served now (its version in each
    rollout's key), as one resumable rollout set."""
    return run_assigned_rollouts(
        assigned,
        policy.proxy,
        samples=samples,
        run_dir=set_dir,
        model=config.model_name,
        concurrency=config.concurrency,
        timeout=config.agent_timeout,
        max_turns=config.max_turns,
        on_done=on_rollout,
        # the base model is no version of the policy: its rollouts are a fixed policy's
        policy_version=None if policy.policy_version == BASE_VERSION else policy.policy_version,
        judge=WebJudge(config.judge) if config.judge else None,
    )


def group_stats(rewards: Sequence[float]) -> GroupStats:
    wins = sum(1 for v in rewards if passed(v))
    return GroupStats(
        pass_rate=wins / len(rewards) if rewards else 0.0,
        reward_mean=sum(rewards) / len(rewards) if rewards else 0.0,
        scored=len(rewards),
        passed=wins,
    )


def _by(results: Sequence[RolloutResult], infra: InfraPolicy) -> dict[tuple[str, str], list[float]]:
    """(task, harness) -> the rewards that count."""
    out: dict[tuple[str, str], list[float]] = {}
    for r in results:
        value = scored_reward(r, infra)
        if value is not None:
            out.setdefault((r.task, r.harness), []).append(value)
    return out


def _per_harness(by: dict[tuple[str, str], list[float]], names: Sequence[str]) -> dict[str, GroupStats]:
    return {h: group_stats([v for (_, harness), vs in by.items() if harness == h for v in vs]) for h in names}


def evaluate_policy(
    policy: RunningPolicy,
    tasks: list[tuple[Task, str]],
    harnesses: HarnessBundles,
    run_dir: Path,
    config: GRPORunConfig,
    on_rollout: Callable[[RolloutResult], None] = lambda result: None,
) -> EvalRecord:
    """`eval_samples` rollouts of every task with every harness, with the policy as served now; written
    to `eval/v<version>/` and appended to `eval.jsonl`."""
    version = policy.policy_version
    started = time.monotonic()
    assigned = [Assignment(task, image, h, b) for h, b in harnesses for task, image in tasks]
    results = _rollouts(
        policy, assigned, config, config.eval_samples, run_dir / "eval" / _eval_name(version), on_rollout
    )
    by = _by(results, config.infra)
    values = [v for rewards in by.values() for v in rewards]
    overall = group_stats(values)
    task_names = sorted({task for task, _ in by})
    harness_names = [h.name for h, _ in harnesses]
    record = EvalRecord(
        policy_version=version,
        pass_rate=overall.pass_rate,
        reward_mean=overall.reward_mean,
        rollouts=len(results),
        per_task={
            t: group_stats([v for (task, _), vs in by.items() if task == t for v in vs]).pass_rate
            for t in task_names
        },
        seconds=time.monotonic() - started,
        scored=overall.scored,
        per_harness=_per_harness(by, harness_names),
        per_task_harness={t: {h: group_stats(by.get((t, h), [])) for h in harness_names} for t in task_names},
    )
    with open(run_dir / "eval.jsonl", "a") as f:
        f.write(record.model_dump_json() + "\n")
    return record


def _step(
    step: int,
    tasks: list[tuple[Task, str]],
    harnesses: HarnessBundles,
    trainer: Trainer,
    policy: RunningPolicy,
    run_dir: Path,
    config: GRPORunConfig,
    on_rollout: Callable[[RolloutResult], None],
) -> StepRecord:
    timings: dict[str, float] = {}
    rng = random.Random(config.seed * 100_003 + step)
    chosen = rng.sample(tasks, min(config.batch_tasks, len(tasks)))
    assigned = assign_harnesses(step, chosen, harnesses)
    started = time.monotonic()
    results = _rollouts(
        policy, assigned, config, config.group_size, run_dir / "steps" / f"{step:04d}", on_rollout
    )
    timings["rollout_sec"] = time.monotonic() - started
    rewards = []
    for r in results:
        value = scored_reward(r, config.infra)
        if value is not None:
            rewards.append(RolloutReward(rollout_id=r.rollout_id, group=r.task, reward=value))
    advantages = group_advantages(rewards, config.grpo)
    samples = samples_from_results(results, advantages.values, policy.proxy.store)
    update = None
    started = time.monotonic()
    if samples:
        update = trainer.grpo_step(samples)
    timings["train_sec"] = time.monotonic() - started
    started = time.monotonic()
    version = step + 1
    weights = trainer.export_weights(run_dir / "weights" / f"v{version:04d}")
    policy.sync(weights, version)
    for old in (run_dir / "weights").glob("v*"):
        if old != weights:
            shutil.rmtree(old, ignore_errors=True)
    timings["sync_sec"] = time.monotonic() - started
    if (step + 1) % config.checkpoint_every == 0 or step + 1 == config.steps:
        started = time.monotonic()
        name = f"step-{step:04d}"
        trainer.save_checkpoint(run_dir / CHECKPOINTS / name)
        (run_dir / STATE_FILE).write_text(json.dumps({"step": step, "checkpoint": name}) + "\n")
        timings["checkpoint_sec"] = time.monotonic() - started
    scored = [v.reward for v in rewards]
    per_rollout: dict[str, int] = {}
    for sample in samples:
        per_rollout[sample.rollout_id] = per_rollout.get(sample.rollout_id, 0) + sum(sample.response_mask)
    tokens = list(per_rollout.values())
    return StepRecord(
        step=step,
        policy_version=version,
        reward_mean=sum(scored) / len(scored) if scored else 0.0,
        pass_rate=sum(1 for v in scored if passed(v)) / len(scored) if scored else 0.0,
        rollouts=len(results),
        infra_errors=sum(1 for r in results if r.status == "infra-error"),
        groups=advantages.groups,
        skipped_groups=advantages.skipped_groups,
        response_tokens_mean=sum(tokens) / len(tokens) if tokens else 0.0,
        calls_mean=sum(r.calls for r in results) / len(results) if results else 0.0,
        timings=timings,
        update=update,
        per_harness=_per_harness(_by(results, config.infra), [h.name for h, _ in harnesses]),
    )
