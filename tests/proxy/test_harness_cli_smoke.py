"""The real harness CLIs reach a model endpoint on a Unix socket from a loopback-only network namespace.

No proxy of ours is involved: a tiny recording HTTP server on a Unix socket answers the first call with
500 and every later one with 400 (the wire API's own error shape), which makes each CLI retry once and
then give up quickly. The test checks the path and auth header of the first model call, that the CLI
retried after the 500, that it exited by itself, and that strace saw no connection anywhere but the
forwarder's loopback port (no DNS, telemetry or update checks).

The captured request shapes are kept under fixtures/harness_requests/<name>.json for the proxy's
developers. To refresh them (after changing a pinned version), run with FORGE_UPDATE_HARNESS_FIXTURES=1:
the run then also answers 500 to every call until the CLI gives up, to record its full retry schedule
(Claude Code takes about three minutes).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socketserver
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from tests.proxy.harness_cli import (
    HARNESS_CLIS,
    CliRun,
    HarnessCli,
    NetnsResult,
    installed,
    missing_tools,
    not_installed_reason,
    parse_strace,
    run_in_netns,
)

pytestmark = pytest.mark.netns

FIXTURES = Path(__file__).parent / "fixtures" / "harness_requests"
UPDATE_FIXTURES = os.environ.get("FORGE_UPDATE_HARNESS_FIXTURES") == "1"
PORT = 18080  # inside a fresh network namespace every port is free
API_KEY = "forge-smoke-rollout"
MODEL = "forge-smoke-model"
PROMPT = "Create the file hello.txt containing the word hello."


@dataclass
class Recorded:
    at: float
    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    status: int

    @property
    def body(self) -> Any:
        try:
            return json.loads(self.raw)
        except ValueError:
            return self.raw.decode("utf-8", "replace")


@dataclass
class Recorder:
    """Answers each call with the next status of `statuses` (the last one repeats) and records it."""

    wire_api: str
    statuses: list[int]
    requests: list[Recorded] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error_body(self, status: int) -> bytes:
        kind = "api_error" if status >= 500 else "invalid_request_error"
        if self.wire_api == "messages":
            body: dict[str, Any] = {
                "type": "error",
                "error": {"type": kind, "message": f"smoke test {status}"},
            }
        else:
            kind = "server_error" if status >= 500 else "invalid_request_error"
            body = {"error": {"message": f"smoke test {status}", "type": kind, "param": None, "code": None}}
        return json.dumps(body).encode()


def _read_body(handler: BaseHTTPRequestHandler) -> bytes:
    if handler.headers.get("transfer-encoding", "").lower() == "chunked":
        chunks = []
        while size := int(handler.rfile.readline().split(b";")[0].strip() or b"0", 16):
            chunks.append(handler.rfile.read(size))
            handler.rfile.readline()
        while handler.rfile.readline() not in (b"\r\n", b"\n", b""):
            pass
        return b"".join(chunks)
    length = int(handler.headers.get("content-length") or 0)
    return handler.rfile.read(length) if length else b""


def make_handler(recorder: Recorder) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_any(self) -> None:
            raw = _read_body(self)
            with recorder.lock:
                index = len(recorder.requests)
                status = recorder.statuses[min(index, len(recorder.statuses) - 1)]
                recorder.requests.append(
                    Recorded(time.time(), self.command, self.path, dict(self.headers.items()), raw, status)
                )
            body = recorder.error_body(status)
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = handle_any

        def address_string(self) -> str:
            return "unix-client"

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


class UnixHTTPServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A short path for the Unix socket (sun_path holds at most 107 bytes)."""
    path = Path(tempfile.mkdtemp(prefix="forge-smoke-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def serve(recorder: Recorder, socket_path: Path) -> UnixHTTPServer:
    server = UnixHTTPServer(str(socket_path), make_handler(recorder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_cli(cli: HarnessCli, recorder: Recorder, root: Path, timeout: float) -> NetnsResult:
    socket_path = root / "model.sock"
    socket_path.unlink(missing_ok=True)
    workdir = root / "work"
    workdir.mkdir(exist_ok=True)
    home = root / "home"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir()
    server = serve(recorder, socket_path)
    try:
        invocation = cli.invocation(
            CliRun(
                base_url=f"http://127.0.0.1:{PORT}",
                api_key=API_KEY,
                model=MODEL,
                workdir=workdir,
                prompt=PROMPT,
                home_dir=home,
            )
        )
        return run_in_netns(
            invocation.argv, invocation.env, workdir, socket_path, PORT, timeout, run_dir=root / "run"
        )
    finally:
        server.shutdown()
        server.server_close()


def describe(result: NetnsResult) -> str:
    return (
        f"exit {result.returncode}, timed out: {result.timed_out}\n"
        f"--- stdout (tail)\n{result.stdout[-3000:]}\n--- stderr (tail)\n{result.stderr[-3000:]}"
    )


def anonymize(value: Any, root: Path) -> Any:
    """Replace this run's temp paths by placeholders, so that the fixtures diff cleanly."""
    text = json.dumps(value)
    for path, name in ((root / "work", "<workdir>"), (root / "home", "<home>"), (root, "<root>")):
        text = text.replace(str(path), name)
        # Claude Code and Qwen Code name per-project dirs after the cwd with every other character a dash.
        text = text.replace(re.sub(r"[^A-Za-z0-9]", "-", str(path)), f"{name[:-1]}-slug>")
    return json.loads(text)


def retry_schedule(requests: list[Recorded], started_at: float | None) -> dict[str, Any]:
    first = requests[0]
    same = [r for r in requests if r.path == first.path and r.body == first.body]
    return {
        "requests": len(requests),
        "identical_to_first": len(same),
        "seconds_after_cli_start": [round(r.at - (started_at or first.at), 2) for r in requests],
    }


def changes_from_first(first: Recorded, later: Recorded) -> dict[str, Any]:
    """Headers (with their new values) and top-level body fields that differ from the first call's."""
    volatile = {"content-length", "x-stainless-retry-count"}
    headers = {
        k: v for k, v in later.headers.items() if first.headers.get(k) != v and k.lower() not in volatile
    }
    dropped = [k for k in first.headers if k not in later.headers and k.lower() not in volatile]
    before, after = first.body, later.body
    fields = (
        sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        if isinstance(before, dict) and isinstance(after, dict)
        else ["<not JSON>"]
    )
    return {"headers_changed": headers, "headers_dropped": dropped, "body_fields_changed": fields}


def write_fixture(
    cli: HarnessCli,
    quick: Recorder,
    quick_result: NetnsResult,
    full: tuple[Recorder, NetnsResult] | None,
    root: Path,
) -> None:
    first = quick.requests[0]
    fixture: dict[str, Any] = {
        "harness": cli.name,
        "package": cli.package,
        "version": cli.version,
        "wire_api": cli.wire_api,
        "captured_with": "tests/proxy/test_harness_cli_smoke.py (FORGE_UPDATE_HARNESS_FIXTURES=1)",
        "request": {
            "method": first.method,
            "path": first.path,
            "headers": first.headers,
            "body": first.body,
        },
        "startup_seconds": round(first.at - (quick_result.started_at or first.at), 2),
        "after_500_then_400": {
            "retried_after_500": len(quick.requests) > 1,
            **retry_schedule(quick.requests, quick_result.started_at),
            "requests": [
                {
                    "path": r.path,
                    "status_answered": r.status,
                    "body_bytes": len(r.raw),
                    **changes_from_first(first, r),
                }
                for r in quick.requests
            ],
            "cli_exit_code": quick_result.returncode,
            "cli_seconds": round(quick_result.seconds, 2),
        },
    }
    if full is not None:
        recorder, result = full
        fixture["always_500"] = {
            **retry_schedule(recorder.requests, result.started_at),
            "retries": len(recorder.requests) - 1,
            "gave_up_by_itself": not result.timed_out,
            "cli_exit_code": result.returncode,
            "cli_seconds": round(result.seconds, 2),
        }
    FIXTURES.mkdir(parents=True, exist_ok=True)
    path = FIXTURES / f"{cli.name}.json"
    path.write_text(json.dumps(anonymize(fixture, root), indent=2, ensure_ascii=False) + "\n")


@pytest.mark.parametrize("name", sorted(HARNESS_CLIS))
def test_first_model_call_reaches_the_socket_and_nothing_else(name: str, short_dir: Path) -> None:
    cli = HARNESS_CLIS[name]
    assert not missing_tools(), f"missing {missing_tools()}: run .ci/setup"
    assert installed(name), not_installed_reason(name)

    recorder = Recorder(cli.wire_api, [500, 400])
    result = run_cli(cli, recorder, short_dir, timeout=120)

    assert recorder.requests, f"{name} never reached the socket\n{describe(result)}"
    first = recorder.requests[0]
    assert (first.method, first.path) == ("POST", cli.request_path), describe(result)
    headers = {k.lower(): v for k, v in first.headers.items()}
    expected_auth = f"Bearer {API_KEY}" if cli.auth_header == "authorization" else API_KEY
    assert headers.get(cli.auth_header) == expected_auth, first.headers
    assert isinstance(first.body, dict) and first.body.get("model") == MODEL, first.body
    assert first.body.get("stream") is True  # every one of them streams: the proxy must speak SSE
    assert PROMPT in json.dumps(first.body)

    # After the 500 it tried again; after the 400 it gave up by itself and said so.
    assert len(recorder.requests) >= 2, describe(result)
    assert all(r.path == cli.request_path for r in recorder.requests)
    assert not result.timed_out and result.returncode != 0, describe(result)

    # Nothing but the forwarder's loopback port (plus local Unix sockets and netlink) was connected.
    assert result.connects, "strace saw no connect(): is the CLI really traced?"
    assert any(c.family == "AF_INET" and c.address == f"127.0.0.1:{PORT}" for c in result.connects)
    assert result.outside_connects(PORT) == [], result.outside_connects(PORT)

    fixture = FIXTURES / f"{name}.json"
    if UPDATE_FIXTURES:
        full = Recorder(cli.wire_api, [500])
        full_result = run_cli(cli, full, short_dir, timeout=400)
        write_fixture(cli, recorder, result, (full, full_result), short_dir)
    else:
        assert fixture.is_file(), f"{fixture} is missing: rerun with FORGE_UPDATE_HARNESS_FIXTURES=1"
        saved = json.loads(fixture.read_text())
        # A fixture recorded with another version (or another request shape) is stale.
        assert saved["version"] == cli.version, (
            f"{fixture} is stale: rerun with FORGE_UPDATE_HARNESS_FIXTURES=1"
        )
        assert sorted(saved["request"]["body"]) == sorted(first.body), (
            f"{name} now sends other top-level fields than {fixture} records"
        )


STRACE_SAMPLE = """\
101 connect(3, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file)
102 connect(7, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.2")}, 16 <unfinished ...>
101 sendto(5, "GET / HTTP/1.1", 14, MSG_NOSIGNAL, NULL, 0) = 14
102 <... connect resumed>) = -1 ENETUNREACH (Network is unreachable)
103 connect(9, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), \
inet_pton(AF_INET6, "2606:4700::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH (Unreachable)
104 sendto(4, [{nlmsg_len=20}], 20, 0, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 20
105 connect(11, {sa_family=AF_INET, sin_port=htons(18080), sin_addr=inet_addr("127.0.0.1")}, 16) = 0
"""


def test_parse_strace_finds_every_address() -> None:
    connects = parse_strace(STRACE_SAMPLE)
    assert [(c.syscall, c.family, c.address) for c in connects] == [
        ("connect", "AF_UNIX", "/var/run/nscd/socket"),
        ("connect", "AF_INET", "10.0.0.2:53"),
        ("connect", "AF_INET6", "[2606:4700::1]:443"),
        ("sendto", "AF_NETLINK", ""),
        ("connect", "AF_INET", "127.0.0.1:18080"),
    ]
    assert connects[1].result.startswith("-1 ENETUNREACH") and connects[1].port == 53
    assert connects[4].result == "0" and connects[4].host == "127.0.0.1"


def test_run_in_netns_sees_a_dns_lookup_and_kills_the_whole_tree(short_dir: Path) -> None:
    """Whatever tries to get out is seen, and on timeout nothing started inside survives."""
    assert not missing_tools(), f"missing {missing_tools()}: run .ci/setup"
    marker = f"{4000 + os.getpid() % 1000}.5"
    script = (
        f"setsid sleep {marker} & "
        "python3 -c 'import socket\ntry: socket.getaddrinfo(\"example.com\", 80)\nexcept OSError: pass'; "
        f"echo reached; sleep {marker}"
    )
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin"}
    result = run_in_netns(
        ["bash", "-c", script], env, short_dir, short_dir / "absent.sock", PORT, 5, run_dir=short_dir / "run"
    )
    assert result.timed_out and "reached" in result.stdout, describe(result)
    assert any(c.port == 53 for c in result.outside_connects(PORT)), result.connects
    left = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, text=True)
    assert left.stdout == "", f"processes survived the namespace: {left.stdout}"
