"""Weight sync: after `sync`, the engine behind the proxy serves the new weights (its outputs change) and
calls are recorded with the new policy version."""

from __future__ import annotations

from pathlib import Path

import httpx
import torch

from proxy.policy_server import PolicyServer, RunningPolicy
from train.local_trainer import LocalTrainer, LocalTrainerConfig


def _ask(policy: RunningPolicy, rollout: str) -> dict[str, object]:
    transport = httpx.HTTPTransport(uds=str(policy.proxy.socket))
    with httpx.Client(transport=transport, base_url="http://proxy", timeout=120) as client:
        body = {
            "model": "forge-policy",
            "messages": [{"role": "user", "content": "List the files in /app."}],
            "max_tokens": 8,
            "seed": 7,
        }
        response = client.post(f"/rollouts/{rollout}/v1/chat/completions", json=body)
        response.raise_for_status()
        return response.json()  # type: ignore[no-any-return]


def test_sync_serves_new_weights_with_a_new_policy_version(tiny_model_dir: Path, tmp_path: Path) -> None:
    with PolicyServer(tiny_model_dir, tmp_path / "run", max_tokens=8) as policy:
        _ask(policy, "before")
        _ask(policy, "before-again")
        trainer = LocalTrainer(tiny_model_dir, LocalTrainerConfig())
        with torch.no_grad():
            for parameter in trainer.model.parameters():
                parameter.add_(torch.randn_like(parameter) * 0.5)
        policy.sync(trainer.export_weights(tmp_path / "weights-1"), version=1)
        _ask(policy, "after")
        store = policy.proxy.store
        (before,), (again,), (after,) = (store.calls(r) for r in ("before", "before-again", "after"))
    assert before.completion_ids == again.completion_ids and before.logprobs == again.logprobs  # seeded
    assert (before.policy_version, after.policy_version) == (0, 1)
    assert after.logprobs != before.logprobs, "the engine still serves the old weights"
