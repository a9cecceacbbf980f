"""From inside a model-only sandbox, an agent reaches its own rollout's model routes and nothing else:
not its reward, not the shared proxy's pause/resume or policy version, not its sampling settings, not
another rollout's routes; and what it tried changes nothing."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import httpx
import pytest

from envs.sandbox import SandboxSpec, create_sandbox
from envs.task_config import NetworkMode
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.engines.scripted import ScriptedEngine
from proxy.session import ProxySession

pytestmark = pytest.mark.docker

ROLLOUT = "victim--forge-react-0001"
CHAT = {"model": "forge-policy", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 16}
ATTEMPTS = [
    ("POST", f"/rollouts/{ROLLOUT}/reward", {"reward": 1.0}),
    ("POST", "/rollouts/other/reward", {"reward": 1.0}),
    ("GET", f"/rollouts/{ROLLOUT}", None),
    ("PUT", f"/rollouts/{ROLLOUT}/config", {"max_tokens": 1_000_000, "temperature": 0.0}),
    ("POST", "/admin/pause", None),
    ("POST", "/admin/drain", None),
    ("POST", "/admin/resume", {"policy_version": 7}),
    ("POST", "/admin/resume", {"policy_version": -(10**23)}),
    ("GET", "/admin/status", None),
    ("POST", f"/rollouts/{ROLLOUT}/v1/../reward", {"reward": 1.0}),
    ("POST", f"/rollouts/{ROLLOUT}/v1/%2e%2e/%2e%2e/admin/pause", None),
    ("POST", "/v1/chat/completions", CHAT),
    ("POST", "/rollouts/other--x-1/v1/chat/completions", CHAT),
]


def _curl(method: str, path: str, body: object) -> str:
    data = f"-H 'content-type: application/json' --data {shlex.quote(json.dumps(body))}" if body else ""
    return (
        f'curl -s -o /tmp/out -w "%{{http_code}}" --path-as-is -X {method} {data} '
        f'-H "authorization: Bearer forge-{ROLLOUT}" "$FORGE_MODEL_URL{path}"'
    )


def _control(proxy: ProxySession, method: str, path: str) -> httpx.Response:
    transport = httpx.HTTPTransport(uds=str(proxy.control_socket))
    with httpx.Client(transport=transport, base_url="http://proxy") as client:
        return client.request(method, path)


def test_a_sandbox_reaches_only_the_model_routes_of_its_own_rollout(base_image: str, tmp_path: Path) -> None:
    config = ProxyConfig(accept_any_model=True, overrides=SamplingOverrides(temperature=1.0, max_tokens=64))
    with ProxySession(ScriptedEngine(), tmp_path / "proxy", config) as proxy:
        spec = SandboxSpec(
            image=base_image,
            network=NetworkMode.MODEL_ONLY,
            model_endpoint=proxy.endpoint,
            model_routes=[f"/rollouts/{ROLLOUT}/v1/"],
            task="control-plane",
            role="test",
        )
        with create_sandbox(spec) as sandbox:
            own = sandbox.exec(_curl("POST", f"/rollouts/{ROLLOUT}/v1/chat/completions", CHAT), timeout=30)
            assert own.stdout == "200", own
            answered = {}
            for method, path, body in ATTEMPTS:
                result = sandbox.exec(_curl(method, path, body), timeout=30)
                answered[f"{method} {path}"] = result.stdout
            again = sandbox.exec(_curl("POST", f"/rollouts/{ROLLOUT}/v1/chat/completions", CHAT), timeout=30)
        reached = {attempt: code for attempt, code in answered.items() if not code.startswith("4")}
        assert not reached, f"control or foreign routes answered from inside the sandbox: {reached}"
        assert again.stdout == "200", "the proxy still serves the rollout after every attempt"
        assert proxy.store is not None
        record = proxy.store.rollout(ROLLOUT)
        assert record is not None and record.rewards == {}, "no reward was attached"
        assert [c.status for c in proxy.store.calls(ROLLOUT)] == ["ok", "ok"], "both calls recorded"
        assert all(c.policy_version == 0 for c in proxy.store.calls(ROLLOUT))
        status = _control(proxy, "GET", "/admin/status").json()
        assert status["paused"] is False and status["policy_version"] == 0
        assert proxy.store.rollout("other") is None
