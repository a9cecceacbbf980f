"""A small Kubernetes API server for tests that runs each Pod as local Docker containers.

No cluster can be installed in CI, yet the Kubernetes backend must be exercised end to end with the
official `kubernetes` client: this server speaks enough of the API (JSON objects, watches, the exec
subresource over WebSocket) for the client to treat it as a cluster, and makes every Pod real
containers on the local engine. With `simulate=True` it only pretends (status changes, no Docker), so
scale benchmarks can create thousands of pods.

Everything runs on one event loop in a background thread; blocking Docker calls go to a thread pool,
and container exits come from the engine's event stream.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import functools
import json
import logging
import random
import re
import socket
import string
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import docker
import docker.errors
import docker.types
from aiohttp import WSMsgType, web

__all__ = [
    "LABEL_CONTAINER",
    "LABEL_POD",
    "LABEL_SERVER",
    "DockerKubeApi",
    "RequestStats",
]

log = logging.getLogger(__name__)

LABEL_SERVER = "forge.k8s-test.server"
"""Docker label on every container and volume a server made: its instance id (close() sweeps by it)."""
LABEL_POD = "forge.k8s-test.pod"
"""Docker label naming the pod (`<namespace>/<name>`) a container or volume belongs to."""
LABEL_CONTAINER = "forge.k8s-test.container"
"""Docker label naming the pod's container (its `spec.containers[*].name`)."""

UNSCHEDULABLE_SELECTOR = "forge.test/unschedulable"
"""A nodeSelector key that, set to "true", keeps a pod Pending and unschedulable (no node matches)."""

V4_PROTOCOL = "v4.channel.k8s.io"
V5_PROTOCOL = "v5.channel.k8s.io"
STDIN, STDOUT, STDERR, ERROR, RESIZE, CLOSE = 0, 1, 2, 3, 4, 255

HISTORY_EVENTS = 50_000
"""Watch events kept for watches that resume from a resourceVersion; older ones answer 410 Gone."""
GC_DELAY_SEC = 0.1
"""How long after an owner's deletion its dependents go, as the cluster's garbage collector would."""
POD_PIDS_LIMIT = 1024
"""Process slots per container, as a kubelet run with `podPidsLimit` gives each pod (unlike a real pod-level
limit, the warden here has slots of its own). Without one a fork bomb in one emulated pod grows until the
whole machine spends its time in the kernel; with 4096, a bomb in a 512 MiB task thrashes in memory
reclaim and the warden's sweeps cannot stop it within its 120 s (the rollout still scores 0, as the
agent's doing, but 130 s late)."""
PULL_BACKOFF_SEC = 1.0
"""How long a missing image shows ErrImagePull before it turns into ImagePullBackOff."""
DOCKER_THREADS = 64
MAX_BODY = 64 * 1024 * 1024

_REASONS = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    409: "Conflict",
    410: "Expired",
    415: "UnsupportedMediaType",
    422: "Invalid",
    429: "TooManyRequests",
    500: "InternalError",
    501: "NotImplemented",
    503: "ServiceUnavailable",
    504: "Timeout",
}
_NAME = re.compile(r"[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")
_LABEL_NAME = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
_QUANTITY = re.compile(r"\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)\s*")
_SUFFIX = {
    "": 1.0,
    "m": 1e-3,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "P": 1e15,
    "E": 1e18,
    "Ki": 2.0**10,
    "Mi": 2.0**20,
    "Gi": 2.0**30,
    "Ti": 2.0**40,
    "Pi": 2.0**50,
    "Ei": 2.0**60,
}

Json = dict[str, Any]


@dataclass
class RequestStats:
    """Requests of one kind and the bytes they carried (bodies, watch streams, exec frames), so benchmarks
    can see what the backend costs the API server."""

    count: int = 0
    bytes_in: int = 0
    bytes_out: int = 0


@dataclass(frozen=True)
class _Resource:
    plural: str
    kind: str
    api_version: str


RESOURCES = {
    "pods": _Resource("pods", "Pod", "v1"),
    "configmaps": _Resource("configmaps", "ConfigMap", "v1"),
    "networkpolicies": _Resource("networkpolicies", "NetworkPolicy", "networking.k8s.io/v1"),
}

_ROUTES = (
    re.compile(
        r"/api/v1/namespaces/(?P<ns>[^/]+)/(?P<res>pods|configmaps)(?:/(?P<name>[^/]+)(?:/(?P<sub>[^/]+))?)?"
    ),
    re.compile(
        r"/apis/networking\.k8s\.io/v1/namespaces/(?P<ns>[^/]+)/(?P<res>networkpolicies)(?:/(?P<name>[^/]+))?"
    ),
    re.compile(r"/api/v1/(?P<res>pods|configmaps)"),
    re.compile(r"/apis/networking\.k8s\.io/v1/(?P<res>networkpolicies)"),
)


@dataclass(frozen=True)
class _Route:
    res: str
    ns: str | None
    name: str | None
    sub: str | None


class _ApiError(Exception):
    """An error answered as a Kubernetes `Status` object."""

    def __init__(
        self,
        code: int,
        message: str,
        reason: str | None = None,
        details: Json | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason or _REASONS.get(code, "Unknown")
        self.details = details
        self.headers = headers or {}

    def status(self) -> Json:
        body: Json = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        }
        if self.details is not None:
            body["details"] = self.details
        return body


class _Stopped(Exception):
    """The pod (or the server) stopped while a Docker call was on its way."""


@dataclass
class _Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    times: int
    retry_after: int | None


@dataclass
class _Event:
    rv: int
    type: str
    res: str
    ns: str
    obj: Json
    old: Json | None


@dataclass(eq=False)
class _Watcher:
    """One open watch: the events of its resource that match its namespace and selectors."""

    res: str
    ns: str | None
    matches: Callable[[Json], bool]
    queue: asyncio.Queue[tuple[str, Json] | None] = field(default_factory=asyncio.Queue)

    def offer(self, ev: _Event) -> None:
        """Queue the event as this watcher sees it: a change into or out of its selector is an
        ADDED or DELETED, as on a real API server."""
        if ev.res != self.res or (self.ns is not None and ev.ns != self.ns):
            return
        now = self.matches(ev.obj)
        if ev.type == "MODIFIED" and ev.old is not None:
            before = self.matches(ev.old)
            if now and before:
                kind = "MODIFIED"
            elif now:
                kind = "ADDED"
            elif before:
                kind = "DELETED"
            else:
                return
        elif now:
            kind = ev.type
        else:
            return
        self.queue.put_nowait((kind, ev.obj))


@dataclass
class _Container:
    """What the kubelet knows of one container of a pod."""

    name: str
    image: str
    init: bool
    probe: list[str] | None = None
    probe_delay: float = 0.0
    probe_period: float = 1.0
    container_id: str | None = None
    image_id: str = ""
    state: str = "waiting"
    reason: str | None = "ContainerCreating"
    message: str | None = None
    started_at: str | None = None
    finished_at: str | None = None
    exit_code: int | None = None
    ready: bool = False
    exited: asyncio.Future[int] | None = None

    def terminate(self, code: int) -> None:
        self.state = "terminated"
        self.exit_code = code
        self.reason = "Completed" if code == 0 else "Error"
        self.message = None
        self.ready = False
        self.finished_at = _now()
        if self.exited is not None and not self.exited.done():
            self.exited.set_result(code)

    def status(self) -> Json:
        out: Json = {
            "name": self.name,
            "image": self.image,
            "imageID": self.image_id,
            "ready": self.ready,
            "started": self.state == "running",
            "restartCount": 0,
        }
        if self.container_id:
            out["containerID"] = self.container_id
        if self.state == "running":
            out["state"] = {"running": {"startedAt": self.started_at}}
        elif self.state == "terminated":
            term: Json = {"exitCode": self.exit_code, "reason": self.reason, "finishedAt": self.finished_at}
            if self.started_at:
                term["startedAt"] = self.started_at
            if self.container_id:
                term["containerID"] = self.container_id
            out["state"] = {"terminated": term}
        else:
            waiting: Json = {"reason": self.reason}
            if self.message:
                waiting["message"] = self.message
            out["state"] = {"waiting": waiting}
        return out


@dataclass
class _Pod:
    """The kubelet's side of a pod: its containers' states, from which `status` is rendered."""

    ns: str
    name: str
    uid: str
    spec: Json
    init: list[_Container]
    main: list[_Container]
    scheduled: bool | None = None
    unschedulable: str = ""
    start_time: str | None = None
    initialized: bool = False
    final: tuple[str, str, str] | None = None
    deleting: bool = False
    orphan: bool = False
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    condition_times: dict[str, tuple[str, str]] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.ns, self.name)

    @property
    def stopped(self) -> bool:
        """Whether no container may start any more (read from Docker threads as well)."""
        return self.deleting or self.final is not None

    def containers(self) -> Iterator[_Container]:
        yield from self.init
        yield from self.main


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _quantity(value: object) -> float:
    """A Kubernetes quantity ("500m", "2", "512Mi", "1G") as a number."""
    if isinstance(value, bool):
        raise ValueError(f"invalid quantity {value!r}")
    if isinstance(value, int | float):
        return float(value)
    match = _QUANTITY.fullmatch(str(value))
    if match is None or match.group(2) not in _SUFFIX:
        raise ValueError(f"invalid quantity {value!r}")
    return float(match.group(1)) * _SUFFIX[match.group(2)]


def _split_selector(text: str) -> list[str]:
    """Split a selector at the commas outside parentheses (`a in (x,y),b`)."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def _label_selector(text: str) -> Callable[[dict[str, str]], bool]:
    """A label selector (`k=v`, `k!=v`, `k`, `!k`, `k in (a,b)`, `k notin (a,b)`) as a predicate."""
    wanted: list[tuple[str, bool, frozenset[str] | None]] = []  # key, must match, values (None: exists)
    for term in _split_selector(text):
        if m := re.fullmatch(r"(\S+)\s+(in|notin)\s+\((.*)\)", term):
            values = frozenset(v.strip() for v in m.group(3).split(","))
            wanted.append((m.group(1), m.group(2) == "in", values))
        elif m := re.fullmatch(r"([^=!\s]+)\s*(==|=|!=)\s*(\S*)", term):
            wanted.append((m.group(1), m.group(2) != "!=", frozenset([m.group(3)])))
        elif m := re.fullmatch(r"!\s*([^=!\s]+)", term):
            wanted.append((m.group(1), False, None))
        elif re.fullmatch(r"[^=!\s(),]+", term):
            wanted.append((term, True, None))
        else:
            raise _ApiError(400, f"unable to parse requirement: {term!r}")

    def matches(labels: dict[str, str]) -> bool:
        for key, positive, values in wanted:
            hit = key in labels if values is None else labels.get(key) in values
            if hit != positive:
                return False
        return True

    return matches


def _field_selector(text: str) -> Callable[[Json], bool]:
    """A field selector (`metadata.name=x`, `status.phase!=Running`) as a predicate."""
    wanted: list[tuple[list[str], bool, str]] = []
    for term in _split_selector(text):
        m = re.fullmatch(r"([a-zA-Z.]+)\s*(==|=|!=)\s*(\S*)", term)
        if m is None:
            raise _ApiError(400, f"invalid field selector: {term!r}")
        wanted.append((m.group(1).split("."), m.group(2) != "!=", m.group(3)))

    def matches(obj: Json) -> bool:
        for path, positive, value in wanted:
            cur: Any = obj
            for part in path:
                cur = cur.get(part) if isinstance(cur, dict) else None
            if (("" if cur is None else str(cur)) == value) != positive:
                return False
        return True

    return matches


def _merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386 JSON merge patch (null deletes a key); also what a strategic merge does to maps."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = _merge_patch(out.get(key), value)
    return out


def _parse_object(body: bytes) -> Json:
    try:
        obj = json.loads(body or b"null")
    except ValueError as exc:
        raise _ApiError(400, f"the request body is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise _ApiError(400, "the request body must be a JSON object")
    return obj


def _json(obj: Json, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(
        body=json.dumps(obj).encode(), status=status, content_type="application/json", headers=headers
    )


def _docker_name(*parts: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_.-]+", "-", "-".join(parts))


def _flag(value: str | None, default: bool = False) -> bool:
    return default if value is None else value.lower() in ("true", "1")


class DockerKubeApi:
    """A Kubernetes API server on 127.0.0.1 whose pods are local Docker containers (or simulated).

    Create it, `start()` it (or use it as a context manager), point the client at
    `write_kubeconfig(path)`, and `close()` it: that removes every container and volume it made.
    """

    def __init__(
        self,
        *,
        simulate: bool = False,
        latency_sec: float = 0.0,
        start_delay_sec: float = 0.0,
        docker_client: docker.DockerClient | None = None,
        pod_pids_limit: int | None = POD_PIDS_LIMIT,
    ) -> None:
        self.simulate = simulate
        self.pod_pids_limit = pod_pids_limit
        self.latency_sec = latency_sec
        self.start_delay_sec = start_delay_sec
        self.server_id = uuid.uuid4().hex[:12]
        self._docker = docker_client
        self._own_docker = docker_client is None
        self._url: str | None = None
        self._lock = threading.Lock()
        self._stats: dict[str, RequestStats] = {}
        self._faults: list[_Fault] = []
        self._closing = False
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._events: Any = None
        self._events_thread: threading.Thread | None = None
        # State below is touched on the event loop only.
        self._rv = 0
        self._store: dict[str, dict[tuple[str, str], Json]] = {res: {} for res in RESOURCES}
        self._uids: set[str] = set()
        self._dependents: dict[str, set[tuple[str, tuple[str, str]]]] = {}  # owner uid -> objects
        self._pods: dict[tuple[str, str], _Pod] = {}
        self._by_cid: dict[str, tuple[_Pod, _Container]] = {}
        self._history: deque[_Event] = deque(maxlen=HISTORY_EVENTS)
        self._history_floor = 0
        self._watchers: set[_Watcher] = set()
        self._tasks: set[asyncio.Task[Any]] = set()

    # ---- lifecycle -------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT of the running server."""
        if self._url is None:
            raise RuntimeError("the server is not started")
        return self._url

    def start(self) -> None:
        """Start the server (and, unless simulating, the watch on the engine's container exits)."""
        if self._thread is not None:
            raise RuntimeError("the server was started already")
        if not self.simulate:
            if self._docker is None:
                self._docker = docker.from_env(timeout=120, max_pool_size=DOCKER_THREADS)
            self._docker.ping()
            self._events = self._docker.api.events(
                decode=True,
                filters={"type": "container", "event": "die", "label": f"{LABEL_SERVER}={self.server_id}"},
            )
            self._events_thread = threading.Thread(
                target=self._pump_docker_events, name=f"k8s-docker-events-{self.server_id}", daemon=True
            )
            self._events_thread.start()
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=DOCKER_THREADS, thread_name_prefix=f"k8s-docker-{self.server_id}"
        )
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._thread = threading.Thread(
            target=loop.run_forever, name=f"k8s-docker-api-{self.server_id}", daemon=True
        )
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._astart(), loop).result(timeout=30)

    async def _astart(self) -> None:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self._url = f"http://127.0.0.1:{port}"

    def close(self) -> None:
        """Stop the server and remove every container and volume it made, of deleted pods or not."""
        if self._closed or self._loop is None or self._thread is None:
            self._closed = True
            return
        self._closed = True
        self._closing = True
        loop = self._loop
        try:
            asyncio.run_coroutine_threadsafe(self._ashutdown(), loop).result(timeout=60)
        except Exception:
            log.exception("k8s test server %s: shutdown failed", self.server_id)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(timeout=30)
        if not self.simulate:
            self._sweep()
        if self._executor is not None:
            # Docker calls on their way finish before the last sweep, so nothing is created after it.
            self._executor.shutdown(wait=True, cancel_futures=True)
        if not self.simulate:
            self._sweep()
            if self._events is not None:
                with contextlib.suppress(Exception):
                    self._events.close()
            if self._events_thread is not None:
                self._events_thread.join(timeout=10)
            if self._own_docker and self._docker is not None:
                self._docker.close()
        if not loop.is_running():
            loop.close()

    async def _ashutdown(self) -> None:
        for watcher in list(self._watchers):
            watcher.queue.put_nowait(None)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()

    def _sweep(self) -> None:
        """Remove every container and volume labelled with this server's id."""
        assert self._docker is not None
        label = f"{LABEL_SERVER}={self.server_id}"
        try:
            containers = self._docker.containers.list(all=True, ignore_removed=True, filters={"label": label})
        except docker.errors.DockerException:
            log.exception("k8s test server %s: cannot list its containers", self.server_id)
            containers = []
        for container in containers:
            with contextlib.suppress(docker.errors.NotFound):
                container.remove(force=True)
        try:
            volumes = self._docker.volumes.list(filters={"label": label})
        except docker.errors.DockerException:
            volumes = []
        for volume in volumes:
            with contextlib.suppress(docker.errors.NotFound):
                volume.remove(force=True)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def write_kubeconfig(self, path: Path, namespace: str = "forge-test") -> Path:
        """Write a kubeconfig for this server (plain http, a dummy bearer token, `namespace` as the
        context's namespace) that `kubernetes.config.load_kube_config(config_file=...)` accepts."""
        name = f"forge-k8s-test-{self.server_id}"
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": name, "cluster": {"server": self.url, "insecure-skip-tls-verify": True}}],
            "users": [{"name": name, "user": {"token": f"forge-test-token-{self.server_id}"}}],
            "contexts": [{"name": name, "context": {"cluster": name, "user": name, "namespace": namespace}}],
            "current-context": name,
            "preferences": {},
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(config, indent=2) + "\n")  # JSON is YAML
        return path

    # ---- counters and faults ---------------------------------------------------------------------

    def stats(self) -> dict[str, RequestStats]:
        """Per request kind ("POST pods", "GET pods (watch)", "exec", ...): requests and bytes."""
        with self._lock:
            return {kind: RequestStats(s.count, s.bytes_in, s.bytes_out) for kind, s in self._stats.items()}

    def reset_stats(self) -> None:
        """Forget the counters (a benchmark's warm-up should not count)."""
        with self._lock:
            self._stats.clear()

    def _count(self, kind: str, count: int = 0, bytes_in: int = 0, bytes_out: int = 0) -> None:
        with self._lock:
            entry = self._stats.setdefault(kind, RequestStats())
            entry.count += count
            entry.bytes_in += bytes_in
            entry.bytes_out += bytes_out

    def inject(
        self, method: str, path_regex: str, status: int, times: int = 1, retry_after: int | None = None
    ) -> None:
        """Answer the next `times` requests whose method (or "*") and path match with a Failure Status
        of code `status` (and a Retry-After header when given), to exercise the client's error paths."""
        with self._lock:
            self._faults.append(_Fault(method.upper(), re.compile(path_regex), status, times, retry_after))

    def _take_fault(self, method: str, path: str) -> _Fault | None:
        with self._lock:
            for fault in self._faults:
                if fault.method in ("*", method) and fault.pattern.search(path):
                    fault.times -= 1
                    if fault.times <= 0:
                        self._faults.remove(fault)
                    return fault
        return None

    # ---- request handling ------------------------------------------------------------------------

    @staticmethod
    def _route(path: str) -> _Route | None:
        for pattern in _ROUTES:
            m = pattern.fullmatch(path)
            if m:
                groups = m.groupdict()
                return _Route(groups["res"], groups.get("ns"), groups.get("name"), groups.get("sub"))
        return None

    @staticmethod
    def _kind(method: str, path: str, route: _Route | None, query: Any) -> str:
        if route is None:
            return "GET version" if path == "/version" else f"{method} other"
        if route.sub == "exec":
            return "exec"
        if route.sub:
            return f"{method} {route.res}/{route.sub}"
        if route.name is None:
            if method == "GET":
                return f"GET {route.res} (watch)" if _flag(query.get("watch")) else f"GET {route.res} (list)"
            if method == "DELETE":
                return f"DELETE {route.res} (collection)"
        return f"{method} {route.res}"

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        route = self._route(request.path)
        kind = self._kind(request.method, request.path, route, request.query)
        body = await request.read()
        self._count(kind, count=1, bytes_in=len(body))
        if self.latency_sec > 0:
            await asyncio.sleep(self.latency_sec)
        response: web.StreamResponse
        try:
            fault = self._take_fault(request.method, request.path)
            if fault is not None:
                headers = {} if fault.retry_after is None else {"Retry-After": str(fault.retry_after)}
                reason = _REASONS.get(fault.status, "Unknown")
                raise _ApiError(fault.status, f"injected fault: {reason}", reason, headers=headers)
            response = await self._dispatch(request, route, body, kind)
        except _ApiError as err:
            response = _json(err.status(), err.code, err.headers)
        except Exception as exc:  # a bug here: say so as the API server would, and log it
            log.exception("k8s test server %s: %s %s failed", self.server_id, request.method, request.path)
            response = _json(_ApiError(500, f"test server error: {exc!r}").status(), 500)
        if isinstance(response, web.Response) and isinstance(response.body, bytes):
            self._count(kind, bytes_out=len(response.body))
        return response

    async def _dispatch(
        self, request: web.Request, route: _Route | None, body: bytes, kind: str
    ) -> web.StreamResponse:
        method = request.method
        if route is None:
            if request.path == "/version" and method == "GET":
                return _json(_VERSION)
            raise _ApiError(404, "the server could not find the requested resource")
        res, ns, name, sub = route.res, route.ns, route.name, route.sub
        if sub is not None:
            assert ns is not None and name is not None
            if res == "pods" and sub == "exec" and method in ("GET", "POST"):
                return await self._exec(request, ns, name, kind)
            if res == "pods" and sub == "log" and method == "GET":
                return await self._logs(request, ns, name)
            if res == "pods" and sub == "status" and method == "GET":
                return _json(self._get(res, ns, name))
            raise _ApiError(404, "the server could not find the requested resource")
        if name is None:
            if method == "GET":
                if _flag(request.query.get("watch")):
                    return await self._watch(request, res, ns, kind)
                return _json(self._list(res, ns, request.query))
            if ns is not None and method == "POST":
                return _json(self._create(res, ns, _parse_object(body)), 201)
            if ns is not None and method == "DELETE":
                return _json(self._delete_collection(res, ns, request.query, body))
        elif ns is not None:
            if method == "GET":
                return _json(self._get(res, ns, name))
            if method == "DELETE":
                return _json(self._delete(res, ns, name, body))
            if method == "PATCH":
                return _json(self._patch(res, ns, name, body, request.content_type))
        raise _ApiError(405, f"the server does not allow this method on the requested resource: {method}")

    # ---- the object store ------------------------------------------------------------------------

    def _emit(self, kind: str, res: str, obj: Json, old: Json | None = None) -> None:
        ev = _Event(
            int(obj["metadata"]["resourceVersion"]), kind, res, obj["metadata"]["namespace"], obj, old
        )
        if len(self._history) == self._history.maxlen:
            self._history_floor = self._history[0].rv
        self._history.append(ev)
        for watcher in list(self._watchers):
            watcher.offer(ev)

    def _next_rv(self) -> str:
        self._rv += 1
        return str(self._rv)

    def _replace(self, res: str, new: Json) -> Json:
        """Store a changed copy of an object (objects are never changed in place: watch events and
        responses may still hold the old one), bump its resourceVersion and emit MODIFIED."""
        key = (new["metadata"]["namespace"], new["metadata"]["name"])
        old = self._store[res][key]
        new["metadata"] = {**new["metadata"], "resourceVersion": self._next_rv()}
        self._store[res][key] = new
        self._emit("MODIFIED", res, new, old)
        return new

    def _not_found(self, res: str, name: str) -> _ApiError:
        return _ApiError(404, f'{res} "{name}" not found', details={"name": name, "kind": res})

    def _get(self, res: str, ns: str, name: str) -> Json:
        obj = self._store[res].get((ns, name))
        if obj is None:
            raise self._not_found(res, name)
        return obj

    def _matcher(self, query: Any) -> Callable[[Json], bool]:
        labels = _label_selector(query.get("labelSelector") or "")
        fields = _field_selector(query.get("fieldSelector") or "")
        return lambda obj: labels(obj["metadata"].get("labels") or {}) and fields(obj)

    def _selected(self, res: str, ns: str | None, query: Any) -> list[Json]:
        matches = self._matcher(query)
        return [
            obj
            for (obj_ns, _), obj in sorted(self._store[res].items())
            if (ns is None or obj_ns == ns) and matches(obj)
        ]

    def _list(self, res: str, ns: str | None, query: Any) -> Json:
        r = RESOURCES[res]
        items = [
            {k: v for k, v in obj.items() if k not in ("kind", "apiVersion")}
            for obj in self._selected(res, ns, query)
        ]
        return {
            "kind": f"{r.kind}List",
            "apiVersion": r.api_version,
            "metadata": {"resourceVersion": str(self._rv)},
            "items": items,
        }

    def _create(self, res: str, ns: str, obj: Json) -> Json:
        r = RESOURCES[res]
        if obj.get("kind") not in (None, r.kind):
            raise _ApiError(400, f"the kind of the object ({obj.get('kind')}) is not {r.kind}")
        meta = dict(obj.get("metadata") or {})
        name = meta.get("name")
        if not name and meta.get("generateName"):
            name = meta["generateName"] + "".join(random.choices(string.ascii_lowercase + string.digits, k=5))
        if not name:
            raise _ApiError(
                422, f"{r.kind} is invalid: metadata.name: Required value: name or generateName is required"
            )
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise _ApiError(422, f'{r.kind} "{name}" is invalid: metadata.name: Invalid value: "{name}"')
        if meta.get("namespace") not in (None, "", ns):
            raise _ApiError(
                400, "the namespace of the provided object does not match the namespace sent on the request"
            )
        if (ns, name) in self._store[res]:
            raise _ApiError(
                409, f'{res} "{name}" already exists', "AlreadyExists", details={"name": name, "kind": res}
            )
        if res == "pods":
            self._validate_pod(name, obj)
        for key in ("deletionTimestamp", "deletionGracePeriodSeconds"):
            meta.pop(key, None)
        meta.update(
            name=name,
            namespace=ns,
            uid=str(uuid.uuid4()),
            resourceVersion=self._next_rv(),
            creationTimestamp=_now(),
        )
        new = {**obj, "apiVersion": r.api_version, "kind": r.kind, "metadata": meta}
        if res == "pods":
            meta["generation"] = 1
            spec = dict(new["spec"])
            spec.setdefault("restartPolicy", "Always")
            spec.setdefault("terminationGracePeriodSeconds", 30)
            new["spec"] = spec
            new["status"] = {"phase": "Pending"}
        self._store[res][(ns, name)] = new
        self._uids.add(meta["uid"])
        self._emit("ADDED", res, new)
        if res == "pods":
            self._start_pod(new)
        owners = [str(ref.get("uid")) for ref in meta.get("ownerReferences") or []]
        for uid in owners:
            self._dependents.setdefault(uid, set()).add((res, (ns, name)))
        if owners and not any(uid in self._uids for uid in owners):  # its owners are gone already
            self._later(GC_DELAY_SEC, functools.partial(self._collect_if_orphaned, res, (ns, name)))
        return new

    def _validate_pod(self, name: str, obj: Json) -> None:
        def invalid(field_path: str, why: str) -> _ApiError:
            return _ApiError(
                422,
                f'Pod "{name}" is invalid: {field_path}: {why}',
                details={"name": name, "kind": "Pod", "causes": [{"field": field_path, "message": why}]},
            )

        spec = obj.get("spec")
        if not isinstance(spec, dict):
            raise invalid("spec", "Required value")
        seen: set[str] = set()
        for group in ("initContainers", "containers"):
            containers = spec.get(group) or []
            if not isinstance(containers, list) or (group == "containers" and not containers):
                raise invalid(f"spec.{group}", "Required value")
            for i, c in enumerate(containers):
                where = f"spec.{group}[{i}]"
                cname = c.get("name") if isinstance(c, dict) else None
                if not isinstance(cname, str) or not _LABEL_NAME.fullmatch(cname):
                    raise invalid(f"{where}.name", f"Invalid value: {cname!r}")
                if cname in seen:
                    raise invalid(f"{where}.name", f'Duplicate value: "{cname}"')
                seen.add(cname)
                if not isinstance(c.get("image"), str) or not c["image"].strip():
                    raise invalid(f"{where}.image", "Required value")
                limits = (c.get("resources") or {}).get("limits") or {}
                for resource in ("cpu", "memory"):
                    if resource in limits:
                        try:
                            _quantity(limits[resource])
                        except ValueError as exc:
                            raise invalid(f"{where}.resources.limits.{resource}", str(exc)) from None

    def _delete(self, res: str, ns: str, name: str, body: bytes) -> Json:
        opts = _parse_object(body) if body.strip() else {}
        orphan = opts.get("propagationPolicy") == "Orphan" or opts.get("orphanDependents") is True
        obj = self._get(res, ns, name)
        if res == "pods":
            return self._delete_pod(self._pods[(ns, name)], orphan)
        self._remove(res, obj, orphan)
        return {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Success",
            "details": {"name": name, "kind": res, "uid": obj["metadata"]["uid"]},
        }

    def _delete_collection(self, res: str, ns: str, query: Any, body: bytes) -> Json:
        for obj in self._selected(res, ns, query):
            self._delete(res, ns, obj["metadata"]["name"], body)
        return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success"}

    def _remove(self, res: str, obj: Json, orphan: bool) -> None:
        """Take an object out of the store (DELETED) and let the garbage collector see to its dependents."""
        meta = obj["metadata"]
        del self._store[res][(meta["namespace"], meta["name"])]
        self._uids.discard(meta["uid"])
        key = (meta["namespace"], meta["name"])
        for ref in meta.get("ownerReferences") or []:
            self._dependents.get(str(ref.get("uid")), set()).discard((res, key))
        gone = {**obj, "metadata": {**meta, "resourceVersion": self._next_rv()}}
        self._emit("DELETED", res, gone)
        dependents = self._dependents.pop(meta["uid"], set())
        if dependents and not orphan:
            self._later(GC_DELAY_SEC, functools.partial(self._collect, dependents))

    def _collect(self, dependents: set[tuple[str, tuple[str, str]]]) -> None:
        """The cluster's garbage collector: delete the dependents of a deleted owner."""
        for res, key in sorted(dependents):
            self._collect_if_orphaned(res, key)

    def _collect_if_orphaned(self, res: str, key: tuple[str, str]) -> None:
        """Delete the object if all of its owners are gone."""
        obj = self._store[res].get(key)
        if self._closing or obj is None:
            return
        owners = [str(ref.get("uid")) for ref in obj["metadata"].get("ownerReferences") or []]
        if not owners or any(uid in self._uids for uid in owners):
            return
        if res == "pods":
            self._delete_pod(self._pods[key], orphan=False)
        else:
            self._remove(res, obj, orphan=False)

    def _patch(self, res: str, ns: str, name: str, body: bytes, content_type: str) -> Json:
        obj = self._get(res, ns, name)
        if content_type == "application/json-patch+json":
            raise _ApiError(415, "JSON patch is not supported by this test server; use a merge patch")
        patch = _parse_object(body)
        meta_patch = patch.get("metadata") or {}
        meta = dict(obj["metadata"])
        for key in ("labels", "annotations"):
            if key in meta_patch:
                merged = _merge_patch(meta.get(key) or {}, meta_patch[key] or {})
                if meta_patch[key] is None or not merged:
                    meta.pop(key, None)
                else:
                    meta[key] = merged
        new = {**obj, "metadata": meta}
        if res != "pods":
            for key, value in patch.items():
                if key not in ("metadata", "kind", "apiVersion", "status"):
                    new[key] = _merge_patch(obj.get(key), value)
                    if new[key] is None:
                        del new[key]
        if new == obj:
            return obj
        return self._replace(res, new)

    # ---- watches ---------------------------------------------------------------------------------

    async def _watch(self, request: web.Request, res: str, ns: str | None, kind: str) -> web.StreamResponse:
        query = request.query
        watcher = _Watcher(res, ns, self._matcher(query))
        since = query.get("resourceVersion")
        timeout = float(query["timeoutSeconds"]) if query.get("timeoutSeconds") else None
        if since in (None, "", "0"):
            for obj in self._selected(res, ns, query):
                watcher.queue.put_nowait(("ADDED", obj))
        else:
            try:
                since_rv = int(since)
            except ValueError:
                raise _ApiError(400, f"invalid resourceVersion: {since!r}") from None
            if since_rv < self._history_floor:
                expired = _ApiError(410, f"too old resource version: {since_rv} ({self._history_floor})")
                watcher.queue.put_nowait(("ERROR", expired.status()))
                watcher.queue.put_nowait(None)
            else:
                for ev in self._history:
                    if ev.rv > since_rv:
                        watcher.offer(ev)
        self._watchers.add(watcher)  # no await since the snapshot: no event is missed or doubled
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        response = web.StreamResponse(headers={"Content-Type": "application/json"})
        response.enable_chunked_encoding()
        try:
            await response.prepare(request)
            while True:
                remaining = None if deadline is None else deadline - loop.time()
                if remaining is not None and remaining <= 0:
                    break
                try:
                    item = await asyncio.wait_for(watcher.queue.get(), remaining)
                except TimeoutError:
                    break
                if item is None:
                    break
                line = json.dumps({"type": item[0], "object": item[1]}).encode() + b"\n"
                await response.write(line)
                self._count(kind, bytes_out=len(line))
            await response.write_eof()
        except (ConnectionError, RuntimeError):
            pass  # the client went away
        finally:
            self._watchers.discard(watcher)
        return response

    # ---- pods ------------------------------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, Any], pod: _Pod | None = None) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if pod is not None:
            pod.tasks.add(task)
            task.add_done_callback(pod.tasks.discard)
        task.add_done_callback(_log_failure)
        return task

    def _later(self, delay: float, fn: Callable[[], None]) -> None:
        async def run() -> None:
            await asyncio.sleep(delay)
            fn()

        self._spawn(run())

    def _start_pod(self, obj: Json) -> None:
        spec = obj["spec"]

        def container(c: Json, init: bool) -> _Container:
            out = _Container(name=c["name"], image=c["image"], init=init)
            probe = c.get("readinessProbe") or {}
            if not init and isinstance(probe.get("exec"), dict) and probe["exec"].get("command"):
                out.probe = [str(part) for part in probe["exec"]["command"]]
                out.probe_delay = float(probe.get("initialDelaySeconds") or 0)
                out.probe_period = min(float(probe.get("periodSeconds") or 1), 1.0)
            if init:
                out.reason = "PodInitializing"
            return out

        meta = obj["metadata"]
        pod = _Pod(
            ns=meta["namespace"],
            name=meta["name"],
            uid=meta["uid"],
            spec=spec,
            init=[container(c, True) for c in spec.get("initContainers") or []],
            main=[container(c, False) for c in spec["containers"]],
        )
        self._pods[pod.key] = pod
        self._spawn(self._simulate_pod(pod) if self.simulate else self._run_pod(pod), pod)

    def _publish(self, pod: _Pod) -> None:
        """Render the pod's status from its containers; a change bumps resourceVersion (MODIFIED)."""
        obj = self._store["pods"].get(pod.key)
        if obj is None:
            return
        status = self._render_status(pod)
        if status != obj.get("status"):
            self._replace("pods", {**obj, "status": status})

    def _phase(self, pod: _Pod) -> str:
        if pod.final is not None:
            return pod.final[0]
        if not pod.scheduled or not pod.initialized or any(c.state == "waiting" for c in pod.main):
            return "Pending"
        if all(c.state == "terminated" for c in pod.main):
            return "Failed" if any(c.exit_code for c in pod.main) else "Succeeded"
        return "Running"

    def _render_status(self, pod: _Pod) -> Json:
        phase = self._phase(pod)
        status: Json = {"phase": phase}
        conditions: list[tuple[str, bool, str | None, str | None]] = []
        if pod.scheduled is False:
            conditions.append(("PodScheduled", False, "Unschedulable", pod.unschedulable))
        elif pod.scheduled:
            ready = all(c.ready for c in pod.main) and phase not in ("Failed", "Succeeded")
            not_ready = [c.name for c in pod.main if not c.ready]
            why = f"containers with unready status: [{' '.join(not_ready)}]" if not_ready else None
            pending_init = [c.name for c in pod.init if c.state != "terminated" or c.exit_code]
            conditions += [
                ("PodScheduled", True, None, None),
                (
                    "Initialized",
                    pod.initialized,
                    None if pod.initialized else "ContainersNotInitialized",
                    None
                    if pod.initialized
                    else f"containers with incomplete status: [{' '.join(pending_init)}]",
                ),
                ("ContainersReady", ready, None if ready else "ContainersNotReady", None if ready else why),
                ("Ready", ready, None if ready else "ContainersNotReady", None if ready else why),
            ]
            status["hostIP"] = "127.0.0.1"
            status["startTime"] = pod.start_time
            if pod.init:
                status["initContainerStatuses"] = [c.status() for c in pod.init]
            status["containerStatuses"] = [c.status() for c in pod.main]
        rendered = []
        for ctype, value, reason, message in conditions:
            text = "True" if value else "False"
            seen = pod.condition_times.get(ctype)
            if seen is None or seen[0] != text:
                pod.condition_times[ctype] = seen = (text, _now())
            cond: Json = {"type": ctype, "status": text, "lastProbeTime": None, "lastTransitionTime": seen[1]}
            if reason:
                cond["reason"] = reason
            if message:
                cond["message"] = message
            rendered.append(cond)
        if rendered:
            status["conditions"] = rendered
        if pod.final is not None and pod.final[1]:
            status["reason"], status["message"] = pod.final[1], pod.final[2]
        return status

    def _schedule(self, pod: _Pod) -> bool:
        """Bind the pod to the one node, unless its nodeSelector asks for the impossible."""
        selector = pod.spec.get("nodeSelector") or {}
        if str(selector.get(UNSCHEDULABLE_SELECTOR, "")).lower() == "true":
            pod.scheduled = False
            pod.unschedulable = (
                "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. "
                "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
            )
            self._publish(pod)
            return False
        pod.scheduled = True
        pod.start_time = _now()
        deadline = pod.spec.get("activeDeadlineSeconds")
        if deadline is not None:
            self._spawn(self._deadline(pod, float(deadline)), pod)
        self._publish(pod)
        return True

    async def _simulate_pod(self, pod: _Pod) -> None:
        """Pending -> Running -> Ready, status only (scale benchmarks), `start_delay_sec` after creation
        (what a kubelet takes to start the containers)."""
        await asyncio.sleep(self.start_delay_sec)
        if pod.stopped or not self._schedule(pod):
            return
        pod.initialized = True
        for c in pod.init:
            c.state, c.exit_code, c.reason, c.started_at, c.finished_at = (
                "terminated",
                0,
                "Completed",
                _now(),
                _now(),
            )
        for c in pod.main:
            c.container_id = f"simulated://{uuid.uuid4().hex}"
            c.state, c.started_at, c.reason = "running", _now(), None
        self._publish(pod)
        await asyncio.sleep(0)
        if pod.stopped:
            return
        for c in pod.main:
            c.ready = True
        self._publish(pod)

    async def _deadline(self, pod: _Pod, seconds: float) -> None:
        """activeDeadlineSeconds: past it the pod's containers are killed and it Failed."""
        await asyncio.sleep(seconds)
        if pod.stopped:
            return
        pod.final = (
            "Failed",
            "DeadlineExceeded",
            "Pod was active on the node longer than the specified deadline",
        )
        for c in pod.containers():
            c.ready = False
            if self.simulate and c.state == "running":
                c.terminate(137)
        self._publish(pod)
        if not self.simulate:
            await self._docker_call(self._kill_pod_sync, pod)

    def _delete_pod(self, pod: _Pod, orphan: bool) -> Json:
        obj = self._store["pods"][pod.key]
        if pod.deleting:
            return obj
        pod.deleting = True
        pod.orphan = orphan
        grace = obj["spec"].get("terminationGracePeriodSeconds", 30)
        meta = {**obj["metadata"], "deletionTimestamp": _now(), "deletionGracePeriodSeconds": grace}
        new = self._replace("pods", {**obj, "metadata": meta})
        self._spawn(self._finalize_pod(pod))
        return new

    async def _finalize_pod(self, pod: _Pod) -> None:
        """Stop and remove the pod's containers and volumes, then the pod (DELETED)."""
        try:
            if not self.simulate:
                await self._docker_call(self._remove_pod_sync, pod)
        finally:
            for task in list(pod.tasks):
                task.cancel()
            for c in pod.containers():
                if c.exited is not None and not c.exited.done():
                    c.exited.cancel()
                if c.container_id:
                    self._by_cid.pop(c.container_id, None)
            self._pods.pop(pod.key, None)
            obj = self._store["pods"].get(pod.key)
            if obj is not None:
                self._remove("pods", obj, pod.orphan)

    # ---- pods as Docker containers ---------------------------------------------------------------

    async def _docker_call(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._closing:
            raise _Stopped()
        assert self._executor is not None
        return await asyncio.get_running_loop().run_in_executor(self._executor, functools.partial(fn, *args))

    async def _run_pod(self, pod: _Pod) -> None:
        """The kubelet: volumes, init containers to completion in order, then the containers."""
        await asyncio.sleep(0)
        if not self._schedule(pod):
            return
        spec = pod.spec
        volumes: dict[str, str] = {}
        unsupported: dict[str, str] = {}
        for volume in spec.get("volumes") or []:
            if "emptyDir" not in volume:
                kinds = [k for k in volume if k != "name"]
                unsupported[volume["name"]] = kinds[0] if kinds else "unknown"
        empty_dirs = [v["name"] for v in spec.get("volumes") or [] if "emptyDir" in v]
        if empty_dirs:
            first_image = next(pod.containers()).image
            volumes = await self._docker_call(self._volumes_sync, pod, empty_dirs, first_image)
        specs = {c["name"]: c for c in (spec.get("initContainers") or []) + spec["containers"]}
        for c in pod.containers():
            for mount in specs[c.name].get("volumeMounts") or []:
                vname = mount.get("name")
                if vname not in volumes:
                    what = f"of type {unsupported[vname]} " if vname in unsupported else ""
                    c.reason = "CreateContainerConfigError"
                    c.message = f"volume {vname!r} {what}is not supported by the test server"
                    self._publish(pod)
                    return
        for c in pod.init:
            if not await self._pull(pod, [c]):
                return
            if not await self._start_container(pod, c, specs[c.name], volumes, None) or c.exited is None:
                return
            code = await c.exited
            if pod.stopped:
                return
            if code != 0:  # restartPolicy aside: an init container is not run again here
                pod.final = ("Failed", "", "")
                self._publish(pod)
                return
        pod.initialized = True
        self._publish(pod)
        if not await self._pull(pod, pod.main):
            return
        pid_mode = net_from = None
        for i, c in enumerate(pod.main):
            if not await self._start_container(pod, c, specs[c.name], volumes, pid_mode, net_from):
                return
            if i == 0:  # a pod's containers share one network namespace (loopback included), always
                net_from = str(c.container_id).removeprefix("docker://")
                if spec.get("shareProcessNamespace"):
                    pid_mode = f"container:{net_from}"
            if c.probe is not None:
                self._spawn(self._probe(pod, c), pod)
        self._publish(pod)

    async def _pull(self, pod: _Pod, containers: list[_Container]) -> bool:
        """Find the images in the local engine (never pull): a missing one is ErrImagePull, then
        ImagePullBackOff, and the pod stays Pending."""
        missing = []
        for c in containers:
            image_id = await self._docker_call(self._image_id_sync, c.image)
            if image_id is None:
                missing.append(c)
            else:
                c.image_id = f"docker://{image_id}"
        if not missing:
            return True
        for c in missing:
            c.reason = "ErrImagePull"
            c.message = (
                f'failed to pull and unpack image "{c.image}": not present in the local Docker engine '
                "(the test server never pulls)"
            )
        self._publish(pod)
        await asyncio.sleep(PULL_BACKOFF_SEC)
        for c in missing:
            c.reason = "ImagePullBackOff"
            c.message = f'Back-off pulling image "{c.image}": not present in the local Docker engine'
        self._publish(pod)
        return False

    async def _start_container(
        self,
        pod: _Pod,
        c: _Container,
        spec: Json,
        volumes: dict[str, str],
        pid_mode: str | None,
        net_from: str | None = None,
    ) -> bool:
        if pod.stopped:
            return False
        kwargs = self._container_kwargs(pod, c, spec, volumes, pid_mode, net_from)
        try:
            cid = await self._docker_call(self._create_sync, pod, kwargs)
        except docker.errors.APIError as exc:
            c.reason, c.message = "CreateContainerError", str(exc.explanation or exc)
            self._publish(pod)
            return False
        c.container_id = f"docker://{cid}"
        self._by_cid[cid] = (pod, c)
        c.exited = asyncio.get_running_loop().create_future()
        try:
            await self._docker_call(self._start_sync, pod, cid)
        except docker.errors.APIError as exc:
            if c.state == "waiting":
                c.state, c.exit_code, c.reason, c.message = "terminated", 128, "StartError", str(exc)
                c.finished_at = _now()
                c.exited.set_result(128)
            self._publish(pod)
            return False
        c.started_at = c.started_at or _now()
        if c.state == "waiting":  # unless it exited already (its die event came first)
            c.state, c.reason, c.message = "running", None, None
            c.ready = c.probe is None
        self._publish(pod)
        return True

    async def _probe(self, pod: _Pod, c: _Container) -> None:
        """readinessProbe.exec: run it until it exits 0, then the container is ready."""
        assert c.probe is not None and c.container_id is not None
        await asyncio.sleep(c.probe_delay)
        cid = c.container_id.removeprefix("docker://")
        while not pod.stopped and c.state == "running":
            try:
                code = await self._docker_call(self._probe_sync, cid, c.probe)
            except docker.errors.APIError:
                code = -1
            if code == 0 and c.state == "running" and not pod.stopped:
                c.ready = True
                self._publish(pod)
                return
            await asyncio.sleep(c.probe_period)

    def _on_die(self, cid: str, code: int) -> None:
        entry = self._by_cid.get(cid)
        if entry is None:
            return
        pod, c = entry
        if c.state == "terminated":
            return
        c.terminate(code)
        if not pod.deleting:
            self._publish(pod)

    def _pump_docker_events(self) -> None:
        """Container exits of this server, from the engine's event stream, to the event loop."""
        try:
            for event in self._events:
                if event.get("Action") != "die":
                    continue
                actor = event.get("Actor") or {}
                cid = str(event.get("id") or actor.get("ID"))
                code = int((actor.get("Attributes") or {}).get("exitCode", -1))
                assert self._loop is not None
                self._loop.call_soon_threadsafe(self._on_die, cid, code)
        except Exception:
            if not self._closing:
                log.exception("k8s test server %s: the Docker event stream failed", self.server_id)

    def _container_kwargs(
        self,
        pod: _Pod,
        c: _Container,
        spec: Json,
        volumes: dict[str, str],
        pid_mode: str | None,
        net_from: str | None = None,
    ) -> dict[str, Any]:
        """The docker create arguments of a pod's container, with Kubernetes semantics."""
        obj = self._store["pods"][pod.key]
        labels = {str(k): str(v) for k, v in (obj["metadata"].get("labels") or {}).items()}
        labels |= {
            LABEL_SERVER: self.server_id,
            LABEL_POD: f"{pod.ns}/{pod.name}",
            LABEL_CONTAINER: c.name,
        }
        kwargs: dict[str, Any] = {
            "image": c.image,
            "name": _docker_name("k8s", pod.ns, pod.name, c.name, self.server_id[:8]),
            "hostname": pod.name[:63].rstrip("-."),
            "labels": labels,
            "network_mode": "none",
            "init": False,
            "detach": True,
            "stdin_open": bool(spec.get("stdin")),
            "tty": bool(spec.get("tty")),
        }
        command = [str(part) for part in spec.get("command") or []]
        args = [str(part) for part in spec.get("args") or []]
        if command:
            kwargs["entrypoint"] = command  # the image's CMD is dropped with it, as in Kubernetes
            if args:
                kwargs["command"] = args
        elif args:
            kwargs["command"] = args  # the image's ENTRYPOINT with these arguments
        if spec.get("workingDir"):
            kwargs["working_dir"] = spec["workingDir"]
        env = [f"{e['name']}={e.get('value', '')}" for e in spec.get("env") or [] if "name" in e]
        if env:
            kwargs["environment"] = env
        mounts = [
            docker.types.Mount(
                target=m["mountPath"],
                source=volumes[m["name"]],
                type="volume",
                read_only=bool(m.get("readOnly")),
                no_copy=True,  # an emptyDir starts empty: the image's files there are not copied in
            )
            for m in spec.get("volumeMounts") or []
        ]
        if mounts:
            kwargs["mounts"] = mounts
        limits = (spec.get("resources") or {}).get("limits") or {}
        if "cpu" in limits:
            kwargs["nano_cpus"] = int(_quantity(limits["cpu"]) * 1e9)
        if "memory" in limits:
            kwargs["mem_limit"] = int(_quantity(limits["memory"]))
        if self.pod_pids_limit:
            kwargs["pids_limit"] = self.pod_pids_limit
        pod_sc = pod.spec.get("securityContext") or {}
        sc = spec.get("securityContext") or {}
        uid = sc.get("runAsUser", pod_sc.get("runAsUser"))
        gid = sc.get("runAsGroup", pod_sc.get("runAsGroup"))
        if uid is not None:
            kwargs["user"] = f"{uid}:{gid}" if gid is not None else str(uid)
        if sc.get("readOnlyRootFilesystem"):
            kwargs["read_only"] = True
        if sc.get("privileged"):
            kwargs["privileged"] = True
        caps = sc.get("capabilities") or {}
        if caps.get("add"):
            kwargs["cap_add"] = [str(cap) for cap in caps["add"]]
        if caps.get("drop"):
            kwargs["cap_drop"] = [str(cap) for cap in caps["drop"]]
        if sc.get("allowPrivilegeEscalation") is False:
            kwargs["security_opt"] = ["no-new-privileges"]
        if pid_mode:
            kwargs["pid_mode"] = pid_mode
        if net_from:  # the first container's network namespace (its hostname comes with it)
            kwargs["network_mode"] = f"container:{net_from}"
            kwargs.pop("hostname")
        return kwargs

    # Blocking Docker calls, run in the thread pool.

    def _engine(self) -> docker.DockerClient:
        assert self._docker is not None
        return self._docker

    def _volumes_sync(self, pod: _Pod, names: list[str], image: str) -> dict[str, str]:
        """Docker volumes for the pod's emptyDirs, world-writable as a kubelet makes them (a fresh
        Docker volume is root's 0755, which a container with runAsUser could not write to)."""
        labels = {LABEL_SERVER: self.server_id, LABEL_POD: f"{pod.ns}/{pod.name}"}
        made: dict[str, str] = {}
        unchanged: list[str] = []
        for name in names:
            volume_name = _docker_name("k8s", pod.ns, pod.name, name, self.server_id[:8])
            volume = self._engine().volumes.create(name=volume_name, labels=labels)
            made[name] = volume_name
            try:  # the engine's own files, when this process may touch them (root, local engine)
                Path(volume.attrs["Mountpoint"]).chmod(0o777)
            except (OSError, KeyError):
                unchanged.append(volume_name)
        if unchanged and self._image_id_sync(image) is not None:
            mounts = [docker.types.Mount(f"/v/{i}", v, type="volume") for i, v in enumerate(unchanged)]
            helper = self._engine().containers.create(
                image,
                entrypoint=["chmod", "0777", *(m["Target"] for m in mounts)],
                command=[],
                user="0",
                network_mode="none",
                mounts=mounts,
                labels=labels,
                name=_docker_name("k8s", pod.ns, pod.name, "volumes", self.server_id[:8]),
            )
            try:
                helper.start()
                helper.wait(timeout=60)
            except docker.errors.APIError:
                log.warning("k8s test server: could not make the emptyDir volumes of %s writable", pod.name)
            finally:
                helper.remove(force=True)
        return made

    def _image_id_sync(self, image: str) -> str | None:
        try:
            return str(self._engine().images.get(image).id)
        except (docker.errors.ImageNotFound, docker.errors.NullResource):
            return None

    def _create_sync(self, pod: _Pod, kwargs: dict[str, Any]) -> str:
        container = self._engine().containers.create(**kwargs)
        if pod.stopped or self._closing:  # deleted meanwhile: its removal may have looked already
            container.remove(force=True)
            raise _Stopped()
        return str(container.id)

    def _start_sync(self, pod: _Pod, cid: str) -> None:
        self._engine().api.start(cid)
        if pod.stopped or self._closing:
            with contextlib.suppress(docker.errors.APIError):
                self._engine().api.kill(cid)

    def _probe_sync(self, cid: str, command: list[str]) -> int:
        api = self._engine().api
        exec_id = api.exec_create(cid, command, stdout=True, stderr=True)["Id"]
        api.exec_start(exec_id)
        return self._exit_code_sync(exec_id)

    def _exit_code_sync(self, exec_id: str) -> int:
        info: Json = {}
        for _ in range(200):
            info = self._engine().api.exec_inspect(exec_id)
            if not info.get("Running") and info.get("ExitCode") is not None:
                return int(info["ExitCode"])
            time.sleep(0.01)
        code = info.get("ExitCode")
        return -1 if code is None else int(code)

    def _pod_containers_sync(self, pod: _Pod) -> list[Any]:
        filters: dict[str, str | list[str] | bool] = {
            "label": [f"{LABEL_SERVER}={self.server_id}", f"{LABEL_POD}={pod.ns}/{pod.name}"]
        }
        return list(self._engine().containers.list(all=True, ignore_removed=True, filters=filters))

    def _kill_pod_sync(self, pod: _Pod) -> None:
        for container in self._pod_containers_sync(pod):
            with contextlib.suppress(docker.errors.APIError):
                container.kill()

    def _remove_pod_sync(self, pod: _Pod) -> None:
        for container in self._pod_containers_sync(pod):
            with contextlib.suppress(docker.errors.APIError):
                container.kill()
            with contextlib.suppress(docker.errors.NotFound):
                container.remove(force=True)
        filters = {"label": [f"{LABEL_SERVER}={self.server_id}", f"{LABEL_POD}={pod.ns}/{pod.name}"]}
        for volume in self._engine().volumes.list(filters=filters):
            with contextlib.suppress(docker.errors.NotFound):
                volume.remove(force=True)

    # ---- logs and exec ---------------------------------------------------------------------------

    def _target(self, ns: str, name: str, container: str | None) -> tuple[_Pod, _Container]:
        self._get("pods", ns, name)  # 404 first
        if self.simulate:
            raise _ApiError(501, "exec and logs are not available in simulate mode", "NotImplemented")
        pod = self._pods[(ns, name)]
        cname = container or pod.main[0].name
        found = [c for c in pod.containers() if c.name == cname]
        if not found:
            raise _ApiError(400, f"container {cname} is not valid for pod {name}")
        return pod, found[0]

    async def _logs(self, request: web.Request, ns: str, name: str) -> web.Response:
        _, c = self._target(ns, name, request.query.get("container"))
        if not c.container_id:
            raise _ApiError(
                400,
                f'container "{c.name}" in pod "{name}" is waiting to start: '
                + (c.reason or "ContainerCreating"),
            )
        tail = request.query.get("tailLines")
        cid = c.container_id.removeprefix("docker://")
        logs = functools.partial(
            self._engine().api.logs, cid, stdout=True, stderr=True, tail=int(tail) if tail else "all"
        )
        return web.Response(body=await self._docker_call(logs), content_type="text/plain")

    async def _exec(self, request: web.Request, ns: str, name: str, kind: str) -> web.StreamResponse:
        """The exec subresource: a WebSocket (v5 or v4 channel protocol) onto a Docker exec."""
        query = request.query
        pod, c = self._target(ns, name, query.get("container"))
        command = query.getall("command", [])
        if not command:
            raise _ApiError(400, "you must specify at least 1 command")
        phase = self._store["pods"][pod.key]["status"].get("phase")
        if phase in ("Succeeded", "Failed"):
            raise _ApiError(400, f"cannot exec into a container in a completed pod; current phase is {phase}")
        if c.state != "running" or not c.container_id:
            raise _ApiError(400, f'unable to upgrade connection: container not found ("{c.name}")')
        ws = web.WebSocketResponse(
            protocols=(V5_PROTOCOL, V4_PROTOCOL), max_msg_size=MAX_BODY, compress=False, timeout=5.0
        )
        if not ws.can_prepare(request).ok:
            raise _ApiError(400, "Upgrade request required")
        await ws.prepare(request)
        session = _ExecSession(
            server=self,
            ws=ws,
            kind=kind,
            cid=c.container_id.removeprefix("docker://"),
            command=command,
            stdin=_flag(query.get("stdin")),
            stdout=_flag(query.get("stdout"), True),
            stderr=_flag(query.get("stderr"), True),
            tty=_flag(query.get("tty")),
        )
        try:
            await session.run()
        except ConnectionError as exc:  # the client went away while the last frames were sent
            # Logged: an exec cut short shows up in a failing test's captured log with its cause.
            log.warning(
                "k8s test server: exec %s ended by %r, %d frames unsent", command, exc, session.outbox.qsize()
            )
        finally:
            with contextlib.suppress(Exception):
                await ws.close()
        return ws

    def _exec_start_sync(
        self, cid: str, command: list[str], stdin: bool, stdout: bool, stderr: bool, tty: bool
    ) -> tuple[str, Any, socket.socket, bytes]:
        """Create and start a Docker exec; returns its id, the stream object, its raw socket (made
        non-blocking) and whatever the HTTP reader had buffered past the upgrade response."""
        api = self._engine().api
        exec_id = api.exec_create(cid, command, stdin=stdin, stdout=stdout, stderr=stderr, tty=tty)["Id"]
        stream = api.exec_start(exec_id, socket=True, tty=tty)
        raw = getattr(stream, "_sock", None)
        if not isinstance(raw, socket.socket):
            stream.close()
            raise RuntimeError(f"unsupported Docker transport for exec streams: {type(stream).__name__}")
        raw.setblocking(False)
        buffered = b""
        with contextlib.suppress(Exception):
            reader = stream._response.raw._fp.fp  # type: ignore[union-attr]
            peeked = reader.peek(1) if reader is not None else b""
            if peeked:
                buffered = reader.read(len(peeked))
        return exec_id, stream, raw, buffered


_VERSION = {
    "major": "1",
    "minor": "33",
    "gitVersion": "v1.33.0-forge-docker",
    "gitCommit": "0000000000000000000000000000000000000000",
    "gitTreeState": "clean",
    "buildDate": "2025-01-01T00:00:00Z",
    "goVersion": "go1.24",
    "compiler": "gc",
    "platform": "linux/amd64",
}


def _log_failure(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None and not isinstance(exc, _Stopped):
        log.error("k8s test server: background task failed", exc_info=exc)


@dataclass
class _ExecSession:
    """One exec: Docker's multiplexed stream to WebSocket channels 1 and 2, channel 0 to its stdin,
    and the exit status on channel 3."""

    server: DockerKubeApi
    ws: web.WebSocketResponse
    kind: str
    cid: str
    command: list[str]
    stdin: bool
    stdout: bool
    stderr: bool
    tty: bool
    outbox: asyncio.Queue[tuple[int, bytes] | None] = field(default_factory=asyncio.Queue)
    start_error: bytes = b""

    async def send(self, channel: int, data: bytes) -> None:
        frame = bytes([channel]) + data
        await self.ws.send_bytes(frame)
        self.server._count(self.kind, bytes_out=len(frame))

    async def run(self) -> None:
        server = self.server
        try:
            exec_id, stream, raw, buffered = await server._docker_call(
                server._exec_start_sync,
                self.cid,
                self.command,
                self.stdin,
                self.stdout,
                self.stderr,
                self.tty,
            )
        except (docker.errors.APIError, RuntimeError) as exc:
            await self.send(ERROR, json.dumps(_internal_error(str(exc))).encode())
            return
        try:
            await self._pump(exec_id, raw, buffered)
        finally:
            with contextlib.suppress(OSError):
                raw.shutdown(socket.SHUT_RDWR)
            raw.close()
            with contextlib.suppress(Exception):
                stream._response.close()
            stream.close()

    async def _pump(self, exec_id: str, raw: socket.socket, buffered: bytes) -> None:
        loop = asyncio.get_running_loop()
        out_task = loop.create_task(self._from_docker(raw, buffered))
        in_task = loop.create_task(self._to_docker(raw))
        sender = loop.create_task(self._send_outbox())
        try:
            done, _ = await asyncio.wait({out_task, in_task}, return_when=asyncio.FIRST_COMPLETED)
            if out_task not in done:
                # The client went away: stop forwarding, leave the process be (as a kubelet does).
                log.warning(
                    "k8s test server: exec %s: the client's side ended first (%r), %d frames unsent",
                    self.command,
                    in_task.exception() or "closed",
                    self.outbox.qsize(),
                )
                return
            out_task.result()
            self.outbox.put_nowait(None)
            await sender
            try:
                status = self._status(await self.server._docker_call(self.server._exit_code_sync, exec_id))
            except docker.errors.APIError as exc:  # the container went (its pod was deleted)
                status = _internal_error(str(exc))
            await self.send(ERROR, json.dumps(status).encode())
        finally:
            for task in (out_task, in_task, sender):
                task.cancel()
            await asyncio.gather(out_task, in_task, sender, return_exceptions=True)

    def _status(self, code: int) -> Json:
        if code == 0:
            return {"metadata": {}, "status": "Success"}
        detail = ""
        if self.start_error:
            text = self.start_error.decode(errors="replace").strip()
            detail = ": " + text
            if "executable file not found" in text or "no such file or directory" in text:
                code = 127  # Docker says 126 for both; a shell (and kubectl) says 127 for "not found"
            code = code or 126
        return {
            "metadata": {},
            "status": "Failure",
            "message": (
                "command terminated with non-zero exit code: error executing command "
                f"[{' '.join(self.command)}], exit code {code}{detail}"
            ),
            "reason": "NonZeroExitCode",
            "details": {"causes": [{"reason": "ExitCode", "message": str(code)}]},
        }

    async def _send_outbox(self) -> None:
        while True:
            item = await self.outbox.get()
            if item is None:
                return
            await self.send(*item)

    async def _from_docker(self, raw: socket.socket, buffered: bytes) -> None:
        """Docker's stream to the outbox, unbounded so a client that writes all its stdin before it
        reads cannot deadlock against a command that writes as it reads."""
        loop = asyncio.get_running_loop()
        buf = bytearray(buffered)
        first = True
        while True:
            if self.tty:
                if buf:
                    self.outbox.put_nowait((STDOUT, bytes(buf)))
                    buf.clear()
            else:
                while len(buf) >= 8:
                    size = int.from_bytes(buf[4:8], "big")
                    if len(buf) < 8 + size:
                        break
                    kind, payload = buf[0], bytes(buf[8 : 8 + size])
                    del buf[: 8 + size]
                    if first and payload.startswith(b"OCI runtime exec failed"):
                        # Docker reports a command that could not start on stdout; kubectl shows it on
                        # stderr with the exit code (126/127), which the status carries.
                        self.start_error = payload
                        self.outbox.put_nowait((STDERR, payload))
                    elif payload:
                        self.outbox.put_nowait((STDERR if kind in (2, 3) else STDOUT, payload))
                    first = False
            chunk = await loop.sock_recv(raw, 1 << 16)
            if not chunk:
                return
            buf += chunk

    async def _to_docker(self, raw: socket.socket) -> None:
        """Channel 0 to the command's stdin; the v5 close of channel 0 closes it. Ends when the
        client goes away."""
        loop = asyncio.get_running_loop()
        v5 = self.ws.ws_protocol == V5_PROTOCOL
        stdin_open = self.stdin
        async for msg in self.ws:
            if msg.type == WSMsgType.BINARY:
                data = bytes(msg.data)
            elif msg.type == WSMsgType.TEXT:
                data = str(msg.data).encode()
            else:
                continue
            if not data:
                continue
            self.server._count(self.kind, bytes_in=len(data))
            channel, payload = data[0], data[1:]
            if channel == STDIN and stdin_open and payload:
                try:
                    await loop.sock_sendall(raw, payload)
                except OSError:
                    stdin_open = False  # the command is gone or closed its stdin
            elif channel == CLOSE and v5 and payload[:1] == bytes([STDIN]) and stdin_open:
                stdin_open = False
                with contextlib.suppress(OSError):
                    raw.shutdown(socket.SHUT_WR)


def _internal_error(message: str) -> Json:
    return {
        "metadata": {},
        "status": "Failure",
        "message": f"Internal error occurred: error executing command in container: {message}",
        "reason": "InternalError",
        "details": {"causes": [{"message": f"error executing command in container: {message}"}]},
        "code": 500,
    }
