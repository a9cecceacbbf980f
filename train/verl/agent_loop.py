"""veRL's agent loop for OpenForge: one veRL sample is one OpenForge rollout of one task.

veRL (v1 trainer) asks the loop registered as `openforge_proxy` for each (task, session) of a step. The
loop runs the rollout the way the forge loop does, through a recording proxy whose engine samples on
veRL's own inference servers: `VerlServerBackend` turns each model call the proxy renders into a call of
veRL's `server_manager.generate` (token ids in, token ids and log-probs out, on veRL's event loop), so
the policy being trained answers and every call is recorded token-exactly. The rollout's chains become
veRL `AgentLoopOutput`s (prompt ids, response ids, response mask, sampling log-probs, turns), with the
hidden tests' reward on each; veRL's v1 trainer takes the list, computes GRPO on each rollout's final
chain and gives every chain its rollout's advantage, as `train.grpo` does.

What runs a rollout is a `RolloutFn` (`openforge.rollout_fn` in the config, or passed to the loop):
`proxy_rollout` is the real one (task image, harness bundle, sandbox, hidden tests: Docker on the node);
tests pass a fake. Infrastructure failures are dropped whole (`openforge.infra=drop`: no output for that
session) or scored 0; a scored rollout that made no model call still counts in its group's statistics
through one fully masked placeholder output.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field
from verl.experimental.agent_loop.agent_loop import (
    AgentLoopBase,
    AgentLoopMetrics,
    AgentLoopOutput,
    register,
)

from envs.plugins import load_plugin
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.conversation import GenerationRequest
from proxy.engines.base import Engine
from proxy.engines.tokens import TokenBackend, TokenCompletion, TokenEngine, TokenSampling
from proxy.errors import UpstreamError
from proxy.store import CallStore
from proxy.trajectory import Chain, build_chains
from train.pass_at_k import passed
from train.rollout import RolloutStatus
from train.rollout_key import RolloutKey
from train.verl.config import AGENT_LOOP_NAME, OpenForgeSection


class RolloutRequest(BaseModel):
    """One rollout veRL asks for."""

    rollout_id: str
    task: str
    task_dir: str
    group: str
    """veRL's `uid`: the task's GRPO group in this step."""
    sample: int
    """veRL's `session_id`: which of the group's rollouts this is."""
    global_step: int
    settings: OpenForgeSection


class RolloutOutcome(BaseModel):
    """What a rollout gave: its status, reward and token-exact chains."""

    rollout_id: str
    status: RolloutStatus
    reward: float | None = None
    chains: list[Chain] = Field(default_factory=list)
    calls: int = 0
    error: str | None = None


RolloutFn = Callable[[RolloutRequest, Engine], RolloutOutcome]
"""Runs one rollout with `Engine` (veRL's servers behind our token path) as the model; called in a
worker thread, so it may block."""

ROLLOUT_THREADS = 64
"""Rollouts one veRL agent-loop worker runs at once (each blocks a thread for minutes): their own pool,
so they never starve the default executor veRL's own loop code uses."""
_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _rollout_executor() -> ThreadPoolExecutor:
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=ROLLOUT_THREADS, thread_name_prefix="openforge-rollout"
            )
        return _executor


def load_callable(target: str) -> Callable[..., Any]:
    """`module:function` -> the function (envs.plugins.PluginError when it does not resolve)."""
    function = load_plugin(target, {}, "rollout_fn")
    if not callable(function):
        raise TypeError(f"{target} is not a callable")
    return function


class VerlServerBackend(TokenBackend):
    """The proxy's token backend on veRL's inference servers (`AgentLoopBase.server_manager`).

    Calls come from the proxy's own thread; each is run on veRL's event loop (`loop`), where the
    server manager's Ray handles live. Temperature, top-p and top-k are veRL's rollout settings whatever
    the harness asked, so the recorded log-probs are the policy's own. The policy version (veRL's
    `global_steps` on each output) is kept per rollout for veRL's staleness checks."""

    name = "verl"

    def __init__(
        self,
        server_manager: Any,
        loop: asyncio.AbstractEventLoop,
        *,
        sampling_params: Mapping[str, Any],
        context_window: int | None = None,
        priority: int = 0,
    ) -> None:
        self.server_manager = server_manager
        self.loop = loop
        self.sampling = {
            k: sampling_params[k] for k in ("temperature", "top_p", "top_k") if k in sampling_params
        }
        self.window = context_window
        self.priority = priority
        self.versions: dict[str, tuple[int, int]] = {}
        self.generate_seconds = 0.0
        self._lock = threading.Lock()

    async def context_window(self) -> int | None:
        return self.window

    async def _on_verl_loop(self, coro: Coroutine[Any, Any, Any]) -> Any:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - always called from a coroutine
            running = None
        if running is self.loop:
            return await coro
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    async def generate(
        self, prompt_ids: list[int], sampling: TokenSampling, request: GenerationRequest
    ) -> TokenCompletion:
        params: dict[str, Any] = {
            **self.sampling,
            "max_tokens": sampling.max_new_tokens,
            "logprobs": True,
        }
        if sampling.stop_token_ids:
            params["stop_token_ids"] = list(sampling.stop_token_ids)
        rollout_id = request.rollout_id or "anonymous"
        extra = {"priority": self.priority} if self.priority else {}
        started = time.monotonic()
        output = await self._on_verl_loop(
            self.server_manager.generate(
                request_id=rollout_id, prompt_ids=list(prompt_ids), sampling_params=params, **extra
            )
        )
        with self._lock:
            self.generate_seconds += time.monotonic() - started
        if output.stop_reason == "aborted":
            raise UpstreamError("veRL aborted the generation (weights are being updated)", status=503)
        ids = [int(i) for i in output.token_ids]
        if output.log_probs is None:
            raise UpstreamError(
                "veRL's server returned no log-probs: set actor_rollout_ref.rollout.calculate_log_probs=true"
            )
        logprobs = [float(x) for x in output.log_probs]
        if len(logprobs) != len(ids):
            raise UpstreamError(f"veRL returned {len(ids)} token ids but {len(logprobs)} log-probs")
        step = output.extra_fields.get("global_steps")
        if step is not None:
            with self._lock:
                low, high = self.versions.get(rollout_id, (int(step), int(step)))
                self.versions[rollout_id] = (min(low, int(step)), max(high, int(step)))
        stopped = bool(ids) and ids[-1] in sampling.stop_token_ids
        finish = "length" if len(ids) >= sampling.max_new_tokens and not stopped else "stop"
        return TokenCompletion(ids=ids, logprobs=logprobs, finish_reason=finish, upstream=self.name)


def outcome_from_store(
    store: CallStore,
    rollout_id: str,
    *,
    status: RolloutStatus,
    reward: float | None,
    error: str | None = None,
) -> RolloutOutcome:
    """A rollout's outcome with its chains built from the proxy's records."""
    calls = store.calls(rollout_id)
    chains = build_chains(calls, rollout_id).chains if calls else []
    return RolloutOutcome(
        rollout_id=rollout_id, status=status, reward=reward, chains=chains, calls=len(calls), error=error
    )


def outputs_from_outcome(
    outcome: RolloutOutcome,
    *,
    infra: Literal["drop", "zero"],
    global_steps: tuple[int, int],
    placeholder_id: int,
    metrics: AgentLoopMetrics | None = None,
) -> list[AgentLoopOutput]:
    """veRL outputs for a rollout: one per chain, the reward on each (an infrastructure failure under
    `infra="drop"` gives none; a rollout that is scored but has no chain gives one fully masked
    placeholder, so its reward still counts in its group)."""
    if outcome.status == "infra-error" and infra == "drop":
        return []
    reward = outcome.reward if outcome.reward is not None else 0.0
    info = {
        "passed": float(passed(reward)),
        "infra_error": float(outcome.status == "infra-error"),
        "verifier_error": float(outcome.status == "verifier-error"),
    }
    low, high = global_steps
    common = {
        "rollout_id": outcome.rollout_id,
        "status": outcome.status,
        "min_global_steps": low,
        "max_global_steps": high,
        "reward_extra_info": info,
    }
    chains: list[Chain | None] = [*outcome.chains] or [None]
    outputs = []
    for chain in chains:
        if chain is None:
            fields: dict[str, Any] = {
                "prompt_ids": [placeholder_id],
                "response_ids": [placeholder_id],
                "response_mask": [0],
                "response_logprobs": [0.0],
                "num_turns": 0,
            }
            extra = {**common, "chain_index": 0, "placeholder": True}
        else:
            fields = {
                "prompt_ids": chain.prompt_ids,
                "response_ids": chain.response_ids,
                "response_mask": chain.response_mask,
                "response_logprobs": chain.response_logprobs,
                "num_turns": chain.num_turns,
            }
            extra = {**common, "chain_index": chain.chain_index, "placeholder": False}
        outputs.append(
            AgentLoopOutput(
                **fields,
                reward_score=reward,
                metrics=(metrics or AgentLoopMetrics()).model_copy(),
                extra_fields=extra,
            )
        )
    return outputs


@register(AGENT_LOOP_NAME)
class OpenForgeAgentLoop(AgentLoopBase):
    """One OpenForge rollout per veRL sample (see the module docstring)."""

    def __init__(self, *args: Any, rollout_fn: RolloutFn | str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from omegaconf import OmegaConf

        if "openforge" not in self.config:
            raise ValueError("the veRL config has no `openforge` section (see train.verl.config)")
        section = OmegaConf.to_container(self.config.openforge, resolve=True)
        self.settings = OpenForgeSection.model_validate(section)
        target = rollout_fn if rollout_fn is not None else self.settings.rollout_fn
        self.rollout_fn: RolloutFn = load_callable(target) if isinstance(target, str) else target

    def _context_window(self) -> int:
        window = self.rollout_config.get("max_model_len")
        return int(window or self.rollout_config.prompt_length + self.rollout_config.response_length)

    def _placeholder_id(self) -> int:
        for candidate in (
            getattr(self.tokenizer, "eos_token_id", None),
            getattr(self.tokenizer, "pad_token_id", None),
        ):
            if isinstance(candidate, int):
                return candidate
        return 0

    def request(self, **kwargs: Any) -> RolloutRequest:
        """The rollout for one veRL sample (its dataset row's `extra_info` names the task)."""
        info = kwargs.get("extra_info") or {}
        if not isinstance(info, Mapping) or "task_dir" not in info:
            raise ValueError("the dataset row has no extra_info.task_dir (write it with train.verl.data)")
        task = str(info.get("task") or Path(str(info["task_dir"])).name)
        session = int(kwargs.get("session_id", 0))
        step = int(kwargs.get("global_steps", 0))
        rollout_id = RolloutKey(
            task=task, harness=self.settings.harness, sample=session, policy_version=step
        ).new_rollout_id()
        return RolloutRequest(
            rollout_id=rollout_id,
            task=task,
            task_dir=str(info["task_dir"]),
            group=str(kwargs.get("uid", task)),
            sample=session,
            global_step=step,
            settings=self.settings,
        )

    # veRL's base class declares one output; its v1 worker (the trainer the recipe uses) takes a list,
    # one output per chain.
    async def run(  # type: ignore[override]
        self, sampling_params: dict[str, Any], **kwargs: Any
    ) -> list[AgentLoopOutput]:
        request = self.request(**kwargs)
        loop = asyncio.get_running_loop()
        backend = VerlServerBackend(
            self.server_manager,
            loop,
            sampling_params=sampling_params,
            context_window=self._context_window(),
            priority=int(kwargs.get("priority", 0) or 0),
        )
        engine = TokenEngine(
            backend,
            self.tokenizer,
            parser=self.settings.parser,
            context_window=self._context_window(),
            default_max_tokens=self.settings.max_tokens,
        )
        started = time.monotonic()
        try:
            outcome = await loop.run_in_executor(_rollout_executor(), self.rollout_fn, request, engine)
        finally:
            await engine.aclose()
        total = time.monotonic() - started
        step = request.global_step
        metrics = AgentLoopMetrics(
            generate_sequences=backend.generate_seconds,
            tool_calls=max(0.0, total - backend.generate_seconds),
        )
        return outputs_from_outcome(
            outcome,
            infra=self.settings.infra,
            global_steps=backend.versions.get(request.rollout_id, (step, step)),
            placeholder_id=self._placeholder_id(),
            metrics=metrics,
        )


# --- the real rollout: sandbox, harness, hidden tests -------------------------------------------------

_prepared_lock = threading.Lock()
_images: dict[str, str] = {}
_bundles: dict[str, Any] = {}


def proxy_rollout(request: RolloutRequest, engine: Engine) -> RolloutOutcome:
    """Run the task's harness in its sandbox against a recording proxy on `engine`, score it with the
    hidden tests, and return its chains (the `RolloutFn` the recipe uses; needs Docker on the node)."""
    from envs.docker_client import docker_client
    from envs.errors import EnvsError
    from envs.image_builder import build_image
    from envs.task import load_task
    from harnesses.bundle import build_bundle
    from harnesses.errors import InstallError
    from harnesses.registry import get_harness
    from proxy.session import ProxySession
    from train.rollout import run_rollout

    settings = request.settings
    step_dir = Path(settings.run_dir) / "steps" / f"{request.global_step:05d}"
    try:
        task = load_task(request.task_dir)
        harness = get_harness(settings.harness)
        with _prepared_lock:
            if request.task_dir not in _images:
                built = build_image(docker_client(), task)
                if built.tag is None:
                    raise EnvsError(f"task {task.name}: no image ({built.error})")
                _images[request.task_dir] = built.tag
            if harness.name not in _bundles:
                _bundles[harness.name] = build_bundle(harness)
        image, bundle = _images[request.task_dir], _bundles[harness.name]
    except (EnvsError, InstallError) as exc:
        return RolloutOutcome(rollout_id=request.rollout_id, status="infra-error", error=str(exc))
    config = ProxyConfig(accept_any_model=True, overrides=SamplingOverrides(max_tokens=settings.max_tokens))
    with ProxySession(engine, step_dir / "proxies" / request.rollout_id, config) as proxy:
        result = run_rollout(
            task,
            image,
            harness,
            bundle,
            proxy,
            model=settings.model_name,
            logs_root=step_dir / "rollouts",
            rollout_id=request.rollout_id,
            sample=request.sample,
            run=Path(settings.run_dir).name,
            timeout=settings.agent_timeout,
            max_turns=settings.max_turns,
            backend=settings.sandbox_backend,
        )
    return RolloutOutcome(
        rollout_id=request.rollout_id,
        status=result.status,
        reward=result.reward,
        chains=result.trajectory.chains if result.trajectory is not None else [],
        calls=result.calls,
        error=result.error,
    )
