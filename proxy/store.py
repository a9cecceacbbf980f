"""The call store: every recorded model call of a run, in one SQLite file under the run directory.

Durability: WAL mode, and `record()` commits before it returns, so a call whose `record()` returned
survives a crash or SIGKILL of the proxy (with `synchronous=NORMAL` a power loss may drop the last few
commits; pass `synchronous="FULL"` to survive that too, at some throughput).

Threads: one writer connection and one reader connection, each behind its own lock, so any thread (the
asyncio loop, worker threads) may call any method; readers never wait for a writer (WAL). Every write is
a `BEGIN IMMEDIATE` transaction, which also keeps `seq` assignment atomic across processes sharing the
file. Calls block for a few milliseconds: from async code, run them in a thread (`asyncio.to_thread`).

Token ids are stored as little-endian int32 arrays and log-probs as float64 arrays (BLOBs), not JSON:
for a 4k-token prompt that is 16 KiB instead of 25 KiB and encodes about 4x faster; log-probs are
2.5x smaller and 20x faster than JSON, and both round-trip exactly. Request and response bodies are
JSON text. Images are not in the rows: a call's `images` column names them by content hash, their bytes
are in the blob store beside this file (proxy/blob_store.py), and the recorded request says
`blob:sha256:<hex>` where the image's data was.
"""

from __future__ import annotations

import json
import math
import sqlite3
import sys
import threading
import time
from array import array
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from proxy.images import ImageRef
from proxy.records import CallRecord, CallStatus, RolloutRecord, WireApi

SCHEMA_VERSION = 2
"""2 added `calls.images`; a version-1 store is upgraded in place when opened."""
STORE_FILENAME = "calls.sqlite"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rollouts (
    id INTEGER PRIMARY KEY,
    rollout_id TEXT NOT NULL UNIQUE,
    rewards TEXT NOT NULL DEFAULT '{}',
    metadata TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL
);
CREATE TABLE calls (
    id INTEGER PRIMARY KEY,
    rollout_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    call_id TEXT NOT NULL,
    wire_api TEXT NOT NULL,
    stream INTEGER NOT NULL,
    model TEXT,
    request TEXT,
    response TEXT,
    prompt_ids BLOB,
    completion_ids BLOB,
    logprobs BLOB,
    finish_reason TEXT,
    policy_version INTEGER NOT NULL,
    upstream TEXT,
    status TEXT NOT NULL,
    http_status INTEGER NOT NULL,
    error TEXT,
    started_at REAL NOT NULL,
    latency_ms REAL NOT NULL,
    images TEXT
);
CREATE UNIQUE INDEX calls_rollout_seq ON calls (rollout_id, seq);
CREATE INDEX calls_call_id ON calls (call_id);
"""

_CALL_COLUMNS = (
    "rollout_id, seq, call_id, wire_api, stream, model, request, response, prompt_ids, completion_ids, "
    "logprobs, finish_reason, policy_version, upstream, status, http_status, error, started_at, latency_ms, "
    "images"
)


class StoreError(Exception):
    """The call store cannot be opened or used as asked."""


class SchemaVersionError(StoreError):
    """The file was written by another version of the store."""

    def __init__(self, path: Path, found: str) -> None:
        self.path = path
        self.found = found
        super().__init__(
            f"{path}: call store schema version {found}, this OpenForge reads version {SCHEMA_VERSION}; "
            "use a new run directory (or the OpenForge version that wrote it)"
        )


def _pack(values: list[int] | list[float] | None, typecode: str) -> bytes | None:
    if values is None:
        return None
    packed = array(typecode, values)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def _unpack(blob: bytes | None, typecode: str) -> list[Any] | None:
    if blob is None:
        return None
    values = array(typecode)
    values.frombytes(blob)
    if sys.byteorder == "big":
        values.byteswap()
    return values.tolist()


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _unjson(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _row_to_call(row: tuple[Any, ...]) -> CallRecord:
    return CallRecord(
        rollout_id=row[0],
        seq=row[1],
        call_id=row[2],
        wire_api=WireApi(row[3]),
        stream=bool(row[4]),
        model=row[5],
        request=_unjson(row[6]),
        response=_unjson(row[7]),
        prompt_ids=_unpack(row[8], "i"),
        completion_ids=_unpack(row[9], "i"),
        logprobs=_unpack(row[10], "d"),
        finish_reason=row[11],
        policy_version=row[12],
        upstream=row[13],
        status=CallStatus(row[14]),
        http_status=row[15],
        error=row[16],
        started_at=row[17],
        latency_ms=row[18],
        images=[ImageRef.model_validate(i) for i in json.loads(row[19])] if row[19] else [],
    )


def _finite(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"reward {name!r} must be a finite number, got {value!r}")
    return float(value)


class CallStore:
    """Records calls and rewards of a run; see the module docstring for durability and threading."""

    def __init__(self, path: Path, *, synchronous: Literal["NORMAL", "FULL"] = "NORMAL") -> None:
        if array("i").itemsize != 4:
            raise StoreError("this platform's C int is not 32 bits; token arrays would not be portable")
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._write_lock = threading.Lock()
        self._read_lock = threading.Lock()
        self._writer = self._connect(synchronous)
        try:
            self._init_schema()
            self._reader = self._connect(synchronous)
        except BaseException:
            self._writer.close()
            raise

    @classmethod
    def for_run(cls, run_dir: Path, *, synchronous: Literal["NORMAL", "FULL"] = "NORMAL") -> CallStore:
        """The store of a run directory (`<run_dir>/calls.sqlite`)."""
        return cls(Path(run_dir) / STORE_FILENAME, synchronous=synchronous)

    def _connect(self, synchronous: str) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=60.0, isolation_level=None, check_same_thread=False)
        try:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{self.path}: cannot open as a call store: {exc}") from exc
        if mode.lower() != "wal":
            conn.close()
            raise StoreError(f"{self.path}: SQLite refused WAL mode (got {mode!r}); use a local filesystem")
        conn.execute(f"PRAGMA synchronous={synchronous}")
        return conn

    def _init_schema(self) -> None:
        with self._transaction() as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        conn.execute(statement)
                conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                conn.execute("INSERT INTO meta VALUES ('created_at', ?)", (str(time.time()),))
                return
            if "meta" not in tables:
                raise StoreError(f"{self.path}: an SQLite database, but not an OpenForge call store")
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            found = row[0] if row else "missing"
            if found == "1":  # upgrade: the images column
                conn.execute("ALTER TABLE calls ADD COLUMN images TEXT")
                conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
                found = str(SCHEMA_VERSION)
            if found != str(SCHEMA_VERSION):
                raise SchemaVersionError(self.path, found)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._write_lock:
            conn = self._writer
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: several SELECTs see one consistent state."""
        with self._read_lock:
            conn = self._reader
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                conn.execute("COMMIT")

    def close(self) -> None:
        with self._write_lock, self._read_lock:
            self._writer.close()
            self._reader.close()

    def __enter__(self) -> CallStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record(self, call: CallRecord) -> CallRecord:
        """Store a call, committed; returns it with its `seq` (the next in its rollout; the given one is
        ignored)."""
        return self.record_many([call])[0]

    def record_many(self, calls: Sequence[CallRecord]) -> list[CallRecord]:
        """Store several calls in one transaction (group commit), in order; each gets its `seq`."""
        rows = [
            (
                call,
                _pack(call.prompt_ids, "i"),
                _pack(call.completion_ids, "i"),
                _pack(call.logprobs, "d"),
                _json(call.request),
                _json(call.response),
                json.dumps([i.model_dump() for i in call.images]) if call.images else None,
            )
            for call in calls
        ]
        stored = []
        with self._transaction() as conn:
            for call, prompt, completion, logprobs, request, response, images in rows:
                conn.execute(
                    "INSERT INTO rollouts (rollout_id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (call.rollout_id, time.time()),
                )
                seq = conn.execute(
                    "SELECT COALESCE(MAX(seq) + 1, 0) FROM calls WHERE rollout_id = ?", (call.rollout_id,)
                ).fetchone()[0]
                conn.execute(
                    f"INSERT INTO calls ({_CALL_COLUMNS}) VALUES ({', '.join('?' * 20)})",
                    (
                        call.rollout_id,
                        seq,
                        call.call_id,
                        call.wire_api.value,
                        int(call.stream),
                        call.model,
                        request,
                        response,
                        prompt,
                        completion,
                        logprobs,
                        call.finish_reason,
                        call.policy_version,
                        call.upstream,
                        call.status.value,
                        call.http_status,
                        call.error,
                        call.started_at,
                        call.latency_ms,
                        images,
                    ),
                )
                stored.append(call.model_copy(update={"seq": seq}))
        return stored

    def calls(self, rollout_id: str) -> list[CallRecord]:
        """A rollout's calls in `seq` order (empty when it has none)."""
        with self._snapshot() as conn:
            return self._calls(conn, rollout_id)

    @staticmethod
    def _calls(conn: sqlite3.Connection, rollout_id: str) -> list[CallRecord]:
        rows = conn.execute(
            f"SELECT {_CALL_COLUMNS} FROM calls WHERE rollout_id = ? ORDER BY seq", (rollout_id,)
        ).fetchall()
        return [_row_to_call(row) for row in rows]

    def rollout(self, rollout_id: str) -> RolloutRecord | None:
        """A rollout with its calls and rewards; None when nothing was recorded or attached for it."""
        with self._snapshot() as conn:
            row = conn.execute(
                "SELECT rewards, metadata FROM rollouts WHERE rollout_id = ?", (rollout_id,)
            ).fetchone()
            if row is None:
                return None
            calls = self._calls(conn, rollout_id)
        rewards: dict[str, float] = json.loads(row[0])
        return RolloutRecord(
            rollout_id=rollout_id,
            reward=rewards.get("reward"),
            rewards=rewards,
            metadata=json.loads(row[1]),
            calls=calls,
        )

    def rollout_ids(self) -> list[str]:
        """Every rollout with a call or a reward, in the order they first appeared."""
        with self._snapshot() as conn:
            return [r[0] for r in conn.execute("SELECT rollout_id FROM rollouts ORDER BY id")]

    def attach_reward(
        self,
        rollout_id: str,
        reward: float | Mapping[str, float],
        metadata: Mapping[str, Any] | None = None,
    ) -> RolloutRecord:
        """Merge rewards (a number is `{"reward": x}`) and metadata into a rollout, which need not have
        calls yet. Later values win per key."""
        named = {"reward": reward} if not isinstance(reward, Mapping) else dict(reward)
        return self._update_rollout(rollout_id, _checked_rewards(named), metadata, replace=False)

    def set_rollout_reward(
        self,
        rollout_id: str,
        rewards: Mapping[str, float] | None,
        metadata: Mapping[str, Any] | None = None,
    ) -> RolloutRecord:
        """Replace a rollout's rewards with `rewards` (None or {} clears them) and merge `metadata`.

        For the verifier's outcome, which always replaces whatever the rollout's record says about its
        reward (anything posted earlier, by anyone, is gone)."""
        return self._update_rollout(rollout_id, _checked_rewards(dict(rewards or {})), metadata, replace=True)

    def _update_rollout(
        self,
        rollout_id: str,
        rewards: dict[str, float],
        metadata: Mapping[str, Any] | None,
        *,
        replace: bool,
    ) -> RolloutRecord:
        extra = dict(metadata or {})
        try:
            extra_text = json.dumps(extra)
        except (TypeError, ValueError, RecursionError) as exc:
            raise ValueError(f"reward metadata must be JSON-serializable: {exc}") from None
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO rollouts (rollout_id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (rollout_id, time.time()),
            )
            old_rewards, old_meta = conn.execute(
                "SELECT rewards, metadata FROM rollouts WHERE rollout_id = ?", (rollout_id,)
            ).fetchone()
            merged = rewards if replace else {**json.loads(old_rewards), **rewards}
            merged_meta = {**json.loads(old_meta), **json.loads(extra_text)}
            conn.execute(
                "UPDATE rollouts SET rewards = ?, metadata = ? WHERE rollout_id = ?",
                (json.dumps(merged), json.dumps(merged_meta), rollout_id),
            )
        record = self.rollout(rollout_id)
        if record is None:
            raise StoreError(f"rollout {rollout_id!r} vanished right after its reward was committed")
        return record


def _checked_rewards(named: Mapping[Any, Any]) -> dict[str, float]:
    return {str(k): _finite(str(k), v) for k, v in named.items()}
