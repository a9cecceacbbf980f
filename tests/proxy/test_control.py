"""Forced sampling (per proxy and per rollout: a rollout only tightens what the proxy forces), model
listing, and drain waiting for calls in flight."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import anthropic
import httpx
import openai

from proxy.app import create_app, create_apps
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.conversation import Generation, GenerationRequest
from proxy.engines.base import Engine
from proxy.serving import BackgroundServer
from proxy.store import CallStore


class EchoEngine(Engine):
    """Answers with the model name and sampling settings it was asked with (after overrides)."""

    name = "echo"

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay

    async def generate(self, request: GenerationRequest) -> Generation:
        await asyncio.sleep(self.delay)
        s = request.sampling
        return Generation(
            text=json.dumps(
                {
                    "model": request.model,
                    "temperature": s.temperature,
                    "top_p": s.top_p,
                    "max_tokens": s.max_tokens,
                }
            )
        )


def test_overrides_per_proxy_and_per_rollout(tmp_path: Path) -> None:
    store = CallStore.for_run(tmp_path / "run")
    config = ProxyConfig(
        models=["policy"], overrides=SamplingOverrides(model="upstream-name", temperature=0.5, max_tokens=100)
    )
    apps = create_apps(EchoEngine(), store, config)
    with BackgroundServer(apps.model) as server, BackgroundServer(apps.control) as control:

        def ask(rollout: str, **kw: object) -> dict[str, object]:
            client = openai.OpenAI(base_url=f"{server.url}/rollouts/{rollout}/v1", api_key="x", max_retries=0)
            answer = client.chat.completions.create(
                model="policy", messages=[{"role": "user", "content": "hi"}], **kw
            )  # type: ignore[call-overload]
            return json.loads(answer.choices[0].message.content)

        def put(rollout: str, settings: dict[str, object]) -> httpx.Response:
            return httpx.put(f"{control.url}/rollouts/{rollout}/config", json=settings)

        assert ask("a", temperature=1.2, max_tokens=500) == {
            "model": "upstream-name",
            "temperature": 0.5,
            "top_p": None,
            "max_tokens": 100,
        }
        assert ask("a", max_tokens=20)["max_tokens"] == 20  # a cap lowers, never raises
        # what the proxy does not force, a rollout may set; its max_tokens only lowers the proxy's cap
        put("b", {"top_p": 0.8, "max_tokens": 40, "temperature": 0.5}).raise_for_status()
        assert ask("b") == {"model": "upstream-name", "temperature": 0.5, "top_p": 0.8, "max_tokens": 40}
        assert ask("b", max_tokens=10)["max_tokens"] == 10
        put("c", {"max_tokens": 1_000_000}).raise_for_status()
        assert ask("c", max_tokens=5000)["max_tokens"] == 100  # min(proxy cap, rollout cap)
        # what the proxy forces, a rollout cannot change
        refused = put("d", {"temperature": 0.9, "top_p": 0.8})
        assert refused.status_code == 409
        assert "temperature is forced to 0.5 by the proxy" in refused.json()["error"]["message"]
        other_model = put("d", {"model": "another"})
        assert other_model.status_code == 409 and "model is forced to 'upstream-name'" in other_model.text
        assert ask("d") == {"model": "upstream-name", "temperature": 0.5, "top_p": None, "max_tokens": 100}
        assert ask("a")["temperature"] == 0.5
    store.close()


def test_a_rollout_sets_what_the_proxy_does_not_force(tmp_path: Path) -> None:
    store = CallStore.for_run(tmp_path / "run")
    apps = create_apps(EchoEngine(), store, ProxyConfig(models=["policy"]))
    with BackgroundServer(apps.model) as server, BackgroundServer(apps.control) as control:
        settings = {"model": "up", "temperature": 0.9, "top_p": 0.8, "max_tokens": 7}
        assert httpx.put(f"{control.url}/rollouts/b/config", json=settings).json() == settings
        client = openai.OpenAI(base_url=f"{server.url}/rollouts/b/v1", api_key="x", max_retries=0)
        answer = client.chat.completions.create(
            model="policy", messages=[{"role": "user", "content": "hi"}], temperature=0.1, max_tokens=50
        )
    assert json.loads(answer.choices[0].message.content or "") == settings
    store.close()


def test_models_are_listed_for_both_sdks(tmp_path: Path) -> None:
    store = CallStore.for_run(tmp_path / "run")
    with BackgroundServer(
        create_app(EchoEngine(), store, ProxyConfig(models=["policy", "teacher"]))
    ) as server:
        oa = openai.OpenAI(base_url=f"{server.url}/v1", api_key="x")
        assert [m.id for m in oa.models.list()] == ["policy", "teacher"]
        an = anthropic.Anthropic(base_url=server.url, api_key="x")
        assert [m.id for m in an.models.list()] == ["policy", "teacher"]
    store.close()


def test_drain_waits_for_calls_in_flight(tmp_path: Path) -> None:
    store = CallStore.for_run(tmp_path / "run")
    apps = create_apps(EchoEngine(delay=1.5), store, ProxyConfig(models=["policy"]))
    with BackgroundServer(apps.model) as server, BackgroundServer(apps.control) as control:
        body = {"model": "policy", "messages": [{"role": "user", "content": "slow"}]}
        slow = threading.Thread(
            target=lambda: httpx.post(f"{server.url}/rollouts/s/v1/chat/completions", json=body, timeout=30)
        )
        slow.start()
        time.sleep(0.3)
        assert httpx.get(f"{control.url}/admin/status").json()["in_flight"] == 1
        started = time.monotonic()
        drained = httpx.post(f"{control.url}/admin/drain", timeout=30).json()
        assert drained == {"paused": True, "in_flight": 0, "policy_version": 0}
        assert time.monotonic() - started > 0.8  # it waited for the slow call
        slow.join()
        assert len(store.calls("s")) == 1 and store.calls("s")[0].http_status == 200
        # a drain that times out answers with what is still in flight
        httpx.post(f"{control.url}/admin/resume").raise_for_status()
        slow = threading.Thread(
            target=lambda: httpx.post(f"{server.url}/rollouts/t/v1/chat/completions", json=body, timeout=30)
        )
        slow.start()
        time.sleep(0.3)
        short = httpx.post(f"{control.url}/admin/drain", params={"timeout": 0.1}, timeout=30).json()
        assert short == {"paused": True, "in_flight": 1, "policy_version": 0}
        slow.join()
    store.close()
