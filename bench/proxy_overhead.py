"""What the recording proxy adds to a model call, and how it compares with LiteLLM's proxy (issue #3).

One fake OpenAI-compatible upstream answers every call at once with a fixed small completion (streamed
as SSE when asked). The same load, a fixed short chat with a tool definition, is sent three ways:

    direct     load generator -> upstream
    ours       load generator -> our proxy (pass-through, recording to SQLite) -> upstream
    litellm    load generator -> LiteLLM's proxy server -> upstream

at concurrency 1, 64 and 256, streamed and not. Each cell is a fixed number of requests after a warmup;
the latency of a request is the time from writing it to reading the last byte of its answer (the whole
SSE body for streams). The table gives p50/p99 latency, requests/s, the CPU time the server under test
spent per request, what each proxy adds to the direct p50/p99, and our throughput as a multiple of
LiteLLM's.

    .venv/bin/python bench/proxy_overhead.py                      # everything (installs LiteLLM once)
    .venv/bin/python bench/proxy_overhead.py --modes direct,ours  # without LiteLLM
    .venv/bin/python bench/proxy_overhead.py --json results.json --markdown

Every server runs in a process of its own, on 127.0.0.1 only. On a machine with two or more CPUs the
proxy under test is pinned to the last CPU and everything else (upstream, load generator) to the others,
so both proxies get one core of their own and the harness never competes with them (`--no-pin` leaves
placement to the OS). LiteLLM is installed on first use, at a pinned version, into its own virtual
environment under `${FORGE_HOME:-~/.cache/openforge}/bench-venvs/litellm`; it is never a dependency of
the project. Every process started here is stopped on exit, also on Ctrl-C or SIGTERM.

The load generator is a minimal HTTP/1.1 client (asyncio protocol + httptools' parser on uvloop, one
keep-alive connection per concurrent request) so that it costs a few tens of microseconds a request and is
not what limits the numbers. `--upstream-delay-ms` makes the upstream wait before answering.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import os
import platform
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

SCRIPT = str(Path(__file__).resolve())
REPO = Path(SCRIPT).parent.parent
MODEL = "bench-model"
LITELLM_VERSION = "1.108.7"
"""Pinned on purpose: the newest release whose `[proxy]` extra resolves from PyPI when this was written
(1.108.8+ and 1.109.x pin litellm-enterprise / litellm-proxy-extras builds that are not published, 1.110+
a `litellm-proxy` package that is not)."""
COMPLETION_TEXT = "The weather in Paris is sunny and 22 degrees Celsius."
STREAM_PIECES = ["The weather in Paris ", "is sunny and ", "22 degrees Celsius."]
API_KEY = "sk-" + secrets.token_hex(24)
"""Sent with every request; LiteLLM's master key (it refuses to start without one). Ours ignores it."""
MODES = ("direct", "ours", "litellm")
LABELS = {"direct": "direct", "ours": "ours", "litellm": "LiteLLM"}


# --------------------------------------------------------------------------------------------------------
# The request every mode sends
# --------------------------------------------------------------------------------------------------------


def request_body(stream: bool) -> bytes:
    body: dict[str, Any] = {
        "model": MODEL,
        "messages": [
            {"role": "system", "content": "You are a helpful assistant. Use the tools when they help."},
            {"role": "user", "content": "What is the weather in Paris right now?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_0",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_0", "content": '{"sky": "sunny", "celsius": 22}'},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Current weather of a city.",
                    "parameters": {
                        "type": "object",
                        "properties": {"city": {"type": "string", "description": "City name"}},
                        "required": ["city"],
                    },
                },
            }
        ],
        "max_tokens": 64,
        "stream": stream,
    }
    return json.dumps(body).encode()


def http_request(port: int, body: bytes) -> bytes:
    head = (
        f"POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\n"
        f"content-type: application/json\r\naccept: */*\r\nauthorization: Bearer {API_KEY}\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


def answer_ok(body: bytes, stream: bool) -> bool:
    """The answer carries the upstream's completion (for streams: the deltas joined, then [DONE])."""
    try:
        if not stream:
            return json.loads(body)["choices"][0]["message"]["content"] == COMPLETION_TEXT
        text, done = [], False
        for line in body.decode().splitlines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                done = True
                continue
            for choice in json.loads(data).get("choices") or []:
                text.append((choice.get("delta") or {}).get("content") or "")
        return done and "".join(text) == COMPLETION_TEXT
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return False


# --------------------------------------------------------------------------------------------------------
# The fake upstream: asyncio protocol + httptools on uvloop, answers at once
# --------------------------------------------------------------------------------------------------------


def _upstream_answers() -> tuple[bytes, bytes, bytes, bytes]:
    created = 1_700_000_000
    completion = {
        "id": "chatcmpl-bench",
        "object": "chat.completion",
        "created": created,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": COMPLETION_TEXT},
                "finish_reason": "stop",
                "logprobs": None,
            }
        ],
        "usage": {"prompt_tokens": 96, "completion_tokens": 12, "total_tokens": 108},
    }
    body = json.dumps(completion, separators=(",", ":")).encode()
    plain = (
        b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(body) + body
    )

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-bench",
            "object": "chat.completion.chunk",
            "created": created,
            "model": MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        }

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": piece}) for piece in STREAM_PIECES]
    events.append(chunk({}, "stop"))
    usage = {**chunk({}), "choices": [], "usage": completion["usage"]}

    def framed(datas: list[Any]) -> bytes:
        out = []
        for data in datas:
            payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
            event = f"data: {payload}\n\n".encode()
            out.append(b"%x\r\n%s\r\n" % (len(event), event))
        return b"".join(out)

    head = (
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n"
        b"transfer-encoding: chunked\r\n\r\n"
    )
    stream = head + framed(events)
    usage_and_done = framed([usage, "[DONE]"]) + b"0\r\n\r\n"
    done = framed(["[DONE]"]) + b"0\r\n\r\n"
    return plain, stream, usage_and_done, done


def serve_upstream(port: int, delay_ms: float) -> None:
    import httptools
    import uvloop

    plain, stream_head, stream_usage_tail, stream_tail = _upstream_answers()
    models = json.dumps({"object": "list", "data": [{"id": MODEL, "object": "model", "owned_by": "b"}]})
    models_answer = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (
        len(models),
        models.encode(),
    )
    missing = b'{"error":{"message":"not found"}}'
    not_found = (
        b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s"
        % (len(missing), missing)
    )
    delay = delay_ms / 1000

    class Upstream(asyncio.Protocol):
        def connection_made(self, transport: Any) -> None:
            self.transport = transport
            self.parser = httptools.HttpRequestParser(self)
            self.url = b""
            self.body: list[bytes] = []

        def data_received(self, data: bytes) -> None:
            try:
                self.parser.feed_data(data)
            except httptools.HttpParserError:
                self.transport.write(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
                self.transport.close()

        def on_message_begin(self) -> None:
            self.url = b""
            self.body = []

        def on_url(self, url: bytes) -> None:
            self.url += url

        def on_body(self, body: bytes) -> None:
            self.body.append(body)

        def on_message_complete(self) -> None:
            keep = self.parser.should_keep_alive()
            path = self.url.split(b"?", 1)[0]
            if path.endswith(b"/chat/completions") and self.parser.get_method() == b"POST":
                try:
                    request = json.loads(b"".join(self.body))
                except ValueError:
                    request = {}
                if request.get("stream") is True:
                    usage = (request.get("stream_options") or {}).get("include_usage")
                    answer = stream_head + (stream_usage_tail if usage else stream_tail)
                else:
                    answer = plain
            elif path.endswith(b"/models"):
                answer = models_answer
            else:
                answer = not_found
            if delay:
                asyncio.get_running_loop().call_later(delay, self._send, answer, keep)
            else:
                self._send(answer, keep)

        def _send(self, answer: bytes, keep: bool) -> None:
            if self.transport.is_closing():
                return
            self.transport.write(answer)
            if not keep:
                self.transport.close()

    async def main() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(Upstream, "127.0.0.1", port, backlog=4096, reuse_address=True)
        async with server:
            await server.serve_forever()

    uvloop.run(main())


# --------------------------------------------------------------------------------------------------------
# Our proxy, served the way `forge-proxy` serves it (FastAPI on uvicorn: uvloop + httptools)
# --------------------------------------------------------------------------------------------------------


def serve_ours(port: int, upstream: str, run_dir: Path, patch: Path | None) -> None:
    sys.path.insert(0, str(REPO))
    import uvicorn

    if patch is not None:  # try a change to the proxy without editing it: the file monkeypatches proxy.*
        import runpy

        runpy.run_path(str(patch), run_name="__bench_patch__")

    from proxy.app import create_app
    from proxy.config import ProxyConfig
    from proxy.engines.passthrough import OpenAIPassthrough
    from proxy.store import CallStore

    app = create_app(
        OpenAIPassthrough(base_url=f"{upstream}/v1", model=MODEL),
        CallStore.for_run(run_dir),
        ProxyConfig(models=[MODEL]),
    )
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        backlog=4096,
        timeout_keep_alive=30,
    )


# --------------------------------------------------------------------------------------------------------
# LiteLLM: its own virtual environment, a config with one model pointing at the fake upstream
# --------------------------------------------------------------------------------------------------------


def forge_home() -> Path:
    return Path(os.environ.get("FORGE_HOME") or Path.home() / ".cache" / "openforge")


def ensure_litellm(version: str) -> Path:
    """The `litellm` command of a virtual environment with `litellm[proxy]==version`, made on first use."""
    venv = forge_home() / "bench-venvs" / "litellm"
    python, command = venv / "bin" / "python", venv / "bin" / "litellm"
    if python.exists() and command.exists():
        probe = subprocess.run(
            [str(python), "-c", "import importlib.metadata as m; print(m.version('litellm'))"],
            capture_output=True,
            text=True,
        )
        if probe.returncode == 0 and probe.stdout.strip() == version:
            return command
        print(f"[bench] {venv} has LiteLLM {probe.stdout.strip() or '?'}; installing {version}", flush=True)
    else:
        print(f"[bench] creating {venv} with litellm[proxy]=={version} (once; a minute or two)", flush=True)
        shutil.rmtree(venv, ignore_errors=True)
        venv.parent.mkdir(parents=True, exist_ok=True)
        base = getattr(sys, "_base_executable", None) or sys.executable
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", f"litellm[proxy]=={version}"],
        check=True,
    )
    return command


def litellm_config(path: Path, upstream: str) -> Path:
    path.write_text(
        "model_list:\n"
        f"  - model_name: {MODEL}\n"
        "    litellm_params:\n"
        f"      model: openai/{MODEL}\n"
        f"      api_base: {upstream}/v1\n"
        "      api_key: sk-bench\n"
        "litellm_settings:\n"
        "  telemetry: false\n"
        "  drop_params: true\n"
        "  set_verbose: false\n"
        "general_settings:\n"
        f"  master_key: {API_KEY}\n"
    )
    return path


def litellm_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.upper().startswith(("DATABASE_", "REDIS_", "LITELLM_", "OPENAI_", "LANGFUSE_"))
    }
    env.update(
        LITELLM_LOCAL_MODEL_COST_MAP="True",  # no fetch of the model cost map from the internet
        LITELLM_TELEMETRY="False",
        LITELLM_LOG="ERROR",
        LITELLM_MODE="PRODUCTION",  # no .env loading
        DISABLE_ADMIN_UI="True",
        NO_DOCS="True",
    )
    return env


# --------------------------------------------------------------------------------------------------------
# Processes: own session (so the whole group can be stopped), optional CPU pinning, die with us
# --------------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def loopback_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """No HTTP proxy for anyone: every byte stays on 127.0.0.1."""
    env = dict(os.environ if env is None else env)
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        env.pop(key, None)
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["PYTHONUNBUFFERED"] = "1"
    return env


class Processes:
    """Children started for the benchmark; `stop_all()` ends each one's process group."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(
        self, name: str, argv: Sequence[str], env: dict[str, str], cpus: set[int] | None
    ) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{name}.log", "wb")  # noqa: SIM115 - lives as long as the child

        def prepare() -> None:  # in the child, before exec
            with contextlib.suppress(Exception):
                ctypes.CDLL("libc.so.6", use_errno=True).prctl(
                    1, signal.SIGKILL
                )  # PR_SET_PDEATHSIG: die with us
            if cpus:
                os.sched_setaffinity(0, cpus)

        proc = subprocess.Popen(
            list(argv),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=prepare,
            cwd=self.log_dir,
        )
        log.close()
        self.running.append((name, proc))
        return proc

    def log_tail(self, name: str, lines: int = 30) -> str:
        path = self.log_dir / f"{name}.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        for sig, wait in ((signal.SIGTERM, 8.0), (signal.SIGKILL, 5.0)):
            if proc.poll() is not None:
                break
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, sig)  # the child leads its own session: pgid == pid
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(wait)
        # anything left in the group (workers of a child that exited first)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        self.running = [(n, p) for n, p in self.running if p is not proc]

    def stop_all(self) -> None:
        for _, proc in reversed(list(self.running)):
            self.stop(proc)


# --------------------------------------------------------------------------------------------------------
# Load generator
# --------------------------------------------------------------------------------------------------------


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
    loop = asyncio.get_running_loop()
    _, conn = await loop.create_connection(Connection, "127.0.0.1", port)
    conn.transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return conn


@dataclass
class Batch:
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
    done: set[asyncio.Future[None]] = set()
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
) -> Cell:
    payload = http_request(port, request_body(stream))
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
                        conn.request(http_request(port, request_body(stream))), 30
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


# --------------------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 2, sign: bool = False) -> str:
    if value is None or value != value:
        return "-"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def table(cells: list[Cell], markdown: bool) -> str:
    direct = {(c.stream, c.concurrency): c for c in cells if c.mode == "direct"}
    litellm = {(c.stream, c.concurrency): c for c in cells if c.mode == "litellm"}
    ours = {(c.stream, c.concurrency): c for c in cells if c.mode == "ours"}
    header = [
        "mode",
        "stream",
        "conc",
        "requests",
        "errors",
        "p50 ms",
        "p99 ms",
        "req/s",
        "CPU µs/req",
        "added p50 ms",
        "added p99 ms",
        "ours/LiteLLM req/s",
    ]
    rows = []
    order = {m: i for i, m in enumerate(MODES)}
    for c in sorted(cells, key=lambda c: (c.stream, c.concurrency, order[c.mode])):
        key = (c.stream, c.concurrency)
        base = direct.get(key) if c.mode != "direct" else None
        ratio = None
        if c.mode == "ours" and key in litellm and litellm[key].rps:
            ratio = c.rps / litellm[key].rps
        elif c.mode == "litellm" and key in ours and c.rps:
            ratio = ours[key].rps / c.rps
        rows.append(
            [
                LABELS[c.mode],
                "yes" if c.stream else "no",
                str(c.concurrency),
                str(c.requests),
                str(c.errors),
                _fmt(c.p50_ms),
                _fmt(c.p99_ms),
                _fmt(c.rps, 0),
                _fmt(c.cpu_us_per_request, 0),
                _fmt(c.p50_ms - base.p50_ms, sign=True) if base else "",
                _fmt(c.p99_ms - base.p99_ms, sign=True) if base else "",
                f"{ratio:.2f}x" if ratio is not None and c.mode == "ours" else "",
            ]
        )
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    right = [False, False] + [True] * (len(header) - 2)

    def line(values: list[str]) -> str:
        cols = [v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right, strict=True)]
        return ("| " + " | ".join(cols) + " |") if markdown else "  ".join(cols)

    out = [line(header)]
    if markdown:
        out.append(
            "|"
            + "|".join(
                ("-" * (w + 1) + ":") if r else "-" * (w + 2) for w, r in zip(widths, right, strict=True)
            )
            + "|"
        )
    else:
        out.append("  ".join("-" * w for w in widths))
    out += [line(r) for r in rows]
    return "\n".join(out)


def machine() -> dict[str, Any]:
    cpu = ""
    with contextlib.suppress(OSError):
        for text_line in Path("/proc/cpuinfo").read_text().splitlines():
            if text_line.startswith("model name"):
                cpu = text_line.split(":", 1)[1].strip()
                break
    mem = ""
    with contextlib.suppress(OSError, ValueError, IndexError):
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kib / 1024 / 1024:.0f} GiB"
    return {
        "cpus": len(os.sched_getaffinity(0)),
        "cpu": cpu,
        "memory": mem,
        "kernel": platform.release(),
        "python": platform.python_version(),
    }


# --------------------------------------------------------------------------------------------------------
# Orchestration
# --------------------------------------------------------------------------------------------------------


def parse_list(text: str, cast: Callable[[str], Any]) -> list[Any]:
    return [cast(p.strip()) for p in text.split(",") if p.strip()]


def serve_role(argv: list[str]) -> int:
    """`_upstream …` / `_ours …`: the servers this script starts in processes of their own."""
    role = argparse.ArgumentParser(prog=f"proxy_overhead.py {argv[0]}")
    role.add_argument("--port", type=int, required=True)
    if argv[0] == "_upstream":
        role.add_argument("--delay-ms", type=float, default=0.0)
        args = role.parse_args(argv[1:])
        serve_upstream(args.port, args.delay_ms)
    else:
        role.add_argument("--upstream", required=True)
        role.add_argument("--run-dir", type=Path, required=True)
        role.add_argument("--patch", type=Path)
        args = role.parse_args(argv[1:])
        serve_ours(args.port, args.upstream, args.run_dir, args.patch)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("_upstream", "_ours"):
        return serve_role(argv)
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="Direct, through our proxy and through LiteLLM; see docs/benchmarks.md.",
    )
    parser.add_argument("--modes", default=",".join(MODES), help="any of direct,ours,litellm (default: all)")
    parser.add_argument("--concurrency", default="1,64,256", help="concurrency levels (default: 1,64,256)")
    parser.add_argument(
        "--stream", choices=("both", "yes", "no"), default="both", help="streamed calls, plain, or both"
    )
    parser.add_argument("--requests-c1", type=int, default=200, help="measured requests at concurrency 1")
    parser.add_argument("--requests", type=int, default=2000, help="measured requests at concurrency > 1")
    parser.add_argument("--warmup-c1", type=int, default=50, help="warmup requests at concurrency 1")
    parser.add_argument(
        "--warmup", type=int, default=0, help="warmup requests at concurrency > 1 (0: twice the concurrency)"
    )
    parser.add_argument(
        "--upstream-delay-ms", type=float, default=0.0, help="the upstream waits this long before answering"
    )
    parser.add_argument("--cell-timeout", type=float, default=300.0, help="seconds per batch at most")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin processes to CPUs")
    parser.add_argument("--litellm-version", default=LITELLM_VERSION, help=f"default: {LITELLM_VERSION}")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument(
        "--ours-patch",
        type=Path,
        help="a Python file run in our proxy's process before the app is built (to measure a change to "
        "proxy/ without making it: monkeypatch there)",
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the servers' logs and run directory")
    return orchestrate(parser.parse_args(argv))


def orchestrate(args: argparse.Namespace) -> int:
    modes = parse_list(args.modes, str)
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise SystemExit(f"unknown mode(s): {', '.join(unknown)}")
    levels = parse_list(args.concurrency, int)
    streams = {"both": [False, True], "yes": [True], "no": [False]}[args.stream]
    litellm_bin = ensure_litellm(args.litellm_version) if "litellm" in modes else None

    info = machine()
    cpus = sorted(os.sched_getaffinity(0))
    pin = args.pin and len(cpus) >= 2
    proxy_cpus = {cpus[-1]} if pin else None
    harness_cpus = set(cpus[:-1]) if pin else None
    if harness_cpus:
        os.sched_setaffinity(0, harness_cpus)  # the load generator; the upstream gets the same

    def on_signal(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    work = Path(tempfile.mkdtemp(prefix="openforge-bench-"))
    procs = Processes(work)
    cells: list[Cell] = []
    print(
        f"[bench] {info['cpus']} CPUs ({info['cpu']}), {info['memory']}, Python {info['python']}; "
        + (
            f"proxy pinned to CPU {cpus[-1]}, upstream and load generator to {sorted(harness_cpus or [])}"
            if pin
            else "no CPU pinning"
        ),
        flush=True,
    )
    failed = interrupted = False
    try:
        import uvloop

        up_port = free_port()
        upstream = procs.start(
            "upstream",
            [
                sys.executable,
                SCRIPT,
                "_upstream",
                "--port",
                str(up_port),
                "--delay-ms",
                str(args.upstream_delay_ms),
            ],
            loopback_env(),
            harness_cpus,
        )
        upstream_url = f"http://127.0.0.1:{up_port}"
        uvloop.run(wait_ready(up_port, upstream, 30, "the upstream"))

        for mode in modes:
            port, proc = up_port, None
            if mode == "ours":
                port = free_port()
                run_dir = work / "run"
                proc = procs.start(
                    "ours",
                    [
                        sys.executable,
                        SCRIPT,
                        "_ours",
                        "--port",
                        str(port),
                        "--upstream",
                        upstream_url,
                        "--run-dir",
                        str(run_dir),
                        *(["--patch", str(args.ours_patch.resolve())] if args.ours_patch else []),
                    ],
                    loopback_env(),
                    proxy_cpus,
                )
            elif mode == "litellm":
                port = free_port()
                config = litellm_config(work / "litellm.yaml", upstream_url)
                proc = procs.start(
                    "litellm",
                    [
                        str(litellm_bin),
                        "--config",
                        str(config),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(port),
                        "--num_workers",
                        "1",
                    ],
                    loopback_env(litellm_env()),
                    proxy_cpus,
                )
            try:
                if proc is not None:
                    uvloop.run(wait_ready(port, proc, 180, LABELS[mode], streams))
                for stream in streams:
                    for level in levels:
                        requests = args.requests_c1 if level == 1 else args.requests
                        warmup = args.warmup_c1 if level == 1 else (args.warmup or 2 * level)
                        cell = uvloop.run(
                            measure_cell(
                                mode,
                                port,
                                stream,
                                level,
                                requests,
                                warmup,
                                args.cell_timeout,
                                (proc or upstream).pid,
                            )
                        )
                        cells.append(cell)
                        print(
                            f"[bench] {LABELS[mode]:7} stream={'yes' if stream else 'no ':3} c={level:<3} "
                            f"p50 {cell.p50_ms:8.2f} ms  p99 {cell.p99_ms:8.2f} ms  {cell.rps:8.0f} req/s  "
                            f"{cell.cpu_us_per_request:6.0f} CPU µs/req"
                            + (f"  {cell.errors} errors, first: {cell.first_error}" if cell.errors else ""),
                            flush=True,
                        )
                        if proc is not None and proc.poll() is not None:
                            raise RuntimeError(f"{LABELS[mode]} exited with status {proc.returncode}")
            except RuntimeError:
                if proc is not None:
                    print(procs.log_tail(mode), file=sys.stderr)
                raise
            finally:
                if proc is not None:
                    procs.stop(proc)
    except KeyboardInterrupt:
        interrupted = True
        print("\n[bench] interrupted; stopping every process started here", file=sys.stderr)
    except RuntimeError as exc:
        failed = True
        print(f"[bench] {exc}", file=sys.stderr)
    finally:
        procs.stop_all()
        if args.keep_logs or (failed and not interrupted):
            print(f"[bench] logs kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

    if cells:
        print()
        print(table(cells, args.markdown))
        ratios = []
        for c in cells:
            other = next(
                (
                    o
                    for o in cells
                    if o.mode == "litellm" and (o.stream, o.concurrency) == (c.stream, c.concurrency)
                ),
                None,
            )
            if c.mode == "ours" and other and other.rps:
                ratios.append(
                    f"stream={'yes' if c.stream else 'no'} c={c.concurrency}: {c.rps / other.rps:.2f}x"
                )
        if ratios:
            print("\nthroughput ours/LiteLLM: " + "; ".join(ratios))
    if args.json and cells:
        args.json.write_text(
            json.dumps(
                {
                    "machine": info,
                    "pinned": pin,
                    "litellm_version": args.litellm_version if "litellm" in modes else None,
                    "upstream_delay_ms": args.upstream_delay_ms,
                    "cells": [asdict(c) for c in cells],
                },
                indent=2,
            )
        )
    errors = sum(c.errors for c in cells)
    if interrupted:
        return 130
    return 1 if failed or errors else 0


if __name__ == "__main__":
    sys.exit(main())
