"""The veRL backend on CPU, checked with veRL's own classes and functions (veRL 0.9.1 is installed).

Data: our samples as veRL's DataProto, and veRL's GRPO (the v1 trainer's multi-chain advantage code and
core_algos) giving our group advantages; veRL's PPO-clip loss giving ours under the recipe's settings.
Agent loop: the loop veRL instantiates from its registry, with a fake rollout and with the real bridge
(proxy + our token path + a stand-in for veRL's server manager returning veRL's TokenOutput), giving
veRL's AgentLoopOutput. Config: veRL's ppo_trainer.yaml with the recipe, validated by veRL, and the
errors bad values give. Not here: anything needing GPUs, Ray workers, vLLM or Docker.
"""

from __future__ import annotations

import asyncio
import math
import re
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import openai
import pytest
import torch
from omegaconf import OmegaConf
from pydantic import ValidationError
from typer.testing import CliRunner
from verl import DataProto
from verl.experimental.agent_loop.agent_loop import (
    AgentLoopOutput,
    DictConfigWrap,
    ToolListWrap,
    _agent_loop_registry,
)
from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage, compute_policy_loss_vanilla
from verl.utils.config import omega_conf_to_dataclass
from verl.utils.dataset.rl_dataset import RLHFDataset
from verl.workers.rollout.replica import TokenOutput

from envs.task import load_task
from proxy.engines.base import Engine
from proxy.engines.tokens import load_tokenizer
from proxy.session import ProxySession
from proxy.trajectory import Chain
from tests.conftest import write_task
from train.grpo import RolloutReward, group_advantages, policy_loss
from train.grpo_config import GRPOConfig
from train.trainer import TrainingSample, create_trainer
from train.verl.agent_loop import (
    OpenForgeAgentLoop,
    RolloutOutcome,
    RolloutRequest,
    outcome_from_store,
    outputs_from_outcome,
)
from train.verl.backend import LAUNCH_COMMAND, SFT_LAUNCH_COMMAND, app, launch, prepare
from train.verl.config import (
    AGENT_LOOP_NAME,
    VerlConfigError,
    VerlRecipe,
    build_verl_config,
    hydra_value,
    save_verl_config,
    validate_verl_config,
    verl_config_dir,
)
from train.verl.data import samples_to_dataproto, verl_grpo_advantages, write_task_dataset
from train.verl_trainer import VerlTrainer, VerlUnavailable

# --- shared fixtures ------------------------------------------------------------------------------------


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    root = tmp_path / "catalog"
    for i in range(8):
        write_task(root, f"task-{i}", instruction=f"Create the file /app/done-{i}.\n")
    return root


@pytest.fixture
def recipe(catalog: Path, tmp_path: Path) -> VerlRecipe:
    return VerlRecipe(catalog=catalog, run_dir=tmp_path / "run")


@pytest.fixture(scope="module")
def tokenizer(tiny_model_dir: Path) -> Any:
    return load_tokenizer(tiny_model_dir)


def _sample(
    rollout_id: str, prompt: list[int], response: list[int], mask: list[int], adv: float
) -> TrainingSample:
    logprobs = [-0.1 * (i + 1) if m else 0.0 for i, m in enumerate(mask)]
    return TrainingSample(
        rollout_id=rollout_id,
        prompt_ids=prompt,
        response_ids=response,
        response_mask=mask,
        logprobs=logprobs,
        advantage=adv,
    )


def _hand_batch(
    config: GRPOConfig | None = None,
) -> tuple[list[TrainingSample], list[RolloutReward], dict[str, float]]:
    """Three groups: rewards with signal (one rollout in two chains), and one group of equal rewards."""
    rewards = [
        RolloutReward(rollout_id="a0", group="org/task_a", reward=1.0),
        RolloutReward(rollout_id="a1", group="org/task_a", reward=0.0),
        RolloutReward(rollout_id="a2", group="org/task_a", reward=0.5),
        RolloutReward(rollout_id="a3", group="org/task_a", reward=0.0),
        RolloutReward(rollout_id="b0", group="task_b", reward=0.0),
        RolloutReward(rollout_id="b1", group="task_b", reward=1.0),
        RolloutReward(rollout_id="b2", group="task_b", reward=1.0),
        RolloutReward(rollout_id="c0", group="task-c", reward=1.0),
        RolloutReward(rollout_id="c1", group="task-c", reward=1.0),
    ]
    ours = group_advantages(rewards, config).values
    samples = []
    for i, r in enumerate(rewards):
        adv = ours.get(r.rollout_id, 0.0)
        prompt = list(range(10, 13 + i % 3))
        samples.append(
            _sample(r.rollout_id, prompt, [40 + i, 41, 42, 43][: 2 + i % 3], [1, 0, 1, 1][: 2 + i % 3], adv)
        )
        if r.rollout_id in ("a1", "b2"):  # a second chain (e.g. after a context compaction)
            samples.append(_sample(r.rollout_id, [10, 99], [50, 51, 52, 53, 54], [1, 1, 0, 0, 1], adv))
    return samples, rewards, ours


# --- data: samples as veRL's DataProto ------------------------------------------------------------------


def test_samples_become_verls_actor_layout() -> None:
    samples, rewards, _ = _hand_batch()
    data = samples_to_dataproto(samples, rewards, pad_token_id=0)
    assert isinstance(data, DataProto)
    data.check_consistency()
    assert len(data) == len(samples) == 11
    b = data.batch
    width_p, width_r = b["prompts"].shape[1], b["responses"].shape[1]
    assert (width_p, width_r) == (
        max(len(s.prompt_ids) for s in samples),
        max(len(s.response_ids) for s in samples),
    )
    for i, s in enumerate(samples):
        p, r = len(s.prompt_ids), len(s.response_ids)
        assert b["prompts"][i, width_p - p :].tolist() == s.prompt_ids  # left-padded
        assert b["prompts"][i, : width_p - p].eq(0).all()
        assert b["responses"][i, :r].tolist() == s.response_ids  # right-padded
        assert b["input_ids"][i].tolist() == b["prompts"][i].tolist() + b["responses"][i].tolist()
        assert b["attention_mask"][i].tolist() == [0] * (width_p - p) + [1] * (p + r) + [0] * (width_r - r)
        assert b["position_ids"][i, width_p - p :].tolist()[: p + r] == list(range(p + r))
        assert b["response_mask"][i].tolist() == s.response_mask + [0] * (width_r - r)
        assert b["rollout_log_probs"][i, :r].tolist() == pytest.approx(s.logprobs)
        assert b["advantages"][i].tolist() == pytest.approx(
            [s.advantage * m for m in s.response_mask] + [0] * (width_r - r)
        )
        reward = next(x.reward for x in rewards if x.rollout_id == s.rollout_id)
        assert b["token_level_scores"][i].tolist() == pytest.approx(
            [0.0] * (r - 1) + [reward] + [0.0] * (width_r - r)
        )
    nt = data.non_tensor_batch
    assert list(nt["rollout_id"]) == [s.rollout_id for s in samples]
    assert list(nt["uid"][:4]) == ["org/task_a"] * 4
    assert list(nt["key"][:4]) == ["org/task_a_0_0", "org/task_a_1_0", "org/task_a_1_1", "org/task_a_2_0"]
    assert data.meta_info["global_token_num"] == b["attention_mask"].sum(-1).tolist()
    assert b["prompts"].dtype == torch.int64 and b["advantages"].dtype == torch.float32
    assert "old_log_probs" not in b.keys()  # noqa: SIM118 - TensorDict has no `in`
    # veRL's own batch operations work on it.
    assert len(data.select_idxs([0, 2])) == 2
    assert [len(c) for c in data.chunk(1)] == [11]


def test_verls_grpo_gives_our_group_advantages() -> None:
    for scale in (True, False):
        config = GRPOConfig(scale_by_std=scale)
        samples, rewards, ours = _hand_batch(config)
        data = samples_to_dataproto(samples, rewards)
        theirs = verl_grpo_advantages(data, norm_adv_by_std_in_grpo=scale)
        # Groups with equal rewards carry no signal: ours leaves them out, veRL gives them 0.
        assert set(ours) == {r.rollout_id for r in rewards if r.group != "task-c"}
        for r in rewards:
            assert theirs[r.rollout_id] == pytest.approx(ours.get(r.rollout_id, 0.0), rel=1e-5, abs=1e-6)
        # core_algos directly, one row per rollout: the same numbers.
        rows = [i for i, k in enumerate(data.non_tensor_batch["key"]) if k.endswith("_0")]
        single = data.select_idxs(rows)
        adv, _ = compute_grpo_outcome_advantage(
            token_level_rewards=single.batch["token_level_rewards"],
            response_mask=single.batch["response_mask"],
            index=single.non_tensor_batch["uid"],
            norm_adv_by_std_in_grpo=scale,
        )
        # ...and per token it is what the DataProto already carries (advantage on sampled tokens).
        assert torch.allclose(adv, single.batch["advantages"], atol=1e-5)
    # Hand values: group a has rewards 1, 0, .5, 0 (mean .375, unbiased std .4787).
    _, _, scaled = _hand_batch()
    assert scaled["a0"] == pytest.approx(0.625 / 0.47871355, rel=1e-5)
    assert ours["a0"] == pytest.approx(0.625)  # Dr. GRPO: the mean subtracted only


def test_a_lone_rollout_differs_between_verl_and_us() -> None:
    """A group left with one rollout (its siblings dropped for infrastructure errors): veRL's GRPO uses
    mean 0 and std 1, so the raw reward becomes the advantage; ours has no signal and skips it."""
    rewards = [RolloutReward(rollout_id="x0", group="lone", reward=1.0)]
    assert group_advantages(rewards).values == {}
    data = samples_to_dataproto([_sample("x0", [1, 2], [3, 4], [1, 1], 0.0)], rewards)
    assert verl_grpo_advantages(data)["x0"] == pytest.approx(1.0, rel=1e-5)


def test_recipe_loss_settings_give_our_policy_loss(recipe: VerlRecipe) -> None:
    """veRL's PPO-clip loss under the recipe's actor config (clip ratios, seq-mean-token-mean) equals
    train.grpo.policy_loss on rollouts of one chain each."""
    actor = omega_conf_to_dataclass(build_verl_config(recipe).actor_rollout_ref.actor)
    ours_config = GRPOConfig(clip_low=recipe.clip_low, clip_high=recipe.clip_high)
    assert (actor.clip_ratio_low, actor.clip_ratio_high) == (ours_config.clip_low, ours_config.clip_high)
    samples, rewards, _ = _hand_batch(ours_config)
    samples = [s for s in samples if s.rollout_id not in ("a1", "b2")]
    data = samples_to_dataproto(samples, [r for r in rewards if r.rollout_id not in ("a1", "b2")])
    gen = torch.Generator().manual_seed(0)
    old = data.batch["rollout_log_probs"]
    new = old + (torch.rand(old.shape, generator=gen) - 0.5) * 0.8  # ratios in [0.67, 1.5]: some clipped
    mask = data.batch["response_mask"]
    theirs, _ = compute_policy_loss_vanilla(
        old_log_prob=old,
        log_prob=new,
        advantages=data.batch["advantages"],
        response_mask=mask,
        loss_agg_mode=actor.loss_agg_mode,
        config=actor,
    )
    flat = mask.bool()
    rollout_index = torch.arange(len(samples)).unsqueeze(1).expand_as(mask)[flat]
    ours, parts = policy_loss(
        new[flat].double(),
        old[flat].double(),
        data.batch["advantages"][flat].double(),
        rollout_index,
        len(samples),
        ours_config,
    )
    assert parts.clip_fraction > 0
    assert float(theirs) == pytest.approx(float(ours), rel=1e-5)


def test_conversion_errors_and_options() -> None:
    samples, rewards, _ = _hand_batch()
    with pytest.raises(ValueError, match="no reward"):
        samples_to_dataproto(samples, rewards[1:])
    with pytest.raises(ValueError, match="exceeds"):
        samples_to_dataproto(samples, rewards, response_length=2)
    with pytest.raises(ValueError, match="no sample"):
        samples_to_dataproto([_sample("a0", [1], [2], [0], 0.0)], rewards)
    fixed = samples_to_dataproto(
        [*samples, _sample("a0", [], [7], [1], 0.0)],
        rewards,
        prompt_length=8,
        response_length=16,
        old_logprobs_from_rollout=True,
    )
    assert len(fixed) == len(samples)  # the sample without a prompt is left out
    assert fixed.batch["prompts"].shape[1] == 8 and fixed.batch["responses"].shape[1] == 16
    assert torch.equal(fixed.batch["old_log_probs"], fixed.batch["rollout_log_probs"])
    no_logprobs = [s.model_copy(update={"logprobs": None}) for s in samples]
    plain = samples_to_dataproto(no_logprobs, rewards)
    assert "rollout_log_probs" not in plain.batch.keys()  # noqa: SIM118
    with pytest.raises(ValueError, match="log-probs"):
        samples_to_dataproto(no_logprobs, rewards, old_logprobs_from_rollout=True)


# --- the task dataset -------------------------------------------------------------------------------------


def test_task_dataset_reads_through_verls_dataset(recipe: VerlRecipe, catalog: Path, tokenizer: Any) -> None:
    tasks = [load_task(p) for p in sorted(catalog.iterdir())]
    path = write_task_dataset(tasks, recipe.dataset_path, min_tasks=8)
    config = build_verl_config(recipe)
    dataset = RLHFDataset(str(path), tokenizer, config.data)
    assert len(dataset) == 8
    row = dataset[3]
    assert row["agent_name"] == AGENT_LOOP_NAME
    assert row["extra_info"]["task"] == "task-3"
    assert Path(row["extra_info"]["task_dir"]) == (catalog / "task-3").resolve()
    assert row["raw_prompt"][0]["content"] == "Create the file /app/done-3.\n"
    assert row["index"] == 3
    with pytest.raises(ValueError, match="every step takes 9"):
        write_task_dataset(tasks, recipe.dataset_path, min_tasks=9)


# --- the agent loop -----------------------------------------------------------------------------------------

CHAINS = [
    Chain(
        rollout_id="r",
        chain_index=0,
        prompt_ids=[1, 2, 3],
        response_ids=[4, 5, 6, 7, 8],
        response_mask=[1, 1, 0, 0, 1],
        response_logprobs=[-0.5, -0.25, 0.0, 0.0, -1.0],
        call_seqs=[0, 1],
        num_turns=4,
    ),
    Chain(
        rollout_id="r",
        chain_index=1,
        prompt_ids=[1, 9],
        response_ids=[10, 11],
        response_mask=[1, 1],
        response_logprobs=[-0.1, -0.2],
        call_seqs=[2],
        num_turns=2,
    ),
]
SEEN: list[RolloutRequest] = []


def fake_rollout(request: RolloutRequest, engine: Engine) -> RolloutOutcome:
    """A RolloutFn that returns known chains (named in the config as tests.train.test_verl:fake_rollout)."""
    SEEN.append(request)
    chains = [c.model_copy(update={"rollout_id": request.rollout_id}) for c in CHAINS]
    return RolloutOutcome(rollout_id=request.rollout_id, status="scored", reward=1.0, chains=chains, calls=3)


class FakeServerManager:
    """Stands in for veRL's LLMServerClient: `generate` answers with veRL's TokenOutput."""

    def __init__(self, completions: list[list[int]], step: int = 3) -> None:
        self.completions = completions
        self.step = step
        self.calls: list[dict[str, Any]] = []
        self.loops: list[asyncio.AbstractEventLoop] = []

    async def generate(
        self, request_id: str, *, prompt_ids: list[int], sampling_params: dict[str, Any], **kw: Any
    ) -> TokenOutput:
        self.loops.append(asyncio.get_running_loop())
        self.calls.append(
            {"request_id": request_id, "prompt_ids": prompt_ids, "sampling": dict(sampling_params), **kw}
        )
        ids = self.completions[len(self.calls) - 1]
        return TokenOutput(
            token_ids=ids,
            log_probs=[-0.25] * len(ids),
            stop_reason="completed",
            extra_fields={"global_steps": self.step},
        )


def _loop(config: Any, tokenizer: Any, server: Any = None, **kwargs: Any) -> OpenForgeAgentLoop:
    """The loop as veRL's AgentLoopWorker builds it: hydra.instantiate of its registry entry."""
    import hydra

    return hydra.utils.instantiate(
        config=_agent_loop_registry[AGENT_LOOP_NAME],
        trainer_config=DictConfigWrap(config=config),
        server_manager=server or FakeServerManager([]),
        tokenizer=tokenizer,
        processor=None,
        hf_model_type=None,
        dataset_cls=RLHFDataset,
        data_config=DictConfigWrap(config.data),
        tools=ToolListWrap([]),
        **kwargs,
    )


def _row(task_dir: Path) -> dict[str, Any]:
    """What veRL passes `run` for one sample of the dataset (v1 trainer)."""
    return {
        "raw_prompt": [{"role": "user", "content": "Create the file."}],
        "extra_info": {"index": 0, "task": task_dir.name, "task_dir": str(task_dir)},
        "index": 0,
        "data_source": "openforge",
        "uid": "3f2a-uid",
        "session_id": 5,
        "global_steps": 7,
        "tools_kwargs": {},
        "dummy_tensor": torch.tensor([0]),
    }


def test_agent_loop_is_registered_and_returns_verls_outputs(
    recipe: VerlRecipe, catalog: Path, tokenizer: Any
) -> None:
    recipe = recipe.model_copy(update={"rollout_fn": "tests.train.test_verl:fake_rollout"})
    config = build_verl_config(recipe)
    assert _agent_loop_registry[AGENT_LOOP_NAME] == {"_target_": "train.verl.agent_loop.OpenForgeAgentLoop"}
    loop = _loop(config, tokenizer)
    assert isinstance(loop, OpenForgeAgentLoop)
    SEEN.clear()
    outputs = asyncio.run(
        loop.run({"temperature": 1.0, "top_p": 1.0, "logprobs": True}, **_row(catalog / "task-2"))
    )
    [request] = SEEN
    assert request.rollout_id.startswith("task-2--forge-react-s7-5-")
    assert (request.task, request.group, request.sample, request.global_step) == ("task-2", "3f2a-uid", 5, 7)
    assert request.settings.catalog == str(catalog.resolve())
    assert len(outputs) == 2 and all(isinstance(o, AgentLoopOutput) for o in outputs)
    for output, chain in zip(outputs, CHAINS, strict=True):
        assert output.prompt_ids == chain.prompt_ids
        assert output.response_ids == chain.response_ids
        assert output.response_mask == chain.response_mask
        assert output.response_logprobs == chain.response_logprobs
        assert output.num_turns == chain.num_turns
        assert output.reward_score == 1.0
        assert output.extra_fields["rollout_id"] == request.rollout_id
        assert output.extra_fields["chain_index"] == chain.chain_index
        assert (output.extra_fields["min_global_steps"], output.extra_fields["max_global_steps"]) == (7, 7)
        assert output.extra_fields["reward_extra_info"]["passed"] == 1.0
    # veRL's own conversion of an output (what its v1 worker stores per chain).
    fields = outputs[0].as_dict()
    assert fields["prompts"].tolist() == [1, 2, 3]
    assert fields["responses"].tolist() == [4, 5, 6, 7, 8]
    assert fields["rollout_log_probs"].tolist() == pytest.approx([-0.5, -0.25, 0.0, 0.0, -1.0])
    assert fields["rm_scores"].tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_agent_loop_wants_its_config_and_task(recipe: VerlRecipe, tokenizer: Any) -> None:
    config = build_verl_config(recipe)
    loop = _loop(config, tokenizer, rollout_fn=fake_rollout)
    with pytest.raises(ValueError, match="task_dir"):
        loop.request(extra_info={"index": 0})
    bare = OmegaConf.create(OmegaConf.to_container(config))
    del bare["openforge"]
    with pytest.raises(ValueError, match="no `openforge` section"):
        OpenForgeAgentLoop(
            trainer_config=DictConfigWrap(bare),
            server_manager=FakeServerManager([]),
            tokenizer=tokenizer,
            processor=None,
            dataset_cls=RLHFDataset,
            data_config=DictConfigWrap(bare.data),
        )


def test_failed_and_callless_rollouts() -> None:
    infra = RolloutOutcome(rollout_id="r", status="infra-error", error="sandbox did not start")
    assert outputs_from_outcome(infra, infra="drop", global_steps=(1, 1), placeholder_id=0) == []
    [zero] = outputs_from_outcome(infra, infra="zero", global_steps=(1, 1), placeholder_id=2)
    [silent] = outputs_from_outcome(
        RolloutOutcome(rollout_id="r", status="scored", reward=0.0),
        infra="drop",
        global_steps=(1, 2),
        placeholder_id=2,
    )
    for placeholder in (zero, silent):
        assert placeholder.reward_score == 0.0
        assert placeholder.response_mask == [0]  # nothing trained, but the reward counts in its group
        assert placeholder.extra_fields["placeholder"] is True
    assert zero.extra_fields["reward_extra_info"]["infra_error"] == 1.0
    broken = RolloutOutcome(rollout_id="r", status="verifier-error", chains=CHAINS[:1])
    [out] = outputs_from_outcome(broken, infra="drop", global_steps=(1, 1), placeholder_id=0)
    assert out.reward_score == 0.0 and out.extra_fields["reward_extra_info"]["verifier_error"] == 1.0


def test_a_groups_outputs_get_our_advantages_through_verls_v1_path() -> None:
    """A group's outputs stored as veRL's v1 worker stores them (`as_dict`, nested TensorDict keyed
    `{uid}_{session}_{index}`), then its advantage step: every chain gets its rollout's advantage from
    `train.grpo.group_advantages`; a call-less scored rollout counts through its placeholder, a dropped
    infrastructure failure not at all."""
    from verl.trainer.ppo.v1.utils import compute_advantage_for_multi_trajectories
    from verl.utils.tensordict_utils import list_of_dict_to_tensordict

    def chains(n: int, s: int) -> list[Chain]:
        return [
            Chain(
                rollout_id=f"r{s}",
                chain_index=i,
                prompt_ids=[1, 2, 3][: 1 + i],
                response_ids=list(range(5, 7 + i + s)),
                response_mask=[1] * (2 + i + s),
                response_logprobs=[-0.1] * (2 + i + s),
                call_seqs=[i],
                num_turns=2,
            )
            for i in range(n)
        ]

    outcomes = [
        RolloutOutcome(rollout_id="r0", status="scored", reward=1.0, chains=chains(2, 0)),
        RolloutOutcome(rollout_id="r1", status="scored", reward=0.0, chains=chains(1, 1)),
        RolloutOutcome(rollout_id="r2", status="scored", reward=0.5, chains=chains(1, 2)),
        RolloutOutcome(rollout_id="r3", status="scored", reward=0.0, chains=chains(3, 3)),
        RolloutOutcome(rollout_id="r4", status="scored", reward=0.0),  # no model call at all
        RolloutOutcome(rollout_id="r5", status="infra-error", error="sandbox did not start"),
    ]
    keys, fields, owners = [], [], []
    for session, outcome in enumerate(outcomes):
        outputs = outputs_from_outcome(outcome, infra="drop", global_steps=(1, 1), placeholder_id=0)
        for index, output in enumerate(outputs):
            field = output.as_dict()
            field.update({"uid": "u1", "session_id": session, "global_steps": 1})
            field["input_ids"] = torch.cat([field["prompts"], field["responses"]])
            keys.append(f"u1_{session}_{index}")
            fields.append(field)
            owners.append(outcome.rollout_id)
    assert "r5" not in owners
    stored = list_of_dict_to_tensordict(fields)
    # What the v1 trainer's _compute_advantage does with the stored fields.
    data = DataProto(batch=stored.select("uid", "response_mask", "rm_scores").to_padded_tensor())
    data.batch["token_level_scores"] = data.batch["rm_scores"]
    data.batch["token_level_rewards"] = data.batch["rm_scores"]
    data.non_tensor_batch["uid"] = np.array(data.batch.pop("uid").tolist(), dtype=object)
    data = compute_advantage_for_multi_trajectories(data, batch_keys=keys, adv_estimator="grpo", num_repeat=6)
    rewards = [
        RolloutReward(rollout_id=o.rollout_id, group="u1", reward=o.reward)
        for o in outcomes
        if o.reward is not None
    ]
    ours = group_advantages(rewards).values
    for row, owner in enumerate(owners):
        mask = data.batch["response_mask"][row].bool()
        values = data.batch["advantages"][row][mask]
        assert torch.allclose(values, torch.full_like(values, ours[owner]), atol=1e-5), owner
    assert ours["r0"] == pytest.approx(0.7 / (math.sqrt(0.2) + 1e-6), rel=1e-9)  # mean .3, std .447


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "parameters": {
                "type": "object",
                "properties": {"command": {"type": "string"}},
                "required": ["command"],
            },
        },
    }
]


def _client_rollout(request: RolloutRequest, engine: Engine) -> RolloutOutcome:
    """A RolloutFn with the real proxy on veRL's engine and a scripted client in place of the sandboxed
    harness: two calls (a tool call, then the answer)."""
    run_dir = Path(request.settings.run_dir) / "proxies" / request.rollout_id
    with ProxySession(engine, run_dir) as proxy:
        transport = httpx.HTTPTransport(uds=str(proxy.socket))
        with httpx.Client(transport=transport) as http:
            client = openai.OpenAI(
                base_url=f"http://proxy/rollouts/{request.rollout_id}/v1",
                api_key="x",
                http_client=http,
                max_retries=0,
            )
            messages: list[Any] = [{"role": "user", "content": "List the files."}]
            for _ in range(2):
                answer = (
                    client.chat.completions.create(
                        model="forge-policy", messages=messages, tools=TOOLS, temperature=0.1
                    )
                    .choices[0]
                    .message
                )
                messages.append(answer.model_dump(exclude_none=True))
                for call in answer.tool_calls or []:
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": "a.txt b.txt"})
        assert messages[-1]["content"] == "Two files."
        assert proxy.store is not None
        return outcome_from_store(proxy.store, request.rollout_id, status="scored", reward=0.5)


def test_rollout_through_proxy_on_verls_server(recipe: VerlRecipe, catalog: Path, tokenizer: Any) -> None:
    """The bridge: the harness's calls go through the recording proxy and our token path to veRL's
    server manager (on veRL's event loop), and come back as veRL outputs, token for token."""
    turns = [
        '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call><|im_end|>',
        "Two files.<|im_end|>",
    ]
    completions = [tokenizer.encode(t, add_special_tokens=False) for t in turns]
    server = FakeServerManager(completions, step=4)
    loop = _loop(build_verl_config(recipe), tokenizer, server=server, rollout_fn=_client_rollout)

    async def run() -> tuple[list[AgentLoopOutput], asyncio.AbstractEventLoop]:
        outputs = await loop.run(
            {"temperature": 0.7, "top_p": 0.9, "top_k": -1, "logprobs": True}, **_row(catalog / "task-1")
        )
        return outputs, asyncio.get_running_loop()

    outputs, verl_loop = asyncio.run(run())
    assert len(server.calls) == 2 and all(seen is verl_loop for seen in server.loops)
    rollout_id = server.calls[0]["request_id"]
    assert rollout_id.startswith("task-1--") and server.calls[1]["request_id"] == rollout_id  # sticky session
    sampling = server.calls[0]["sampling"]
    assert (sampling["temperature"], sampling["top_p"], sampling["top_k"]) == (
        0.7,
        0.9,
        -1,
    )  # veRL's, not the client's
    assert sampling["logprobs"] is True and sampling["max_tokens"] <= recipe.max_tokens
    assert tokenizer.convert_tokens_to_ids("<|im_end|>") in sampling["stop_token_ids"]
    [output] = outputs
    first, second = server.calls
    assert (
        second["prompt_ids"][: len(first["prompt_ids"]) + len(completions[0])]
        == first["prompt_ids"] + completions[0]
    )
    assert output.prompt_ids == first["prompt_ids"]
    assert output.prompt_ids + output.response_ids == second["prompt_ids"] + completions[1]
    assert sum(output.response_mask) == len(completions[0]) + len(completions[1])
    sampled = [lp for lp, m in zip(output.response_logprobs or [], output.response_mask, strict=True) if m]
    assert sampled == [-0.25] * sum(output.response_mask)
    assert output.num_turns == 4  # prompt, call, tool result, call
    assert output.reward_score == 0.5
    assert (output.extra_fields["min_global_steps"], output.extra_fields["max_global_steps"]) == (4, 4)
    assert output.metrics.generate_sequences > 0


# --- the trainer config -------------------------------------------------------------------------------------


def test_recipe_config_builds_from_verls_yaml_and_validates(recipe: VerlRecipe, catalog: Path) -> None:
    config = build_verl_config(recipe)
    section = validate_verl_config(config)
    a, rollout = config.actor_rollout_ref, config.actor_rollout_ref.rollout
    assert config.algorithm.adv_estimator == "grpo"
    assert rollout.n == 8 and config.data.train_batch_size == 8
    assert a.model.path == "Qwen/Qwen3-30B-A3B"
    assert (config.trainer.n_gpus_per_node, config.trainer.nnodes) == (8, 1)
    assert rollout.name == "vllm" and rollout.mode == "async" and rollout.multi_turn.enable
    assert rollout.agent.default_agent_loop == AGENT_LOOP_NAME
    assert a.model.external_lib == "train.verl.agent_loop"
    assert (a.actor.clip_ratio_low, a.actor.clip_ratio_high, a.actor.use_kl_loss) == (0.2, 0.28, False)
    assert a.actor.loss_agg_mode == "seq-mean-token-mean"
    assert config.data.train_files == str(recipe.dataset_path)
    assert config.trainer.use_v1 is True
    assert section.catalog == str(catalog.resolve()) and section.harness == "forge-react"
    assert config.openforge.run_dir == str(recipe.run_dir.resolve())
    # Everything else comes from veRL's own defaults, e.g. its GRPO std normalisation and the ref model.
    assert config.algorithm.norm_adv_by_std_in_grpo is True and "ref" in a
    # veRL's config dataclasses take it.
    actor = omega_conf_to_dataclass(a.actor)
    assert type(actor).__name__ == "FSDPActorConfig" and actor.ppo_mini_batch_size == 8
    rollout_dc = omega_conf_to_dataclass(rollout)
    assert type(rollout_dc).__name__ == "RolloutConfig" and rollout_dc.n == 8
    assert rollout_dc.agent.default_agent_loop == AGENT_LOOP_NAME
    # Raw veRL overrides win over the recipe.
    tuned = build_verl_config(
        recipe, ["actor_rollout_ref.rollout.gpu_memory_utilization=0.8", "openforge.max_turns=30"]
    )
    assert tuned.actor_rollout_ref.rollout.gpu_memory_utilization == 0.8
    assert validate_verl_config(tuned).max_turns == 30


def test_saved_config_loads_as_verls_main_would(recipe: VerlRecipe) -> None:
    """`python -m verl.trainer.main_ppo --config-path DIR --config-name openforge_grpo` composes the file."""
    from hydra import compose, initialize_config_dir

    note = hydra_value("it's here")
    config = build_verl_config(recipe, [f"+openforge.note={note}"])
    assert config.openforge.note == "it's here"
    path = save_verl_config(config, recipe.run_dir)
    with initialize_config_dir(config_dir=str(path.parent), version_base=None):
        loaded = compose(config_name=path.stem)
    assert OmegaConf.to_container(loaded) == OmegaConf.to_container(config)
    validate_verl_config(loaded)
    assert verl_config_dir().joinpath("ppo_trainer.yaml").is_file()


def test_awkward_paths_survive_hydra_quoting(catalog: Path, tmp_path: Path) -> None:
    odd = tmp_path / "it's a run, [1]"
    config = build_verl_config(VerlRecipe(catalog=catalog, run_dir=odd))
    assert config.openforge.run_dir == str(odd.resolve())
    assert config.data.train_files == str(odd.resolve() / "tasks.parquet")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"group_size": 1}, "GRPO compares the rollouts of one task, so it needs at least 2"),
        ({"harness": "no-such-harness"}, "unknown harness 'no-such-harness'"),
        ({"parser": "llama"}, "unknown completion parser"),
        ({"rollout_tensor_parallel": 3}, "does not divide the 8 GPUs"),
        ({"tasks_per_step": 3, "group_size": 3}, "9 rollouts per step do not split evenly over 8 GPUs"),
        ({"rollout_engine": "hf"}, "Input should be 'vllm' or 'sglang'"),
        ({"rollout_fn": "no_colon"}, "is not 'module:function'"),
    ],
)
def test_bad_recipe_values_are_refused(recipe: VerlRecipe, fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        VerlRecipe(**{**recipe.model_dump(), **fields})


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("actor_rollout_ref.rollout.n=1", "group of at least 2"),
        ("algorithm.adv_estimator=gae", "the recipe is GRPO"),
        ("openforge.harness=no-such-harness", "openforge.harness: Value error, unknown harness"),
        (
            "actor_rollout_ref.rollout.agent.default_agent_loop=tool_agent",
            "rollouts would not go through OpenForge",
        ),
        ("actor_rollout_ref.model.external_lib=null", "must import train.verl.agent_loop"),
        ("trainer.use_v1=false", "only veRL's v1 trainer"),
        ("actor_rollout_ref.actor.use_dynamic_bsz=false", "veRL's own config check failed"),
        ("actor_rollout_ref.rollout.no_such_key=1", "veRL rejected the ppo_trainer config overrides"),
    ],
)
def test_bad_verl_overrides_are_refused(recipe: VerlRecipe, override: str, message: str) -> None:
    with pytest.raises(VerlConfigError, match=message):
        validate_verl_config(build_verl_config(recipe, [override]))


# --- entry point and trainer -----------------------------------------------------------------------------


def test_prepare_writes_dataset_and_config(catalog: Path, tmp_path: Path) -> None:
    path, config = prepare(catalog, tmp_path / "run", group_size=4)
    assert path == (tmp_path / "run" / "openforge_grpo.yaml").resolve() and path.is_file()
    assert (tmp_path / "run" / "tasks.parquet").is_file()
    assert config.actor_rollout_ref.rollout.n == 4
    with pytest.raises(ValueError, match="every step takes 8"):
        prepare(catalog, tmp_path / "run2", tasks=["task-0", "task-1"])
    with pytest.raises(RuntimeError, match="8 GPUs per node and this machine has 0"):
        launch(config)


def test_cli(catalog: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["prepare", "--catalog", str(catalog), "--run-dir", str(tmp_path / "r")])
    assert ok.exit_code == 0, ok.output
    assert "python -m verl.trainer.main_ppo --config-path" in ok.output
    bad = runner.invoke(
        app, ["prepare", "--catalog", str(catalog), "--run-dir", str(tmp_path / "r"), "--group-size", "1"]
    )
    assert bad.exit_code == 2 and "at least 2" in bad.output
    unknown = runner.invoke(
        app, ["prepare", "-c", str(catalog), "--run-dir", str(tmp_path / "r"), "--harness", "nope"]
    )
    assert unknown.exit_code == 2 and "unknown harness" in unknown.output
    no_gpu = runner.invoke(app, ["launch", "-c", str(catalog), "--run-dir", str(tmp_path / "r")])
    assert no_gpu.exit_code == 1 and "this machine has 0" in no_gpu.output


def test_verl_trainer_says_how_to_run_verl(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(VerlUnavailable) as caught:
        create_trainer("verl")
    assert LAUNCH_COMMAND in str(caught.value) and "has 0" in str(caught.value)
    monkeypatch.setattr("train.verl_trainer.gpu_count", lambda: 8)
    trainer = create_trainer("verl", model_dir="Qwen/Qwen3-30B-A3B")
    assert isinstance(trainer, VerlTrainer)
    samples, rewards, _ = _hand_batch()
    with pytest.raises(NotImplementedError, match=re.escape(LAUNCH_COMMAND)):
        trainer.grpo_step(samples)
    with pytest.raises(NotImplementedError, match=re.escape(SFT_LAUNCH_COMMAND)):
        trainer.sft_step(samples)
    with pytest.raises(NotImplementedError, match=r"trainer\.default_local_dir"):
        trainer.export_weights(Path("w"))
    assert len(trainer.to_batch(samples, rewards)) == len(samples)
    monkeypatch.setattr(
        "train.verl_trainer.verl_unavailable_reason", lambda: "veRL's packages are not installed"
    )
    with pytest.raises(VerlUnavailable, match=r"not installed.*" + re.escape(LAUNCH_COMMAND)):
        VerlTrainer()
