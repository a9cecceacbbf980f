"""Training samples built from the proxy's records (a real CallStore): one sample per chain, with the
tokens between calls masked out, its rollout's advantage, and nothing from rollouts that have no
advantage, no served call or no token ids."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from proxy.records import CallRecord, CallStatus, WireApi
from proxy.store import CallStore
from proxy.trajectory import build_chains
from train.rollout import RolloutResult
from train.samples import samples_from_results, samples_from_store


def _call(
    rollout_id: str, prompt: list[int] | None, completion: list[int] | None, **fields: object
) -> CallRecord:
    logprobs = [-0.1 * (i + 1) for i in range(len(completion))] if completion is not None else None
    values: dict[str, object] = {
        "rollout_id": rollout_id,
        "call_id": f"{rollout_id}-{len(prompt or [])}-{fields.get('status', 'ok')}",
        "wire_api": WireApi.CHAT,
        "prompt_ids": prompt,
        "completion_ids": completion,
        "logprobs": logprobs,
    }
    return CallRecord.model_validate(values | fields)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CallStore]:
    store = CallStore.for_run(tmp_path)
    # r1: two turns of one conversation, a tool result (6, 7) between them
    store.record(_call("r1", [1, 2, 3], [4, 5]))
    store.record(_call("r1", [1, 2, 3, 4, 5, 6, 7], [8]))
    # r2: a failed call, then one that was served
    store.record(_call("r2", [1, 9], None, status=CallStatus.FAILED, http_status=502, error="upstream down"))
    store.record(_call("r2", [1, 9], [10, 11]))
    # r3: a pass-through upstream (no token ids); r4: two separate conversations
    store.record(_call("r3", None, None))
    store.record(_call("r4", [1, 2], [3]))
    store.record(_call("r4", [7, 7, 7], [8, 8]))
    yield store
    store.close()


def test_each_chain_becomes_one_sample_with_its_rollouts_advantage(store: CallStore) -> None:
    samples = samples_from_store(store, {"r1": 0.5, "r2": -0.5, "r3": 1.0, "r4": 0.25, "never-ran": 2.0})
    by_rollout: dict[str, list[tuple[list[int], list[int], list[int], float]]] = {}
    for s in samples:
        by_rollout.setdefault(s.rollout_id, []).append(
            (s.prompt_ids, s.response_ids, s.response_mask, s.advantage)
        )
    assert by_rollout == {
        "r1": [([1, 2, 3], [4, 5, 6, 7, 8], [1, 1, 0, 0, 1], 0.5)],
        "r2": [([1, 9], [10, 11], [1, 1], -0.5)],
        "r4": [([1, 2], [3], [1], 0.25), ([7, 7, 7], [8, 8], [1, 1], 0.25)],
    }
    (r1,) = [s for s in samples if s.rollout_id == "r1"]
    assert r1.logprobs == pytest.approx([-0.1, -0.2, 0.0, 0.0, -0.1])  # 0.0 where the mask is 0


def test_a_rollout_without_an_advantage_gives_no_sample(store: CallStore) -> None:
    assert samples_from_store(store, {}) == []
    assert {s.rollout_id for s in samples_from_store(store, {"r2": 1.0})} == {"r2"}


def _result(rollout_id: str, *, with_chains: CallStore | None = None) -> RolloutResult:
    result = RolloutResult(
        rollout_id=rollout_id,
        task="t",
        harness="h",
        harness_version="1",
        model="m",
        status="scored",
        reward=1.0,
        logs_dir=Path("/tmp"),
    )
    if with_chains is not None:
        result.trajectory = build_chains(with_chains.calls(rollout_id), rollout_id)
    return result


def test_results_give_their_own_chains_and_a_result_read_back_has_them_rebuilt(
    store: CallStore, tmp_path: Path
) -> None:
    elsewhere = CallStore.for_run(tmp_path / "other")  # the chains a result carries are used as they are
    elsewhere.record(_call("r1", [5], [6, 7]))
    results = [_result("r4"), _result("r1", with_chains=elsewhere), _result("r2"), _result("r3")]
    samples = samples_from_results(results, {"r1": 1.0, "r4": -1.0, "r3": 0.5}, store)
    assert [(s.rollout_id, s.prompt_ids, s.advantage) for s in samples] == [
        ("r4", [1, 2], -1.0),
        ("r4", [7, 7, 7], -1.0),
        ("r1", [5], 1.0),
    ]
    elsewhere.close()
