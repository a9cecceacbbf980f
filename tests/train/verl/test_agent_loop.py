"""`train.verl.agent_loop` on CPU: the loop veRL instantiates from its registry, with a fake rollout and
with the real bridge (proxy + our token path + a stand-in for veRL's server manager returning veRL's
TokenOutput), giving veRL's AgentLoopOutput; failed and call-less rollouts; a group's outputs through
veRL's v1 advantage step. Not here: anything needing GPUs, Ray workers, vLLM or Docker."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import openai
import pytest
import torch
from omegaconf import OmegaConf
from verl import DataProto
from verl.experimental.agent_loop.agent_loop import (
    AgentLoopOutput,
    DictConfigWrap,
    ToolListWrap,
    _agent_loop_registry,
)
from verl.utils.dataset.rl_dataset import RLHFDataset
from verl.workers.rollout.replica import TokenOutput

from proxy.engines.base import Engine
from proxy.session import ProxySession
from proxy.trajectory import Chain
from train.grpo import RolloutReward, group_advantages
from train.verl.agent_loop import (
    OpenForgeAgentLoop,
    RolloutOutcome,
    RolloutRequest,
    outcome_from_store,
    outputs_from_outcome,
)
from train.verl.config import AGENT_LOOP_NAME, VerlRecipe, build_verl_config

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
    """A RolloutFn that returns known chains (named in the config as
    tests.train.verl.test_agent_loop:fake_rollout)."""
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
    recipe = recipe.model_copy(update={"rollout_fn": "tests.train.verl.test_agent_loop:fake_rollout"})
    config = build_verl_config(recipe)
    assert _agent_loop_registry[AGENT_LOOP_NAME] == {"_target_": "train.verl.agent_loop.OpenForgeAgentLoop"}
    loop = _loop(config, tokenizer)
    assert isinstance(loop, OpenForgeAgentLoop)
    SEEN.clear()
    outputs = asyncio.run(
        loop.run({"temperature": 1.0, "top_p": 1.0, "logprobs": True}, **_row(catalog / "task-2"))
    )
    [request] = SEEN
    assert request.rollout_id.startswith("task-2--forge-react-v7-5-")
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
