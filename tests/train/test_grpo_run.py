"""GRPO end to end: two steps on two catalog tasks in real containers, through forge-react, the proxy and
the local engine; the recorded tokens train the policy token-exactly; a run resumes after its checkpoint."""

from __future__ import annotations

import json
from pathlib import Path

import docker
import httpx
import pytest
from pydantic import ValidationError

from envs.image_builder import build_image
from envs.task import load_task
from harnesses.bundle import build_bundle
from harnesses.forge_react import ForgeReact
from proxy.policy_server import PolicyServer
from train.grpo_config import GRPOConfig
from train.grpo_loop import (
    METRICS_FILE,
    RUN_FILE,
    EvalRecord,
    GRPORunConfig,
    RunManifest,
    RunMismatch,
    check_manifest,
    last_checkpoint,
    run_grpo,
)
from train.local_trainer import LocalTrainer, LocalTrainerConfig
from train.samples import samples_from_store

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog" / "claw"


@pytest.mark.docker
def test_two_grpo_steps_on_two_catalog_tasks(
    client: docker.DockerClient, base_image: str, tiny_model_dir: Path, tmp_path: Path
) -> None:
    tasks = []
    for name in ("organize-downloads", "edit-service-config"):
        task = load_task(CATALOG / name)
        tasks.append((task, build_image(client, task).tag or ""))
    harness = ForgeReact()
    config = GRPORunConfig(
        steps=2,
        batch_tasks=2,
        group_size=2,
        concurrency=2,
        max_tokens=24,
        max_turns=2,
        agent_timeout=120,
        eval_samples=1,
    )
    run_dir = tmp_path / "run"
    trainer = LocalTrainer(tiny_model_dir, config.local, config.grpo)
    evals: list[EvalRecord] = []
    records = run_grpo(
        tasks,
        [(harness, build_bundle(harness))],
        trainer,
        tiny_model_dir,
        run_dir,
        config,
        on_eval=evals.append,
    )
    assert [r.step for r in records] == [0, 1]
    assert [(e.policy_version, e.rollouts) for e in evals] == [(0, 2), (2, 2)]  # before and after
    assert len((run_dir / "eval.jsonl").read_text().splitlines()) == 2
    assert [r.policy_version for r in records] == [1, 2]
    for record in records:
        assert record.rollouts == 4 and record.infra_errors == 0, record
        assert record.calls_mean >= 1
    assert list((run_dir / "tb").glob("events.out.tfevents.*")), "TensorBoard events are written"
    lines = (run_dir / METRICS_FILE).read_text().splitlines()
    assert [json.loads(line)["step"] for line in lines] == [0, 1]
    assert last_checkpoint(run_dir) == (1, run_dir / "checkpoints" / "step-0001")
    results = (run_dir / "steps" / "0001" / "results.jsonl").read_text().splitlines()
    assert len(results) == 4
    # A finished run started again has nothing left to do.
    again = run_grpo(tasks, [(harness, build_bundle(harness))], trainer, tiny_model_dir, run_dir, config)
    assert again == []
    # Resuming with another recipe is refused, naming what changed; more steps are allowed.
    changed = config.model_copy(update={"group_size": 4})
    with pytest.raises(RunMismatch, match=r"config\.group_size: 2 -> 4"):
        run_grpo(tasks, [(harness, build_bundle(harness))], trainer, tiny_model_dir, run_dir, changed)
    assert json.loads((run_dir / RUN_FILE).read_text())["config"]["group_size"] == 2


def test_recorded_tokens_train_the_policy_token_exactly(tiny_model_dir: Path, tmp_path: Path) -> None:
    """Calls sampled by the engine through the proxy become samples whose recorded log-probs are the
    trainer's own: the first update's ratio is 1 (up to float noise)."""
    with PolicyServer(tiny_model_dir, tmp_path / "run", max_tokens=16) as policy:
        assert policy.proxy is not None and policy.proxy.store is not None
        transport = httpx.HTTPTransport(uds=str(policy.proxy.socket))
        with httpx.Client(transport=transport, base_url="http://proxy", timeout=120) as http:
            for i in range(4):
                body = {"model": "m", "messages": [{"role": "user", "content": f"task {i}: list /app"}]}
                http.post(f"/rollouts/r{i}/v1/chat/completions", json=body).raise_for_status()
        samples = samples_from_store(policy.proxy.store, {"r0": 1.0, "r1": -1.0, "r2": 0.5, "r3": -0.5})
    assert len(samples) == 4 and all(s.logprobs for s in samples)
    trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig(lr=1e-3))
    metrics = trainer.grpo_step(samples)
    assert metrics.trained_tokens == sum(sum(s.response_mask) for s in samples) > 0
    assert metrics.approx_kl_old < 1e-6 and metrics.clip_fraction == 0.0


def test_a_run_resumes_with_more_steps_but_not_another_recipe(tmp_path: Path) -> None:
    def manifest(**changes: object) -> RunManifest:
        config = GRPORunConfig(steps=2).model_copy(update=changes)
        return RunManifest(config=config, harness="forge-react", tasks=["a", "b"], model="/m")

    check_manifest(tmp_path, manifest())
    check_manifest(tmp_path, manifest(steps=5, concurrency=8))
    assert json.loads((tmp_path / RUN_FILE).read_text())["config"]["steps"] == 5
    with pytest.raises(RunMismatch, match=r"config\.seed: 0 -> 1") as refused:
        check_manifest(tmp_path, manifest(seed=1, max_tokens=64))
    assert "config.max_tokens: 512 -> 64" in str(refused.value) and "steps" not in str(refused.value)
    other_tasks = RunManifest(config=GRPORunConfig(steps=5), harness="forge-react", tasks=["a"], model="/m")
    with pytest.raises(RunMismatch, match=r"tasks: \['a', 'b'\] -> \['a'\]"):
        check_manifest(tmp_path, other_tasks)


def test_grpo_settings_are_the_runs_and_checked_on_resume(tmp_path: Path) -> None:
    """GRPO's algorithm settings sit in the run config (`config.grpo`), apart from the trainer's optimiser
    settings (`config.local`); a resume with other ones is refused; there is no trainer choice."""
    config = GRPORunConfig(steps=2, grpo=GRPOConfig(clip_high=0.3, kl_coef=0.1))
    check_manifest(tmp_path, RunManifest(config=config, harness="forge-react", tasks=["a"], model="/m"))
    written = json.loads((tmp_path / RUN_FILE).read_text())["config"]
    assert written["grpo"]["clip_high"] == 0.3 and "grpo" not in written["local"] and "trainer" not in written
    other = config.model_copy(update={"grpo": GRPOConfig(clip_high=0.3)})
    with pytest.raises(RunMismatch, match=r"config\.grpo\.kl_coef: 0\.1 -> 0\.0"):
        check_manifest(tmp_path, RunManifest(config=other, harness="forge-react", tasks=["a"], model="/m"))
    with pytest.raises(ValidationError, match="trainer"):
        GRPORunConfig(trainer="verl")  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="grpo"):
        GRPORunConfig.model_validate({"local": {"grpo": {"kl_coef": 0.1}}})


def test_a_run_json_from_before_grpo_moved_still_resumes(tmp_path: Path) -> None:
    """A run.json written with GRPO's settings under `config.local.grpo` and a `config.trainer` is read
    in today's shape: the same recipe resumes, another one is refused."""
    config = GRPORunConfig(steps=2, grpo=GRPOConfig(kl_coef=0.1))
    manifest = RunManifest(config=config, harness="forge-react", tasks=["a"], model="/m")
    old = manifest.model_dump(mode="json")
    old["config"]["local"]["grpo"] = old["config"].pop("grpo")
    old["config"]["trainer"] = "local"
    (tmp_path / RUN_FILE).write_text(json.dumps(old))
    changed = config.model_copy(update={"grpo": GRPOConfig()})
    with pytest.raises(RunMismatch, match=r"config\.grpo\.kl_coef: 0\.1 -> 0\.0"):
        check_manifest(tmp_path, RunManifest(config=changed, harness="forge-react", tasks=["a"], model="/m"))
    check_manifest(tmp_path, manifest.model_copy(update={"config": config.model_copy(update={"steps": 4})}))
    assert json.loads((tmp_path / RUN_FILE).read_text())["config"]["grpo"]["kl_coef"] == 0.1
