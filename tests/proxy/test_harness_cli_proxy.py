"""Real harness CLIs from npm against our proxy, each in a network namespace with loopback only.

Codex CLI (Responses), Claude Code (Messages) and Qwen Code (Chat Completions) are driven by the
scripted policy through the token path (the locally built tokenizer and chat template): it runs one
command through the CLI's own shell tool, then answers. The command really runs, every call is recorded,
the agent's own turns form one chain, and the CLI connected to nothing but the proxy.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from proxy.app import create_app
from proxy.config import ProxyConfig
from proxy.engines.scripted import ScriptedTokenEngine
from proxy.records import CallStatus
from proxy.serving import BackgroundServer
from proxy.store import CallStore
from proxy.trajectory import build_chains
from tests.proxy.harness_cli import (
    HARNESS_CLIS,
    CliRun,
    installed,
    missing_tools,
    not_installed_reason,
    run_in_netns,
)

pytestmark = pytest.mark.netns

PORT = 18080
MODEL = "forge-policy"
PROMPT = "Create the file hello.txt containing the word forged."
COMMAND = "echo forged > hello.txt"
WIRE = {"codex": "responses", "claude": "messages", "qwen": "chat.completions"}


@pytest.fixture
def short_dir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="forge-cli-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.parametrize("name", sorted(WIRE))
def test_harness_runs_the_scripted_policy_through_the_proxy(
    name: str, short_dir: Path, tiny_model_dir: Path
) -> None:
    cli = HARNESS_CLIS[name]
    assert not missing_tools(), f"missing {missing_tools()}: run .ci/setup"
    assert installed(name), not_installed_reason(name)
    workdir, home, socket_path = short_dir / "work", short_dir / "home", short_dir / "proxy.sock"
    workdir.mkdir()
    home.mkdir()
    store = CallStore.for_run(short_dir / "run")
    engine = ScriptedTokenEngine(
        tiny_model_dir, commands=[COMMAND], final="Created hello.txt.", reasoning="The shell can do this."
    )
    app = create_app(engine, store, ProxyConfig(models=[MODEL], accept_any_model=True))
    with BackgroundServer(app, uds=socket_path):
        invocation = cli.invocation(
            CliRun(
                base_url=f"http://127.0.0.1:{PORT}/rollouts/{name}",
                api_key="forge-key",
                model=MODEL,
                workdir=workdir,
                prompt=PROMPT,
                home_dir=home,
            )
        )
        result = run_in_netns(
            invocation.argv,
            invocation.env,
            workdir,
            socket_path,
            PORT,
            timeout=240,
            run_dir=short_dir / "netns",
        )
    describe = f"exit {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    assert result.returncode == 0 and not result.timed_out, describe
    assert (workdir / "hello.txt").read_text().strip() == "forged", describe
    assert result.outside_connects(PORT) == [], result.outside_connects(PORT)

    calls = store.calls(name)
    assert calls and all(c.status is CallStatus.OK for c in calls), [(c.http_status, c.error) for c in calls]
    assert {c.wire_api.value for c in calls} == {WIRE[name]}
    assert all(c.stream for c in calls)
    trajectory = build_chains(calls)
    # the agent's own conversation: the turn that called the shell, then the turn after its output
    agent = [ch for ch in trajectory.chains if len(ch.call_seqs) >= 2]
    assert len(agent) == 1, (trajectory.diagnostics, [ch.call_seqs for ch in trajectory.chains])
    chain = agent[0]
    assert sum(chain.response_mask) == sum(len(calls[s].completion_ids or []) for s in chain.call_seqs)
    assert 0 in chain.response_mask  # the tool output between the two turns
    store.close()
