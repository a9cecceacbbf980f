"""The call store against a real SQLite file: seq assignment, durability across SIGKILL, rewards, schema."""

from __future__ import annotations

import math
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from proxy.images import ImageRef
from proxy.records import CallRecord, CallStatus, WireApi
from proxy.store import SCHEMA_VERSION, STORE_FILENAME, CallStore, SchemaVersionError, StoreError

REPO = Path(__file__).resolve().parents[2]


def make_call(rollout_id: str, call_id: str, **fields: object) -> CallRecord:
    base: dict[str, object] = {
        "rollout_id": rollout_id,
        "call_id": call_id,
        "wire_api": WireApi.CHAT,
        "request": {"model": "m", "messages": [{"role": "user", "content": "héllo"}]},
        "response": {"choices": [{"message": {"content": "hi"}}]},
        "prompt_ids": [1, 2, 150_000, 2**31 - 1],
        "completion_ids": [7, 0],
        "logprobs": [-0.123456789012345678, -math.inf],
        "finish_reason": "stop",
        "started_at": 1700000000.25,
        "latency_ms": 12.5,
    }
    base.update(fields)
    return CallRecord.model_validate(base)


def test_record_assigns_seq_per_rollout_and_round_trips_every_field(tmp_path: Path) -> None:
    with CallStore.for_run(tmp_path / "run") as store:
        assert store.path == tmp_path / "run" / STORE_FILENAME
        a0 = store.record(make_call("a", "c1", seq=41))
        b0 = store.record(make_call("b", "c2", wire_api=WireApi.MESSAGES, stream=True))
        a1 = store.record(
            make_call(
                "a",
                "c3",
                status=CallStatus.FAILED,
                http_status=502,
                error="upstream down",
                prompt_ids=None,
                completion_ids=None,
                logprobs=None,
                request="not json {",
                response=None,
                policy_version=3,
                upstream="vllm-1",
                model="qwen",
            )
        )
        assert (a0.seq, b0.seq, a1.seq) == (0, 0, 1)
        assert store.calls("a") == [a0, a1]
        assert store.calls("b") == [b0]
        assert store.calls("nobody") == []
        assert store.rollout_ids() == ["a", "b"]
        stored = store.calls("a")[0]
        assert stored.logprobs is not None
        assert stored.logprobs[0] == -0.123456789012345678
        assert stored.logprobs[1] == -math.inf
        assert stored.prompt_ids == [1, 2, 150_000, 2**31 - 1]
        assert store.calls("a")[1].request == "not json {"


def test_seq_is_atomic_across_threads_and_connections(tmp_path: Path) -> None:
    path = tmp_path / STORE_FILENAME
    stores = [CallStore(path), CallStore(path)]
    returned: list[CallRecord] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(40):
                rec = stores[n % 2].record(make_call(f"r{i % 3}", f"t{n}-{i}"))
                with lock:
                    returned.append(rec)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(returned) == 16 * 40
    for rid in ("r0", "r1", "r2"):
        calls = stores[0].calls(rid)
        assert [c.seq for c in calls] == list(range(len(calls)))
        mine = {r.call_id: r.seq for r in returned if r.rollout_id == rid}
        assert {c.call_id: c.seq for c in calls} == mine
    assert sum(len(stores[1].calls(r)) for r in ("r0", "r1", "r2")) == 640
    for s in stores:
        s.close()


def test_reopen_after_close_keeps_calls_and_continues_seq(tmp_path: Path) -> None:
    path = tmp_path / STORE_FILENAME
    with CallStore(path) as store:
        first = [store.record(make_call("a", f"c{i}")) for i in range(3)]
        store.attach_reward("a", 0.5)
    with CallStore(path) as store:
        assert store.calls("a") == first
        assert store.record(make_call("a", "c3")).seq == 3
        record = store.rollout("a")
        assert record is not None
        assert record.reward == 0.5
        assert [c.call_id for c in record.calls] == ["c0", "c1", "c2", "c3"]


_WRITER = """
import sys
from pathlib import Path
from proxy.records import CallRecord, WireApi
from proxy.store import CallStore

store = CallStore(Path(sys.argv[1]))
prompt = list(range(4096))
i = 0
while True:
    rec = store.record(CallRecord(rollout_id="r" + str(i % 2), call_id="c" + str(i), wire_api=WireApi.CHAT,
                                  prompt_ids=prompt, completion_ids=[i], logprobs=[-1.0]))
    print(rec.call_id, flush=True)
    i += 1
"""


def test_sigkill_mid_stream_loses_no_returned_call(tmp_path: Path) -> None:
    path = tmp_path / STORE_FILENAME
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, str(path)], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    acknowledged: list[str] = []
    try:
        while len(acknowledged) < 300:
            line = proc.stdout.readline()
            if not line:
                break
            acknowledged.append(line.strip())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=30)  # also closes the stdout pipe
    assert proc.returncode == -signal.SIGKILL
    assert len(acknowledged) == 300
    with CallStore(path) as store:
        calls = [c for rid in store.rollout_ids() for c in store.calls(rid)]
        for rid in store.rollout_ids():
            assert [c.seq for c in store.calls(rid)] == list(range(len(store.calls(rid))))
    present = {c.call_id for c in calls}
    assert set(acknowledged) <= present
    assert all(c.prompt_ids == list(range(4096)) for c in calls)


def test_rewards_attach_merge_and_need_no_calls(tmp_path: Path) -> None:
    with CallStore(tmp_path / STORE_FILENAME) as store:
        assert store.rollout("x") is None
        record = store.attach_reward("x", 1, {"task": "t1"})
        assert record.rollout_id == "x"
        assert record.reward == 1.0
        assert record.rewards == {"reward": 1.0}
        assert record.metadata == {"task": "t1"}
        assert record.calls == []
        assert store.rollout_ids() == ["x"]
        record = store.attach_reward("x", {"tests_passed": 3, "style": 0.25}, {"verifier": "v2"})
        assert record.reward == 1.0
        assert record.rewards == {"reward": 1.0, "tests_passed": 3.0, "style": 0.25}
        assert record.metadata == {"task": "t1", "verifier": "v2"}
        record = store.attach_reward("x", {"reward": 0.0})
        assert record.reward == 0.0
        store.record(make_call("x", "late"))
        again = store.rollout("x")
        assert again is not None
        assert [c.seq for c in again.calls] == [0]
        assert again.rewards == {"reward": 0.0, "tests_passed": 3.0, "style": 0.25}
        only_named = store.attach_reward("y", {"pass": 1.0})
        assert only_named.reward is None
        assert only_named.rewards == {"pass": 1.0}
        for bad in (math.nan, math.inf, True):
            with pytest.raises(ValueError, match="finite number"):
                store.attach_reward("x", bad)
        with pytest.raises(ValueError, match="JSON-serializable"):
            store.attach_reward("x", 1.0, {"when": object()})
        final = store.rollout("x")
        assert final is not None
        assert final.rewards == {"reward": 0.0, "tests_passed": 3.0, "style": 0.25}


def test_set_rollout_reward_replaces_rewards_and_merges_metadata(tmp_path: Path) -> None:
    """The verifier's outcome replaces whatever was posted about a rollout's reward before."""
    with CallStore(tmp_path / STORE_FILENAME) as store:
        store.record(make_call("x", "c1"))
        store.attach_reward("x", {"reward": 1.0, "bonus": 5.0}, {"posted_by": "agent"})
        record = store.set_rollout_reward("x", {"reward": 0.25}, {"task": "t1"})
        assert record.reward == 0.25 and record.rewards == {"reward": 0.25}
        assert record.metadata == {"posted_by": "agent", "task": "t1"}
        assert [c.call_id for c in record.calls] == ["c1"]
        store.attach_reward("x", 1.0)
        for cleared in (None, {}):
            record = store.set_rollout_reward("x", cleared)
            assert record.reward is None and record.rewards == {}, cleared
            store.attach_reward("x", 1.0)
        final = store.set_rollout_reward("x", None, {"verifier": "RewardFileMissing"})
        assert final.rewards == {} and final.metadata["verifier"] == "RewardFileMissing"
        reopened = store.rollout("x")
        assert reopened is not None and reopened.rewards == {}
        fresh = store.set_rollout_reward("new", {"reward": 0.0})  # no calls needed
        assert fresh.reward == 0.0 and store.rollout_ids() == ["x", "new"]
        for bad in (math.nan, -math.inf, True):
            with pytest.raises(ValueError, match="finite number"):
                store.set_rollout_reward("x", {"reward": bad})
        with pytest.raises(ValueError, match="JSON-serializable"):
            store.set_rollout_reward("x", {"reward": 1.0}, {"when": object()})
        after = store.rollout("x")
        assert after is not None and after.rewards == {}  # a refused update changes nothing


def test_schema_version_mismatch_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / STORE_FILENAME
    CallStore(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.close()
    with pytest.raises(
        SchemaVersionError, match=f"schema version 99, this OpenForge reads version {SCHEMA_VERSION}"
    ):
        CallStore(path)


def test_a_version_1_store_is_upgraded_in_place_and_keeps_its_calls(tmp_path: Path) -> None:
    path = tmp_path / STORE_FILENAME
    with CallStore(path) as store:
        store.record(CallRecord(rollout_id="old", call_id="c0", wire_api=WireApi.CHAT, prompt_ids=[1, 2]))
    with sqlite3.connect(path) as conn:  # as version 1 wrote it: no images column
        conn.execute("ALTER TABLE calls DROP COLUMN images")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.close()
    image = ImageRef(sha256="ab" * 32, media_type="image/png", width=4, height=3, size=99)
    with CallStore(path) as store:
        (old,) = store.calls("old")
        assert old.prompt_ids == [1, 2] and old.images == []
        store.record(CallRecord(rollout_id="new", call_id="c1", wire_api=WireApi.CHAT, images=[image]))
        assert store.calls("new")[0].images == [image]
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "2"
    conn.close()


def test_foreign_files_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    with pytest.raises(StoreError, match="not an OpenForge call store"):
        CallStore(other)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"definitely not sqlite" * 100)
    with pytest.raises(StoreError, match="cannot open as a call store"):
        CallStore(junk)
