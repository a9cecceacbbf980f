"""The load generator and one measured cell: a minimal HTTP/1.1 client (asyncio protocol + httptools' parser
on uvloop, one keep-alive connection per concurrent request) cheap enough not to be what limits the numbers,
nearest-rank percentiles of the time to an answer's last byte, and the CPU time the server under test spent
meanwhile."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .calls import answer_ok, http_request, request_body


class Connection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection; `request()` returns (seconds to the last byte, status, body)."""

    def __init__(self) -> None:
        import httptools

        self.parser = httptools.HttpResponseParser(self)
        self.parse_error = httptools.HttpParserError
        self.transport: Any = None
        self.waiter: asyncio.Future[float] | None = None
        self.chunks: list[bytes] = []
        self.status = 0
        self.keep_alive = True
        self.lost = False

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except self.parse_error as exc:
            self._fail(ConnectionError(f"bad HTTP answer: {exc}"))
            self.transport.close()

    def on_body(self, body: bytes) -> None:
        self.chunks.append(body)

    def on_message_complete(self) -> None:
        done = time.perf_counter()
        self.status = self.parser.get_status_code()
        self.keep_alive = self.parser.should_keep_alive()
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(done)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = True
        self._fail(ConnectionError(f"connection closed: {exc}"))

    def _fail(self, exc: Exception) -> None:
        waiter, self.waiter = self.waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_exception(exc)

    async def request(self, payload: bytes) -> tuple[float, int, bytes]:
        self.chunks = []
        waiter = asyncio.get_running_loop().create_future()
        self.waiter = waiter
        started = time.perf_counter()
        self.transport.write(payload)
        done = await waiter
        body = b"".join(self.chunks)
        if not self.keep_alive:
            self.transport.close()
            self.lost = True
        return done - started, self.status, body


async def connect(port: int) -> Connection:
    """A new connection to 127.0.0.1:`port` with Nagle off, so each request leaves at once."""
    loop = asyncio.get_running_loop()
    _, conn = await loop.create_connection(Connection, "127.0.0.1", port)
    conn.transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return conn


@dataclass
class Batch:
    """What one batch of requests gave: latencies of the answered ones, good answers, errors."""

    latencies: list[float] = field(default_factory=list)
    good: int = 0
    errors: int = 0
    first_error: str = ""
    seconds: float = 0.0


async def run_batch(
    conns: list[Connection], port: int, payload: bytes, stream: bool, total: int, timeout: float
) -> Batch:
    """`total` requests over the connections (one in flight on each); answers checked afterwards."""
    batch = Batch()
    answers: list[tuple[int, bytes]] = []
    next_index = 0

    def note_error(message: str) -> None:
        batch.errors += 1
        batch.first_error = batch.first_error or message

    async def worker(slot: int) -> None:
        nonlocal next_index
        while next_index < total:
            next_index += 1
            conn = conns[slot]
            try:
                if conn.lost:
                    conn = conns[slot] = await connect(port)
                seconds, status, body = await conn.request(payload)
            except (ConnectionError, OSError) as exc:
                note_error(str(exc))
                conns[slot].lost = True
                continue
            batch.latencies.append(seconds)
            answers.append((status, body))

    started = time.perf_counter()
    tasks = [asyncio.ensure_future(worker(i)) for i in range(len(conns))]
    done: set[asyncio.Task[None]] = set()
    try:
        done, pending = await asyncio.wait(tasks, timeout=timeout)
    finally:
        for task in tasks:
            task.cancel()
    if pending:
        for conn in conns:
            if conn.transport is not None:
                conn.transport.close()
            conn.lost = True
        note_error(f"the batch did not finish within {timeout:.0f}s")
        batch.errors = total - len(answers)  # every request without an answer
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            raise RuntimeError(f"the load generator failed: {task.exception()!r}")
    batch.seconds = time.perf_counter() - started
    for status, body in answers:
        if status != 200:
            note_error(f"HTTP {status}: {body[:300]!r}")
        elif not answer_ok(body, stream):
            note_error(f"unexpected answer: {body[:300]!r}")
        else:
            batch.good += 1
    return batch


@dataclass
class Cell:
    """One row of the table: a mode, streamed or not, at one concurrency."""

    mode: str
    stream: bool
    concurrency: int
    requests: int
    errors: int
    p50_ms: float
    p99_ms: float
    mean_ms: float
    rps: float
    cpu_us_per_request: float
    """CPU time of the server under test (the upstream for direct) per request, all its threads."""
    first_error: str = ""


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), int(-(-q * len(sorted_values) // 1))))
    return sorted_values[rank - 1]


def group_cpu_seconds(pgid: int | None) -> float:
    """User + system CPU seconds of every live process in a process group (all their threads)."""
    if pgid is None:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid:  # fields[k - 3] is field k of proc(5): 5 pgrp, 14 utime, 15 stime
            total += int(fields[11]) + int(fields[12])
    return total / tick


async def measure_cell(
    mode: str,
    port: int,
    stream: bool,
    concurrency: int,
    requests: int,
    warmup: int,
    timeout: float,
    server_pgid: int | None,
    image: bytes | None = None,
) -> Cell:
    """Warm up, then measure `requests` calls at `concurrency`, and the server's CPU time meanwhile."""
    payload = http_request(port, request_body(stream, image))
    conns = [await connect(port) for _ in range(concurrency)]
    try:
        if warmup:
            await run_batch(conns, port, payload, stream, warmup, timeout)
        cpu_before = group_cpu_seconds(server_pgid)
        batch = await run_batch(conns, port, payload, stream, requests, timeout)
        cpu = group_cpu_seconds(server_pgid) - cpu_before
    finally:
        for conn in conns:
            if conn.transport is not None:
                conn.transport.close()
    values = sorted(batch.latencies)
    ms = [v * 1000 for v in values]
    return Cell(
        mode=mode,
        stream=stream,
        concurrency=concurrency,
        requests=requests,
        errors=batch.errors,
        p50_ms=percentile(ms, 0.50),
        p99_ms=percentile(ms, 0.99),
        mean_ms=sum(ms) / len(ms) if ms else float("nan"),
        rps=batch.good / batch.seconds if batch.seconds else 0.0,
        cpu_us_per_request=cpu / requests * 1e6 if server_pgid is not None else float("nan"),
        first_error=batch.first_error,
    )


async def wait_ready(
    port: int,
    proc: subprocess.Popen[bytes],
    timeout: float,
    name: str,
    streams: Sequence[bool] = (False, True),
    image: bytes | None = None,
) -> None:
    """Until a real call (streamed, not, or both) is answered correctly."""
    deadline = time.monotonic() + timeout
    last = "no answer yet"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{name} exited with status {proc.returncode} before it was ready")
        try:
            conn = await connect(port)
            try:
                good = True
                for stream in streams:
                    _, status, body = await asyncio.wait_for(
                        conn.request(http_request(port, request_body(stream, image))), 30
                    )
                    if status != 200 or not answer_ok(body, stream):
                        good, last = False, f"HTTP {status}: {body[:300]!r}"
                    if 400 <= status < 500:  # the server is up and refuses: waiting will not help
                        raise RuntimeError(f"{name} refused the benchmark request: {last}")
                if good:
                    return
            finally:
                conn.transport.close()
        except (OSError, ConnectionError, TimeoutError) as exc:
            last = str(exc) or type(exc).__name__
        await asyncio.sleep(0.25)
    raise RuntimeError(f"{name} on port {port} was not ready within {timeout:.0f}s: {last}")
