"""`forge-proxy serve` and `forge-proxy export` as a user runs them: a real process on a Unix socket for
the model routes and another (or a loopback port) for the control routes."""

from __future__ import annotations

import json
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import openai

BIN = Path(sys.executable).parent


def _wait_for(proc: subprocess.Popen[str], *paths: Path) -> None:
    deadline = time.monotonic() + 30
    while not all(p.exists() for p in paths):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read() if proc.stdout else ""
        time.sleep(0.1)


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.terminate()
    out, _ = proc.communicate(timeout=10)
    return out


def test_serve_on_a_unix_socket_then_export(tmp_path: Path) -> None:
    sock = tmp_path / "proxy.sock"
    run_dir = tmp_path / "run"
    control_sock = run_dir / "control.sock"
    proc = subprocess.Popen(
        [
            str(BIN / "forge-proxy"),
            "serve",
            "--engine",
            "scripted",
            "--command",
            "echo hi",
            "--uds",
            str(sock),
            "--run-dir",
            str(run_dir),
            "--model",
            "policy",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = ""
    try:
        _wait_for(proc, sock, control_sock)
        assert stat.S_IMODE(control_sock.stat().st_mode) == 0o600
        http = httpx.Client(transport=httpx.HTTPTransport(uds=str(sock)), base_url="http://localhost")
        control = httpx.Client(
            transport=httpx.HTTPTransport(uds=str(control_sock)), base_url="http://localhost"
        )
        with http, control:
            client = openai.OpenAI(base_url="http://localhost/rollouts/r1/v1", api_key="x", http_client=http)
            tools = [
                {
                    "type": "function",
                    "function": {
                        "name": "bash",
                        "parameters": {"type": "object", "properties": {"command": {"type": "string"}}},
                    },
                }
            ]
            answer = client.chat.completions.create(
                model="policy", messages=[{"role": "user", "content": "go"}], tools=tools
            )
            assert json.loads(answer.choices[0].message.tool_calls[0].function.arguments) == {
                "command": "echo hi"
            }
            assert http.post("/rollouts/r1/reward", json={"reward": 1}).status_code == 404
            assert http.post("/admin/pause").status_code == 404
            assert control.post("/rollouts/r1/reward", json={"reward": 1}).json()["reward"] == 1.0
            status = control.get("/admin/status").json()
            assert status == {"paused": False, "in_flight": 0, "policy_version": 0}
    finally:
        output = _stop(proc)
    assert f"model routes listening on unix:{sock}" in output, output
    assert f"control routes listening on unix:{control_sock}" in output, output
    assert not sock.exists() and not control_sock.exists()  # removed on exit
    out = subprocess.run(
        [str(BIN / "forge-proxy"), "export", str(run_dir), "-o", str(tmp_path / "r.sft.jsonl")],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    example = json.loads((tmp_path / "r.sft.jsonl").read_text())
    assert example["rollout_id"] == "r1" and example["reward"] == 1.0
    chains = subprocess.run(
        [str(BIN / "forge-proxy"), "export", str(run_dir), "-o", str(tmp_path / "c.jsonl")],
        capture_output=True,
        text=True,
    )
    assert (
        chains.returncode == 0 and "0 chain(s) from 1 rollout(s)" in chains.stdout
    )  # no token ids: no chains


def test_serve_control_on_a_loopback_port_and_a_named_socket(tmp_path: Path) -> None:
    """`--control-port N` puts the control routes on 127.0.0.1:N (the model app keeps its own address);
    `--control-uds PATH` on that socket."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sock = tmp_path / "model.sock"
    base = [str(BIN / "forge-proxy"), "serve", "--uds", str(sock), "--run-dir", str(tmp_path / "run")]
    proc = subprocess.Popen(
        [*base, "--control-port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        _wait_for(proc, sock)
        assert not (tmp_path / "run" / "control.sock").exists()
        deadline = time.monotonic() + 30
        while True:
            try:
                status = httpx.get(f"http://127.0.0.1:{port}/admin/status")
                break
            except httpx.ConnectError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert status.json()["paused"] is False
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(sock)), base_url="http://localhost") as model:
            assert model.get("/admin/status").status_code == 404
            assert model.get("/health").json()["ok"] is True
    finally:
        output = _stop(proc)
    assert f"control routes listening on http://127.0.0.1:{port}" in output, output
    named = tmp_path / "ctl" / "c.sock"
    proc = subprocess.Popen(
        [*base, "--control-uds", str(named)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        _wait_for(proc, sock, named)
        transport = httpx.HTTPTransport(uds=str(named))
        with httpx.Client(transport=transport, base_url="http://localhost") as control:
            assert control.post("/admin/resume", json={"policy_version": 4}).json()["policy_version"] == 4
    finally:
        output = _stop(proc)
    assert f"control routes listening on unix:{named}" in output, output
    both = subprocess.run(
        [*base, "--control-port", str(port), "--control-uds", str(named)], capture_output=True, text=True
    )
    assert both.returncode == 2 and "not both" in both.stderr


def test_serve_refuses_bad_engine_options(tmp_path: Path) -> None:
    out = subprocess.run(
        [str(BIN / "forge-proxy"), "serve", "--engine", "vllm", "--run-dir", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert out.returncode != 0 and "needs --upstream" in out.stderr


def test_serve_the_oracle_for_a_catalog(tmp_path: Path) -> None:
    """`forge-proxy serve --engine oracle --catalog DIR`: any client's call is answered with its task's
    solution through the client's shell tool; the task is found from the instruction."""
    repo = Path(__file__).resolve().parents[2]
    refused = subprocess.run(
        [str(BIN / "forge-proxy"), "serve", "--engine", "oracle", "--uds", str(tmp_path / "x.sock")],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and "needs --catalog" in " ".join(refused.stderr.split())
    sock = tmp_path / "oracle.sock"
    argv = ["serve", "--engine", "oracle", "--catalog", str(repo / "catalog" / "basics"), "--uds", str(sock)]
    proc = subprocess.Popen(
        [str(BIN / "forge-proxy"), *argv, "--run-dir", str(tmp_path / "run"), "--accept-any-model"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not sock.exists():
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        instruction = (repo / "catalog" / "basics" / "sort-names" / "instruction.md").read_text()
        parameters = {"type": "object", "properties": {"cmd": {"type": "string"}}}
        tool = {"type": "function", "function": {"name": "run", "parameters": parameters}}
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(sock)), base_url="http://localhost") as http:
            client = openai.OpenAI(base_url="http://localhost/v1", api_key="x", http_client=http)
            answer = client.chat.completions.create(
                model="any", messages=[{"role": "user", "content": f"Task:\n{instruction}"}], tools=[tool]
            )
        call = answer.choices[0].message.tool_calls[0].function
        assert call.name == "run"
        assert json.loads(call.arguments) == {"cmd": "cd /app && sort /app/names.txt > /app/sorted.txt"}
    finally:
        _stop(proc)
