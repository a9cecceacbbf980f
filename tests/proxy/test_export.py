"""Exporting chains to JSONL and parquet and reading them back exactly."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from proxy.export import ChainRow, ExportResult, export_jsonl, export_parquet, load_chains
from proxy.records import CallRecord, WireApi
from proxy.store import CallStore
from proxy.trajectory import Chain, Trajectory, build_chains, build_trajectories

Exporter = Callable[..., ExportResult]
EXPORTERS: list[tuple[Exporter, str]] = [(export_jsonl, "chains.jsonl"), (export_parquet, "chains.parquet")]


def chain(rollout_id: str, index: int, logprobs: list[float] | None = None, **fields: object) -> Chain:
    base: dict[str, object] = {
        "rollout_id": rollout_id,
        "chain_index": index,
        "prompt_ids": [1, 2, 150_000],
        "response_ids": [10, 20, 2**31 - 1],
        "response_mask": [1, 0, 1],
        "response_logprobs": [-0.1234567890123456789, 0.0, -1e-300] if logprobs is None else logprobs,
        "call_seqs": [0, 3],
        "num_turns": 4,
    }
    base.update(fields)
    return Chain.model_validate(base)


def trajectories() -> list[Trajectory]:
    return [
        Trajectory(rollout_id="a", chains=[chain("a", 0), chain("a", 1, prompt_ids=[7], num_turns=2)]),
        Trajectory(rollout_id="b", chains=[chain("b", 0, response_logprobs=None)]),
        Trajectory(rollout_id="c", chains=[chain("c", 0, logprobs=[-math.inf, 0.0, -2.5])]),
        Trajectory(rollout_id="empty"),
    ]


@pytest.mark.parametrize(("export", "name"), EXPORTERS)
def test_round_trip_is_exact_and_reward_is_broadcast(export: Exporter, name: str, tmp_path: Path) -> None:
    rewards = {"a": 0.75, "b": None}
    result = export(trajectories(), rewards, tmp_path / "out" / name)
    assert (result.rows, result.skipped_rollouts) == (4, [])
    assert result.path == tmp_path / "out" / name
    rows = load_chains(result.path)
    expected = [
        ChainRow(**dict(c), reward=rewards.get(t.rollout_id)) for t in trajectories() for c in t.chains
    ]
    assert [r.model_dump() for r in rows] == [e.model_dump() for e in expected]
    assert [r.reward for r in rows] == [0.75, 0.75, None, None]
    assert rows[0].response_logprobs is not None
    assert rows[0].response_logprobs[0] == -0.1234567890123456789
    assert rows[0].response_logprobs[2] == -1e-300
    assert rows[2].response_logprobs is None
    assert rows[3].response_logprobs is not None
    assert rows[3].response_logprobs[0] == -math.inf
    assert [p.name for p in result.path.parent.iterdir()] == [name]


@pytest.mark.parametrize(("export", "name"), EXPORTERS)
def test_require_reward_skips_unrewarded_rollouts(export: Exporter, name: str, tmp_path: Path) -> None:
    result = export(trajectories(), {"a": 1.0, "b": None}, tmp_path / name, require_reward=True)
    assert result.rows == 2
    assert result.skipped_rollouts == ["b", "c", "empty"]
    assert [(r.rollout_id, r.chain_index, r.reward) for r in load_chains(tmp_path / name)] == [
        ("a", 0, 1.0),
        ("a", 1, 1.0),
    ]


def test_jsonl_rows_have_the_verl_fields(tmp_path: Path) -> None:
    export_jsonl(trajectories()[:1], {"a": 1.0}, tmp_path / "x.jsonl")
    first = json.loads((tmp_path / "x.jsonl").read_text().splitlines()[0])
    assert first == {
        "rollout_id": "a",
        "chain_index": 0,
        "prompt_ids": [1, 2, 150_000],
        "response_ids": [10, 20, 2**31 - 1],
        "response_mask": [1, 0, 1],
        "response_logprobs": [-0.1234567890123456789, 0.0, -1e-300],
        "call_seqs": [0, 3],
        "num_turns": 4,
        "reward": 1.0,
        "images": [],
    }


def test_parquet_columns_are_compact_types(tmp_path: Path) -> None:
    export_parquet(trajectories(), {}, tmp_path / "x.parquet")
    schema = pq.read_schema(tmp_path / "x.parquet")
    types = {}
    for name in schema.names:
        kind = schema.field(name).type
        types[name] = f"list<{kind.value_type}>" if isinstance(kind, pa.ListType) else str(kind)
    assert types == {
        "rollout_id": "string",
        "chain_index": "int32",
        "prompt_ids": "list<int32>",
        "response_ids": "list<int32>",
        "response_mask": "list<int8>",
        "response_logprobs": "list<double>",
        "call_seqs": "list<int32>",
        "num_turns": "int32",
        "reward": "double",
        "images": "list<struct<bytes: binary, path: string>>",
        "image_refs": "list<struct<sha256: string, media_type: string, width: int32, height: int32, "
        "size: int64>>",
    }


@pytest.mark.parametrize(("export", "name"), EXPORTERS)
def test_empty_export_writes_an_empty_file(export: Exporter, name: str, tmp_path: Path) -> None:
    assert export([], {}, tmp_path / name).rows == 0
    assert load_chains(tmp_path / name) == []


def test_bad_inputs_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a finite number"):
        export_jsonl(trajectories(), {"a": math.nan}, tmp_path / "x.jsonl")
    with pytest.raises(ValueError, match="unknown export format"):
        load_chains(tmp_path / "x.csv")


def test_store_to_parquet_end_to_end(tmp_path: Path) -> None:
    def rec(rollout_id: str, prompt: list[int], completion: list[int]) -> CallRecord:
        return CallRecord(
            rollout_id=rollout_id,
            call_id="c",
            wire_api=WireApi.RESPONSES,
            prompt_ids=prompt,
            completion_ids=completion,
            logprobs=[-0.5] * len(completion),
        )

    with CallStore.for_run(tmp_path / "run") as store:
        store.record(rec("r1", [1, 2], [3]))
        store.record(rec("r1", [1, 2, 3, 4], [5, 6]))
        store.record(rec("r1", [1, 9], [7]))  # a side conversation
        store.record(rec("r2", [1], [2]))
        store.attach_reward("r1", {"reward": 1.0, "tests": 3.0})
        built = build_trajectories(store)
        rewards = {rid: record.reward for rid in store.rollout_ids() if (record := store.rollout(rid))}
    assert built[0] == build_chains(CallStore.for_run(tmp_path / "run").calls("r1"))
    result = export_parquet(built, rewards, tmp_path / "train.parquet")
    rows = load_chains(result.path)
    assert [(r.rollout_id, r.chain_index, r.reward) for r in rows] == [
        ("r1", 0, 1.0),
        ("r1", 1, 1.0),
        ("r2", 0, None),
    ]
    assert rows[0].response_ids == [3, 4, 5, 6]
    assert rows[0].response_mask == [1, 0, 1, 1]
    assert rows[0].response_logprobs == [-0.5, 0.0, -0.5, -0.5]
