"""An emulated Kubernetes API on loopback for the k8s backend's tests: kmock's KubernetesEmulator, served
from a thread with its own event loop, plus what a real API server does that kmock 0.8 leaves out.

kmock stores created objects, serves them on fetch, list and watch, merges patches (the `status`
subresource included) and deletes them. What it does not do, and this module adds on top (in the
emulator, never in the backend):

- object metadata: a uid, a resourceVersion (one counter for every change), a creationTimestamp, and
  `status.phase: Pending` on a new pod;
- `labelSelector` and `fieldSelector` on list and watch (kmock returns every object of the resource);
- `timeoutSeconds` and `resourceVersion` on a watch (kmock's watch never ends and always replays every
  object as ADDED);
- the garbage collector: deleting an object deletes, at once, every object whose ownerReferences name
  its uid (kmock has no owners);
- refusals that leave the store alone: kmock applies a create, patch or delete *before* it looks for a
  reaction, so a 429 injected on a create would still create the object. Here an injected refusal is
  answered without touching the store, unless it is injected with `applied=True`: then the change is
  made and its answer replaced (a response lost on the way back);
- watches that drop their connection (the transport is aborted after the current objects are sent), as
  an API server restart or a load balancer does.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import math
import re
import threading
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import attrs
import kmock

T = TypeVar("T")

RESOURCES: dict[str, tuple[str, str]] = {
    "v1/pods": ("Pod", "v1"),
    "v1/configmaps": ("ConfigMap", "v1"),
    "networking.k8s.io/v1/networkpolicies": ("NetworkPolicy", "networking.k8s.io/v1"),
}
"""The resources the backend uses: plural -> (kind, apiVersion), declared so an empty list is not 404."""
_END = {"type": "__end__"}
"""Put on every watch bus at shutdown: every open watch ends."""


def _split_terms(selector: str) -> list[str]:
    """A selector's comma-separated terms (commas inside `in (a,b)` do not split)."""
    terms, depth, current = [], 0, ""
    for char in selector:
        if char == "," and depth == 0:
            terms.append(current.strip())
            current = ""
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        current += char
    terms.append(current.strip())
    return [t for t in terms if t]


def labels_match(selector: str, found: dict[str, str]) -> bool:
    """A labelSelector, equality- and set-based, as the API server reads it."""
    for term in _split_terms(selector):
        if m := re.fullmatch(r"(\S+)\s+(in|notin)\s+\((.*)\)", term):
            key, op, values = m[1], m[2], {v.strip() for v in m[3].split(",")}
            if (op == "in") != (key in found and found[key] in values):
                return False
        elif m := re.fullmatch(r"([^!=\s]+)\s*(==|=|!=)\s*(\S*)", term):
            key, op, value = m[1], m[2], m[3]
            if (op == "!=") == (found.get(key) == value):
                return False
        elif term.startswith("!"):
            if term[1:].strip() in found:
                return False
        elif term not in found:
            return False
    return True


def fields_match(selector: str, obj: dict[str, Any]) -> bool:
    """A fieldSelector (`metadata.name=x`, `status.phase!=Running`, ...)."""
    for term in _split_terms(selector):
        m = re.fullmatch(r"([^!=\s]+)\s*(==|=|!=)\s*(\S*)", term)
        if m is None:
            raise kmock.KubernetesError(400, "BadRequest", f"unparsable field selector {term!r}")
        value: Any = obj
        for part in m[1].split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if (m[2] == "!=") == (str(value if value is not None else "") == m[3]):
            return False
    return True


def _revision_of(obj: dict[str, Any]) -> int:
    try:
        return int(obj.get("metadata", {}).get("resourceVersion", 0))
    except (TypeError, ValueError):
        return 0


@attrs.define(kw_only=True)
class FakeCluster(kmock.KubernetesEmulator):
    """kmock's emulator with metadata, selectors, watch timeouts, garbage collection and clean refusals."""

    revision: int = attrs.field(default=0, init=False)
    drop_watches: int = attrs.field(default=0, init=False)
    """The next this many watches are cut (their connection aborted) once the current objects are sent."""
    applied: list[kmock.Reaction] = attrs.field(factory=list, init=False)
    """Injected reactions whose request still changes the store (a lost response)."""

    def _next_revision(self) -> str:
        self.revision += 1
        return str(self.revision)

    def _injected(self, request: kmock.Request) -> kmock.Reaction | None:
        """The first reaction a test injected (any but kmock's fallbacks) that will answer `request`."""
        for payload in self._payloads:
            if -math.inf in payload.priorities or payload._disabled.is_set():
                continue
            if request in payload._source:
                return payload
        return None

    async def _handle(self, request: kmock.Request) -> Any:
        injected = self._injected(request) if request.resource is not None else None
        if injected is not None and not any(injected is a for a in self.applied):
            return await kmock.RawHandler._handle(self, request)  # refused: the store is not touched
        data = request.data if isinstance(request.data, dict) else None
        if request.action == kmock.action.CREATE and data is not None:
            meta = data.setdefault("metadata", {})
            meta["uid"] = str(uuid.uuid4())
            meta["resourceVersion"] = self._next_revision()
            meta["creationTimestamp"] = datetime.datetime.now(tz=datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            meta.setdefault("namespace", request.namespace)
            if request.resource == "v1/pods":
                data.setdefault("status", {"phase": "Pending"})
        elif request.action == kmock.action.UPDATE and data is not None:
            data.setdefault("metadata", {})["resourceVersion"] = self._next_revision()
        response = await super()._handle(request)
        if (
            request.action == kmock.action.DELETE
            and request.name is not None
            and request.resource is not None
        ):
            key = (request.resource, request.namespace, request.name)
            if key in self._objects and self._objects[key].deleted:
                uid = self._objects[key].last.get("metadata", {}).get("uid")
                async with self._lock:
                    await self._collect(uid)
        return response

    async def _collect(self, owner_uid: str | None) -> None:
        """Delete every object owned by `owner_uid`, and theirs (background propagation, done at once)."""
        if not owner_uid:
            return
        owned = []
        for (resource, _, _), obj in list(self._objects.items()):
            if obj.deleted:
                continue
            refs = obj.last.raw.get("metadata", {}).get("ownerReferences") or []
            if any(ref.get("uid") == owner_uid for ref in refs):
                owned.append((resource, obj))
        for resource, obj in owned:
            raw = obj.raw
            obj.delete()
            await self._buses[resource].put({"type": "DELETED", "object": raw})
            await self._collect(raw.get("metadata", {}).get("uid"))

    def _selected(self, request: kmock.Request, obj: dict[str, Any]) -> bool:
        meta = obj.get("metadata", {})
        if request.namespace is not None and meta.get("namespace") != request.namespace:
            return False
        if request.name is not None and meta.get("name") != request.name:
            return False
        label_selector = request.params.get("labelSelector")
        if label_selector and not labels_match(label_selector, meta.get("labels") or {}):
            return False
        field_selector = request.params.get("fieldSelector")
        return not (field_selector and not fields_match(field_selector, obj))

    def _current(self, request: kmock.Request) -> list[dict[str, Any]]:
        return [
            obj.raw
            for (resource, _, _), obj in self._objects.items()
            if resource == request.resource and not obj.deleted and self._selected(request, obj.raw)
        ]

    def _kind(self, request: kmock.Request) -> tuple[str, str]:
        for plural, found in RESOURCES.items():
            if request.resource == plural:
                return found
        raise kmock.KubernetesResourceNotFoundError()

    async def _serve_list(self, request: kmock.Request) -> kmock.Payload:
        kind, api_version = self._kind(request)
        async with self._lock:
            items = self._current(request)
            revision = str(self.revision)
        return {
            "apiVersion": api_version,
            "kind": f"{kind}List",
            "metadata": {"resourceVersion": revision},
            "items": items,
        }

    async def _serve_watch(self, request: kmock.Request) -> AsyncIterator[kmock.Payload]:
        self._kind(request)
        yield b""  # the headers go out now, as an API server's do
        loop = asyncio.get_running_loop()
        timeout = float(request.params.get("timeoutSeconds") or 0)
        deadline = loop.time() + timeout if timeout > 0 else math.inf
        since = int(request.params.get("resourceVersion") or 0)
        assert request.resource is not None
        bus = self._buses[request.resource]
        async with self._lock:
            marker = await bus.mark()  # before the snapshot: no change falls between them
            current = [obj for obj in self._current(request) if _revision_of(obj) > since]
        try:
            for obj in current:
                yield {"type": "ADDED", "object": obj}
            if self.drop_watches > 0:
                self.drop_watches -= 1
                transport = request._raw_request.transport if request._raw_request is not None else None
                if transport is not None:
                    transport.abort()
                return
            events = aiter(bus.stream(since=marker))
            while True:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return
                try:
                    event = await asyncio.wait_for(
                        anext(events), None if math.isinf(remaining) else remaining
                    )
                except TimeoutError:
                    return
                if event is _END:
                    return
                if self._selected(request, event.get("object", {})):
                    yield event
        finally:
            await bus.unmark(marker)

    async def end_watches(self) -> None:
        for bus in list(self._buses.values()):
            await bus.put(_END)


class EmulatedCluster:
    """A FakeCluster served on 127.0.0.1 from a thread with its own event loop (a free port, or `port`)."""

    def __init__(self, port: int = 0, seed: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        self.port = port
        self.seed = seed or []
        """(plural, object) pairs stored before the first request is served."""
        self.emulator: FakeCluster | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="kmock-cluster", daemon=True)
        self._ready = threading.Event()
        self._stopping: asyncio.Event | None = None
        self._failure: BaseException | None = None

    def __enter__(self) -> EmulatedCluster:
        self._thread.start()
        if not self._ready.wait(15):
            raise RuntimeError("the emulated cluster did not start")
        if self._failure is not None:
            raise RuntimeError("the emulated cluster did not start") from self._failure
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        if self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(30)
        if not self._thread.is_alive():
            self._loop.close()

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._main())
        except BaseException as exc:
            self._failure = exc
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self.emulator = FakeCluster()
        for plural, (kind, _) in RESOURCES.items():
            self.emulator.resources[plural] = kmock.ResourceInfo(
                kind=kind, namespaced=True, verbs={"create", "get", "list", "watch", "patch", "delete"}
            )
        for plural, obj in self.seed:
            meta = obj.setdefault("metadata", {})
            meta.setdefault("uid", str(uuid.uuid4()))
            meta["resourceVersion"] = self.emulator._next_revision()
            self.emulator.objects[kmock.resource(plural), meta["namespace"], meta["name"]] = obj
        self._stopping = asyncio.Event()
        async with self.emulator, kmock.Server(self.emulator, port=self.port or None) as server:
            self.port = server.port
            self._ready.set()
            await self._stopping.wait()
            await self.emulator.end_watches()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(self, fn: Callable[[FakeCluster], T]) -> T:
        """`fn(emulator)` run on the emulator's own loop (its state is never touched from another thread)."""
        emulator = self.emulator
        assert emulator is not None

        async def run() -> T:
            return fn(emulator)

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(15)

    def refuse(
        self,
        method: str,
        path: str,
        status: int,
        times: int = 1,
        headers: dict[str, str] | None = None,
        applied: bool = False,
    ) -> None:
        """The next `times` requests `METHOD /path` are answered `status` (a Kubernetes Status, with
        `headers`); the store is left alone unless `applied` (then the change is made, its answer lost)."""
        criterion = f"{method.lower()} {path}"
        body = {
            "apiVersion": "v1",
            "kind": "Status",
            "metadata": {},
            "status": "Failure",
            "code": status,
            "reason": "Injected",
            "message": f"injected {status} for {method.upper()} {path}",
        }

        def add(emulator: FakeCluster) -> None:
            seen = len(emulator[criterion])
            reaction = emulator[criterion][seen : seen + times] << status
            if headers:
                reaction = reaction << kmock.headers(headers)
            reaction = reaction << body
            assert isinstance(reaction, kmock.Reaction)
            if applied:
                emulator.applied.append(reaction)

        self.call(add)

    def requests(self, method: str, path: str) -> int:
        """How many `METHOD /path` requests the emulator has had (answered or refused)."""
        return self.call(lambda emulator: len(emulator[f"{method.lower()} {path}"]))

    def first_version(self, plural: str, namespace: str, name: str) -> dict[str, Any] | None:
        """The object as it was created (kmock keeps every version, deleted ones included)."""

        def find(emulator: FakeCluster) -> dict[str, Any] | None:
            key = (kmock.resource(plural), namespace, name)  # a plain 'v1/pods' key is never `in` it
            if key not in emulator.objects:
                return None
            versions = [v for v in emulator.objects[key].history if v is not None]
            return json.loads(json.dumps(versions[0].raw)) if versions else None

        return self.call(find)

    def cut_next_watches(self, count: int) -> None:
        def cut(emulator: FakeCluster) -> None:
            emulator.drop_watches = count

        self.call(cut)

    def kubeconfig(self, path: Path, namespace: str) -> Path:
        return write_kubeconfig(path, self.url, namespace)


def write_kubeconfig(path: Path, server: str, namespace: str) -> Path:
    """A kubeconfig for `server` (plain http, a dummy token) whose context has `namespace`."""
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "kmock", "cluster": {"server": server}}],
        "users": [{"name": "tester", "user": {"token": "not-a-secret"}}],
        "contexts": [
            {"name": "kmock", "context": {"cluster": "kmock", "user": "tester", "namespace": namespace}}
        ],
        "current-context": "kmock",
    }
    path.write_text(json.dumps(config))
    return path
