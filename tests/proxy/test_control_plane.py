"""The control plane is apart from the model app, and bounded.

Sandboxes reach the model app; rewards, rollout records and settings, pause / drain / resume are only on
the control app. Every control input is bounded (a huge negative policy version once broke every later
call), deep or huge JSON is a 400 on any route, and a call the store cannot record is answered with an
error saying so, while the calls it shared a group commit with are recorded as usual.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import anthropic
import httpx
import openai
import pytest

from proxy.app import create_app, create_apps
from proxy.bodies import MAX_JSON_DEPTH, json_depth_exceeds
from proxy.config import ProxyConfig, SamplingOverrides
from proxy.control import MAX_POLICY_VERSION, Control
from proxy.engines.scripted import ScriptedEngine
from proxy.record_writer import RecordWriter
from proxy.records import CallRecord, CallStatus, WireApi
from proxy.serving import BackgroundServer
from proxy.session import ProxySession
from proxy.store import CallStore

CHAT = {"model": "policy", "messages": [{"role": "user", "content": "hi"}]}
CONTROL_ROUTES = [
    ("POST", "/rollouts/r1/reward", {"reward": 1.0}),
    ("GET", "/rollouts/r1", None),
    ("PUT", "/rollouts/r1/config", {"max_tokens": 8}),
    ("POST", "/admin/pause", None),
    ("POST", "/admin/drain", None),
    ("POST", "/admin/resume", {"policy_version": 1}),
    ("GET", "/admin/status", None),
]
PATH_TRICKS = [
    "/rollouts/x/v1/../../admin/pause",
    "/rollouts/x/v1/%2e%2e/%2e%2e/admin/pause",
    "/rollouts/x/v1/..%2F..%2Fadmin/pause",
    "/admin%2Fpause",
    "/%61dmin/pause",
    "//admin/pause",
    "/admin/pause/",
    "/rollouts/r1/v1/../reward",
    "/rollouts/r1/reward/",
    "/rollouts/r1%2Freward",
]


@pytest.fixture
def proxies(tmp_path: Path) -> Iterator[tuple[BackgroundServer, BackgroundServer, CallStore]]:
    store = CallStore.for_run(tmp_path / "run")
    config = ProxyConfig(models=["policy"], overrides=SamplingOverrides(temperature=1.0, max_tokens=64))
    apps = create_apps(ScriptedEngine(), store, config)
    with BackgroundServer(apps.model) as model, BackgroundServer(apps.control) as control:
        yield model, control, store
    store.close()


def _raw(server: BackgroundServer, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
    """A request with the path exactly as given (no client-side normalisation)."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        conn.putheader("content-type", "application/json")
        conn.putheader("content-length", str(len(body)))
        conn.endheaders(body)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_control_routes_are_404_on_the_model_app_and_work_on_the_control_app(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore],
) -> None:
    model, control, store = proxies
    for method, path, body in CONTROL_ROUTES:
        for prefix in ("", "/rollouts/r1"):  # also under a rollout's own base URL
            answer = httpx.request(method, f"{model.url}{prefix}{path}", json=body)
            assert answer.status_code == 404, (method, prefix + path, answer.text)
    for path in PATH_TRICKS:
        for method in ("POST", "GET", "PUT"):
            status, text = _raw(model, method, path, b'{"reward": 1, "policy_version": 9}')
            assert status == 404, (method, path, status, text)
    assert httpx.get(f"{model.url}/openapi.json").status_code == 404
    assert httpx.get(f"{model.url}/health").json()["ok"] is True
    assert store.rollout("r1") is None, "nothing reached the store"
    status = httpx.get(f"{control.url}/admin/status").json()
    assert status == {"paused": False, "in_flight": 0, "policy_version": 0}

    with httpx.Client(base_url=control.url) as c:
        assert c.post("/rollouts/r1/reward", json={"reward": 1.0}).json()["reward"] == 1.0
        assert c.get("/rollouts/r1").json()["rewards"] == {"reward": 1.0}
        assert c.put("/rollouts/r1/config", json={"max_tokens": 8}).json() == {"max_tokens": 8}
        assert c.post("/admin/pause").json()["paused"] is True
        assert c.post("/admin/drain").json()["in_flight"] == 0
        assert c.post("/admin/resume", json={"policy_version": 1}).json()["policy_version"] == 1
        assert c.get("/admin/status").json() == {"paused": False, "in_flight": 0, "policy_version": 1}
        # the model routes are not on the control app either
        assert c.post("/v1/chat/completions", json=CHAT).status_code == 404


def _problem(answer: httpx.Response) -> str:
    message: str = answer.json()["error"]["message"]
    return message


def test_policy_version_is_bounded_and_a_bad_one_breaks_nothing(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore],
) -> None:
    model, control, store = proxies
    client = openai.OpenAI(base_url=f"{model.url}/rollouts/after/v1", api_key="x", max_retries=0)
    with httpx.Client(base_url=control.url) as c:
        for bad in (-(10**23), -1, MAX_POLICY_VERSION + 1, 10**30, 1.5, "3", True, None):
            answer = c.post("/admin/resume", json={"policy_version": bad})
            if bad is None:  # no version: resume without changing it
                assert answer.status_code == 200
                continue
            assert answer.status_code == 422, (bad, answer.text)
            assert "policy_version" in _problem(answer), answer.text
        assert c.get("/admin/status").json()["policy_version"] == 0
        assert c.post("/admin/resume", json={"policy_versio": 3}).status_code == 422  # a typo is no no-op
        answer = client.chat.completions.create(model="policy", messages=[{"role": "user", "content": "hi"}])
        assert answer.choices[0].message is not None
        top = c.post("/admin/resume", json={"policy_version": MAX_POLICY_VERSION})
        assert top.json()["policy_version"] == MAX_POLICY_VERSION
        client.chat.completions.create(model="policy", messages=[{"role": "user", "content": "again"}])
    calls = store.calls("after")
    assert [(c.status, c.policy_version) for c in calls] == [
        (CallStatus.OK, 0),
        (CallStatus.OK, MAX_POLICY_VERSION),
    ]
    with pytest.raises(ValueError, match="policy_version"):
        Control().resume(-(10**23))


def test_drain_timeout_is_finite_and_bounded(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore],
) -> None:
    _, control, _ = proxies
    with httpx.Client(base_url=control.url) as c:
        for bad in ("inf", "nan", "-1", "3601", "1e400", "soon"):
            answer = c.post("/admin/drain", params={"timeout": bad})
            assert answer.status_code == 422 and "timeout" in _problem(answer), (bad, answer.text)
        assert c.get("/admin/status").json()["paused"] is False  # a refused drain did not pause
        assert c.post("/admin/drain", params={"timeout": 3600}).json()["in_flight"] == 0
    with pytest.raises(ValueError, match="timeout"):
        asyncio.run(Control().drain(float("inf")))


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({"temperature": 10.5}, "temperature"),
        ({"temperature": -0.1}, "temperature"),
        ({"top_p": 0}, "top_p"),
        ({"top_p": 1.5}, "top_p"),
        ({"max_tokens": 2**31}, "max_tokens"),
        ({"max_tokens": 0}, "max_tokens"),
        ({"max_tokens": 10**30}, "max_tokens"),
        ({"model": ""}, "model"),
        ({"max_tokenz": 5}, "max_tokenz"),
    ],
)
def test_rollout_settings_out_of_bounds_are_refused_naming_the_field(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore], settings: dict[str, Any], field: str
) -> None:
    _, control, _ = proxies
    answer = httpx.put(f"{control.url}/rollouts/r/config", json=settings)
    assert answer.status_code == 422 and field in _problem(answer), answer.text


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_numbers_are_refused(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore], literal: str
) -> None:
    """Python's JSON reads NaN and Infinity; no control input takes them."""
    _, control, store = proxies
    headers = {"content-type": "application/json"}
    for path, method, body in (
        ("/rollouts/r/config", "PUT", f'{{"temperature": {literal}}}'),
        ("/rollouts/r/config", "PUT", f'{{"max_tokens": {literal}}}'),
        ("/rollouts/r/reward", "POST", f'{{"reward": {literal}}}'),
        ("/rollouts/r/reward", "POST", f'{{"rewards": {{"pass": {literal}}}}}'),
    ):
        answer = httpx.request(method, f"{control.url}{path}", content=body, headers=headers)
        assert answer.status_code == 422 and "finite" in _problem(answer), (body, answer.text)
    assert store.rollout("r") is None
    with pytest.raises(ValueError, match="finite"):
        SamplingOverrides(temperature=float("nan"))


def test_a_reward_needs_a_value(proxies: tuple[BackgroundServer, BackgroundServer, CallStore]) -> None:
    _, control, _ = proxies
    answer = httpx.post(f"{control.url}/rollouts/r/reward", json={"metadata": {"a": 1}})
    assert answer.status_code == 400 and "give reward or rewards" in _problem(answer)
    assert httpx.post(f"{control.url}/rollouts/r/reward", json=[1]).status_code == 422


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_deep_json_is_a_400_in_each_model_routes_error_shape(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore],
) -> None:
    model, _, store = proxies
    within = {**CHAT, "metadata": json.loads(_nested(MAX_JSON_DEPTH - 1))}  # the body is MAX deep
    assert httpx.post(f"{model.url}/rollouts/ok/v1/chat/completions", json=within).status_code == 200
    for depth in (100_000, 1_000, MAX_JSON_DEPTH + 1):
        deep = f'{{"model": "policy", "messages": [], "metadata": {_nested(depth - 1)}}}'
        for path in ("/v1/chat/completions", "/v1/responses"):
            answer = httpx.post(f"{model.url}/rollouts/deep{path}", content=deep)
            assert answer.status_code == 400, (depth, path, answer.text)
            assert answer.json()["error"]["type"] == "invalid_request_error"
            assert "nests JSON too deeply" in answer.json()["error"]["message"]
        messages = httpx.post(f"{model.url}/rollouts/deep/v1/messages", content=deep)
        assert messages.status_code == 400 and messages.json()["type"] == "error"
        assert "nests JSON too deeply" in messages.json()["error"]["message"]
        count = httpx.post(f"{model.url}/v1/messages/count_tokens", content=deep)
        assert count.status_code == 400 and "too deeply" in count.text
    recorded = store.calls("deep")
    assert len(recorded) == 9 and all(c.status is CallStatus.REJECTED for c in recorded)
    assert all(c.http_status == 400 and isinstance(c.request, str) for c in recorded)
    # the SDKs see it as their own bad-request error
    client = anthropic.Anthropic(base_url=model.url, api_key="x", max_retries=0)
    with pytest.raises(anthropic.BadRequestError, match="too deeply"):
        client.messages.create(
            model="policy",
            max_tokens=8,
            messages=[{"role": "user", "content": "hi"}],
            metadata=json.loads(_nested(500)),  # type: ignore[arg-type]
        )


def test_deep_json_is_a_400_on_control_routes(
    proxies: tuple[BackgroundServer, BackgroundServer, CallStore],
) -> None:
    _, control, store = proxies
    for depth in (100_000, 1_000, MAX_JSON_DEPTH + 1):
        for method, path in (
            ("POST", "/rollouts/r/reward"),
            ("PUT", "/rollouts/r/config"),
            ("POST", "/admin/resume"),
        ):
            body = f'{{"reward": 1, "metadata": {{"x": {_nested(depth - 2)}}}}}'
            answer = httpx.request(method, f"{control.url}{path}", content=body)
            assert answer.status_code == 400, (depth, path, answer.text)
            assert "nests JSON too deeply" in _problem(answer)
    huge = b'{"reward": 1, "metadata": {"x": "' + b"a" * (2 * 1024 * 1024) + b'"}}'
    answer = httpx.post(f"{control.url}/rollouts/r/reward", content=huge)
    assert answer.status_code == 413 and "limit" in _problem(answer)
    assert store.rollout("r") is None
    assert httpx.get(f"{control.url}/admin/status").json()["policy_version"] == 0


def test_the_depth_walk_is_exact_and_not_recursive() -> None:
    assert not json_depth_exceeds(json.loads(_nested(128)), 128)
    assert json_depth_exceeds(json.loads(_nested(129)), 128)
    assert not json_depth_exceeds({"a": [1, {"b": [2]}]}, 4) and json_depth_exceeds({"a": [{"b": [2]}]}, 3)
    assert not json_depth_exceeds("text", 0) and json_depth_exceeds([], 0)
    deep: list[Any] = []
    for _ in range(100_000):  # deeper than any recursion limit
        deep = [deep]
    assert json_depth_exceeds(deep, 128)


class PoisonStore(CallStore):
    """Refuses records of some rollouts, like a record SQLite cannot take (an int64 overflow); keeps
    every batch it was given, and holds its first batch so that calls pile up into one group commit."""

    def __init__(self, path: Path, *, always: str = "poison", ok_only: str = "poison-ok") -> None:
        super().__init__(path)
        self.always, self.ok_only = always, ok_only
        self.batches: list[list[str]] = []
        self.release = threading.Event()

    def record_many(self, calls: Sequence[CallRecord]) -> list[CallRecord]:
        self.batches.append([c.rollout_id for c in calls])
        if len(self.batches) == 1:
            self.release.wait(10)
        for call in calls:
            if call.rollout_id == self.always or (
                call.rollout_id == self.ok_only and call.status is CallStatus.OK
            ):
                raise sqlite3.IntegrityError(f"cannot store a record of {call.rollout_id}")
        return super().record_many(calls)


def test_a_call_the_store_cannot_record_is_answered_with_that_error(tmp_path: Path) -> None:
    store = PoisonStore(tmp_path / "run" / "calls.sqlite")
    with BackgroundServer(create_app(ScriptedEngine(), store, ProxyConfig(models=["policy"]))) as server:

        def ask(client: httpx.Client, rollout: str, path: str = "/v1/chat/completions") -> httpx.Response:
            body: dict[str, Any] = {**CHAT, "max_tokens": 16} if "messages" in path else CHAT
            return client.post(f"/rollouts/{rollout}{path}", json=body)

        rollouts = ["first", "a", "poison", "b", "poison-ok", "c"]
        answers: dict[str, httpx.Response] = {}
        with httpx.Client(base_url=server.url, timeout=30) as client:
            threads = [
                threading.Thread(target=lambda r=r: answers.__setitem__(r, ask(client, r)))  # type: ignore[misc]
                for r in rollouts
            ]
            threads[0].start()
            time.sleep(0.3)  # "first" holds the writer; the others pile up behind it
            for thread in threads[1:]:
                thread.start()
            time.sleep(0.5)
            store.release.set()
            for thread in threads:
                thread.join(30)
            messages = ask(client, "poison", "/v1/messages")
    assert any({"a", "poison", "b"} <= set(batch) for batch in store.batches), store.batches
    for rollout in ("first", "a", "b", "c"):
        assert answers[rollout].status_code == 200, answers[rollout].text
        (call,) = store.calls(rollout)
        assert call.status is CallStatus.OK
    for rollout in ("poison", "poison-ok"):
        answer = answers[rollout]
        assert answer.status_code == 500, answer.text
        error = answer.json()["error"]
        assert error["type"] == "api_error" and "choices" not in answer.json()
        assert error["message"].startswith("the call was served but could not be recorded: IntegrityError")
    assert messages.status_code == 500 and messages.json()["type"] == "error"
    assert "could not be recorded" in messages.json()["error"]["message"]
    assert store.calls("poison") == []  # its error could not be recorded either, and it still answered
    (failed,) = store.calls("poison-ok")  # the error record was
    assert failed.status is CallStatus.FAILED and failed.http_status == 500
    assert failed.error is not None and "could not be recorded" in failed.error
    store.close()


def test_the_writer_retries_a_failed_batch_record_by_record(tmp_path: Path) -> None:
    store = PoisonStore(tmp_path / "calls.sqlite")
    writer = RecordWriter(store)

    async def write_all() -> list[CallRecord | BaseException]:
        def record(rollout: str) -> CallRecord:
            return CallRecord(rollout_id=rollout, call_id=f"c-{rollout}", wire_api=WireApi.CHAT)

        first = asyncio.ensure_future(writer.write(record("first")))
        await asyncio.sleep(0.2)
        rest = [asyncio.ensure_future(writer.write(record(r))) for r in ("x", "poison", "y", "z")]
        await asyncio.sleep(0.2)
        store.release.set()
        return await asyncio.gather(first, *rest, return_exceptions=True)

    results = asyncio.run(write_all())
    writer.close()
    assert store.batches[1] == ["x", "poison", "y", "z"]  # one group commit, refused as a whole
    assert isinstance(results[2], sqlite3.IntegrityError)
    assert [r.rollout_id for r in results if isinstance(r, CallRecord)] == ["first", "x", "y", "z"]
    assert [len(store.calls(r)) for r in ("first", "x", "poison", "y", "z")] == [1, 1, 0, 1, 1]
    store.close()


def test_a_proxy_session_serves_control_on_its_own_socket(tmp_path: Path) -> None:
    with ProxySession(ScriptedEngine(), tmp_path / "proxy") as proxy:
        assert proxy.endpoint == f"unix:{proxy.socket}"
        assert proxy.control_socket != proxy.socket
        assert proxy.control_socket.parent != proxy.socket.parent  # not in the folder of model sockets
        assert stat.S_IMODE(proxy.control_socket.stat().st_mode) == 0o600
        model = httpx.Client(transport=httpx.HTTPTransport(uds=str(proxy.socket)), base_url="http://p")
        control = httpx.Client(
            transport=httpx.HTTPTransport(uds=str(proxy.control_socket)), base_url="http://p"
        )
        with model, control:
            assert model.post("/rollouts/r/v1/chat/completions", json=CHAT).status_code == 200
            for method, path, body in CONTROL_ROUTES:
                assert model.request(method, path, json=body).status_code == 404, path
            assert control.post("/rollouts/r/reward", json={"reward": 0.5}).json()["reward"] == 0.5
            assert control.post("/admin/pause").json()["paused"] is True
            assert model.post("/rollouts/r/v1/chat/completions", json=CHAT).status_code == 429
            assert control.post("/admin/resume", json={"policy_version": 2}).json()["paused"] is False
            assert model.post("/rollouts/r/v1/chat/completions", json=CHAT).status_code == 200
        assert [c.policy_version for c in proxy.store.calls("r")] == [0, 0, 2]
        sockets = (proxy.socket, proxy.control_socket)
    assert not any(s.exists() for s in sockets)
