"""The local CPU engine over real HTTP: exact log-probs, stops, batching, hot reload and clear refusals."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import torch
import uvicorn
from safetensors.torch import load_file, save_file
from transformers import AutoModelForCausalLM, PreTrainedModel

from proxy.cpu_engine import CpuEngine, create_app

BIN = Path(sys.executable).parent


class Server:
    """uvicorn serving the engine's app in a thread on a free loopback port."""

    def __init__(self, engine: CpuEngine) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(create_app(engine), log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> httpx.Client:
        self.thread.start()
        while not self.server.started:
            assert self.thread.is_alive(), "server did not start"
            time.sleep(0.01)
        self.client = httpx.Client(base_url=self.url, timeout=60)
        return self.client

    def __exit__(self, *_: object) -> None:
        self.client.close()
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()


@pytest.fixture(scope="module")
def http(tiny_model_dir: Path) -> Iterator[httpx.Client]:
    with Server(CpuEngine(tiny_model_dir, max_batch_size=8, batch_wait_s=0.05)) as client:
        yield client


@pytest.fixture(scope="module")
def reference(tiny_model_dir: Path) -> PreTrainedModel:
    return AutoModelForCausalLM.from_pretrained(tiny_model_dir).eval()


PROMPTS = [[(7 * i + 13 * j) % 2000 + 20 for j in range(5 + 9 * i)] for i in range(8)]


def _generate(http: httpx.Client, ids: list[int], **params: Any) -> dict[str, Any]:
    answer = http.post(
        "/generate", json={"input_ids": ids, "sampling_params": params, "return_logprob": True}
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def _reference_logprobs(
    model: PreTrainedModel, prompt: list[int], output: list[int], temperature: float
) -> list[float]:
    with torch.inference_mode():
        logits = model(input_ids=torch.tensor([prompt + output])).logits[0].float()
    logp = torch.log_softmax(logits / (temperature or 1.0), dim=-1)
    return [logp[len(prompt) - 1 + i, t].item() for i, t in enumerate(output)]


def test_health_and_model_info(http: httpx.Client, tiny_model_dir: Path) -> None:
    assert http.get("/health").json() == {"status": "ok"}
    info = http.get("/model_info").json()
    assert info["vocab_size"] == 2048 and info["max_context_length"] == 512
    assert info["model_path"] == str(tiny_model_dir.resolve()) and len(info["eos_token_ids"]) == 2


@pytest.mark.parametrize(("temperature", "seed"), [(0.0, None), (1.0, 11), (0.6, 5)])
def test_log_probs_match_a_separate_forward_pass(
    http: httpx.Client, reference: PreTrainedModel, temperature: float, seed: int | None
) -> None:
    params = {"temperature": temperature, "seed": seed, "max_new_tokens": 24, "ignore_eos": True}
    first = _generate(http, PROMPTS[3], **params)
    assert first == {**_generate(http, PROMPTS[3], **params), "meta_info": first["meta_info"]}
    meta = first["meta_info"]
    out = first["output_ids"]
    assert len(out) == 24 and meta["completion_tokens"] == 24 and meta["prompt_tokens"] == len(PROMPTS[3])
    assert meta["finish_reason"] == {"type": "length", "matched": None, "length": 24}
    assert [t for _, t, _ in meta["output_token_logprobs"]] == out
    got = [lp for lp, _, _ in meta["output_token_logprobs"]]
    expected = _reference_logprobs(reference, PROMPTS[3], out, temperature)
    assert max(abs(a - b) for a, b in zip(got, expected, strict=True)) < 1e-4


def test_a_nucleus_of_one_token_samples_the_greedy_token(http: httpx.Client) -> None:
    greedy = _generate(http, PROMPTS[4], temperature=0, max_new_tokens=12, ignore_eos=True)["output_ids"]
    for cut in ({"top_k": 1}, {"top_p": 1e-6}):
        sampled = _generate(
            http, PROMPTS[4], temperature=1.5, seed=3, max_new_tokens=12, ignore_eos=True, **cut
        )
        assert sampled["output_ids"] == greedy, cut


def test_stop_token_ids_end_the_output_and_are_kept(http: httpx.Client) -> None:
    free = _generate(http, PROMPTS[1], temperature=0, max_new_tokens=20, ignore_eos=True)["output_ids"]
    stop = free[5]
    cut = free[: free.index(stop) + 1]
    answer = _generate(
        http, PROMPTS[1], temperature=0, max_new_tokens=20, stop_token_ids=[stop], ignore_eos=True
    )
    assert answer["output_ids"] == cut
    assert answer["meta_info"]["finish_reason"] == {"type": "stop", "matched": stop, "length": None}


def test_a_full_context_ends_with_length(http: httpx.Client) -> None:
    almost = [100] * 509
    answer = _generate(http, almost, temperature=0, max_new_tokens=50, ignore_eos=True)
    assert len(answer["output_ids"]) == 3 and answer["meta_info"]["finish_reason"]["type"] == "length"
    full = _generate(http, [100] * 512, temperature=0, max_new_tokens=5)
    assert full["output_ids"] == [] and full["meta_info"]["finish_reason"]["type"] == "length"


def test_concurrent_requests_are_batched_and_get_their_solo_answers(http: httpx.Client) -> None:
    def params(i: int) -> dict[str, Any]:
        if i % 2:
            return {"temperature": 1.0, "seed": i, "max_new_tokens": 16 + i, "ignore_eos": True}
        return {"temperature": 0, "max_new_tokens": 32}

    solo = [_generate(http, p, **params(i))["output_ids"] for i, p in enumerate(PROMPTS)]
    before = http.get("/metrics").json()

    async def together() -> list[list[int]]:
        async with httpx.AsyncClient(base_url=str(http.base_url), timeout=60) as client:
            bodies = [{"input_ids": p, "sampling_params": params(i)} for i, p in enumerate(PROMPTS)]
            answers = await asyncio.gather(*(client.post("/generate", json=b) for b in bodies))
        return [a.json()["output_ids"] for a in answers]

    assert asyncio.run(together()) == solo
    after = http.get("/metrics").json()
    assert after["requests"] - before["requests"] == 8
    assert after["batches"] - before["batches"] < 8 and after["max_batch_size_seen"] > 1


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"sampling_params": {"max_new_tokens": 4}}, "input_ids: Field required"),
        ({"input_ids": []}, "input_ids"),
        ({"input_ids": [1, 2048]}, "out of the vocabulary"),
        ({"input_ids": [1, -3]}, ">= 0"),
        ({"input_ids": [1], "sampling_params": {"max_new_tokens": 0}}, "max_new_tokens"),
        ({"input_ids": [1], "sampling_params": {"temperature": -1}}, "temperature"),
        ({"input_ids": [1], "sampling_params": {"frequency_penalty": 1}}, "frequency_penalty"),
        ({"input_ids": [1] * 513}, "exceeds the context"),
    ],
)
def test_bad_requests_are_refused_clearly(http: httpx.Client, body: dict[str, Any], says: str) -> None:
    answer = http.post("/generate", json=body)
    assert answer.status_code == 400
    assert says in answer.json()["error"]["message"]


def test_invalid_json_is_refused(http: httpx.Client) -> None:
    answer = http.post("/generate", content=b"{not json", headers={"content-type": "application/json"})
    assert answer.status_code == 400 and "JSON" in answer.json()["error"]["message"]


def _perturb(model_dir: Path) -> None:
    path = model_dir / "model.safetensors"
    state = load_file(path)
    generator = torch.Generator().manual_seed(0)
    state = {k: v + 0.05 * torch.randn(v.shape, generator=generator) for k, v in state.items()}
    save_file(state, path, metadata={"format": "pt"})


def test_reload_swaps_weights_from_disk(tiny_model_dir: Path, tmp_path: Path) -> None:
    model_dir = shutil.copytree(tiny_model_dir, tmp_path / "model")
    with Server(CpuEngine(model_dir)) as http:
        before = _generate(http, PROMPTS[2], temperature=0, max_new_tokens=16, ignore_eos=True)
        assert before["meta_info"]["weight_version"] == 0
        _perturb(model_dir)
        assert http.post("/reload", json={}).json()["weight_version"] == 1
        after = _generate(http, PROMPTS[2], temperature=0, max_new_tokens=16, ignore_eos=True)
        assert after["output_ids"] != before["output_ids"] and after["meta_info"]["weight_version"] == 1

        wrong = shutil.copytree(tiny_model_dir, tmp_path / "wrong")
        save_file({"lm_head.weight": torch.zeros(3, 3)}, wrong / "model.safetensors")
        refused = http.post("/reload", json={"path": str(wrong)})
        assert refused.status_code == 400 and "do not fit" in refused.json()["error"]["message"]
        missing = http.post("/reload", json={"path": str(tmp_path / "nowhere")})
        assert missing.status_code == 400 and "no model.safetensors" in missing.json()["error"]["message"]
        still = _generate(http, PROMPTS[2], temperature=0, max_new_tokens=16, ignore_eos=True)
        assert still["output_ids"] == after["output_ids"]

        original = http.post("/reload", json={"path": str(tiny_model_dir), "weight_version": 7}).json()
        assert original["weight_version"] == 7
        back = _generate(http, PROMPTS[2], temperature=0, max_new_tokens=16, ignore_eos=True)
        assert back["output_ids"] == before["output_ids"]
        assert http.get("/metrics").json()["weight_version"] == 7
        assert http.get("/model_info").json()["model_path"] == str(tiny_model_dir.resolve())


def test_cli_serves_the_engine(tiny_model_dir: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = [str(BIN / "forge-proxy"), "engine", "local", "--model", str(tiny_model_dir), "--port", str(port)]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "engine did not come up"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health").is_success:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        answer = httpx.post(
            f"http://127.0.0.1:{port}/generate",
            json={"input_ids": [1, 2, 3], "sampling_params": {"temperature": 0, "max_new_tokens": 4}},
        )
        assert answer.status_code == 200 and answer.json()["meta_info"]["completion_tokens"] <= 4
    finally:
        process.terminate()
        process.communicate(timeout=30)  # also closes the stderr pipe
