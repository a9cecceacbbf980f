"""This process's run on a Kubernetes cluster: settings, API clients, the run's parent object and network
policies, retries and back-pressure, and the watchdog that deletes the run if we die.

One driver process is one run: its parent ConfigMap (`forge-run-<id>`) owns every pod and policy it
creates, so deleting the parent (the watchdog does, the moment we die, even by SIGKILL) lets the cluster's
garbage collector remove the whole run. Settings come from `configure()` (the CLIs' `--namespace`,
`--registry`, ...) or the `FORGE_K8S_*` environment, so callers of `create_sandbox(spec, "k8s")` pass
nothing more than they pass for Docker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from kubernetes import client as k8s
from kubernetes import config as k8s_config
from kubernetes.client.exceptions import ApiException
from kubernetes.config.config_exception import ConfigException
from pydantic import BaseModel, Field
from urllib3.exceptions import HTTPError

from envs import cleanup, labels
from envs.errors import ClusterError
from envs.k8s_manifests import (
    deny_all_policy,
    label_value,
    object_name,
    owner_reference,
    parent_manifest,
)

log = logging.getLogger("forge.envs")
T = TypeVar("T")

DRIVER_LABEL = "openforge.driver"
"""The run (driver process) a pod, policy or parent belongs to."""
RETRY_STATUSES = (429, 500, 502, 503, 504)
MAX_ATTEMPTS = 8


class KubernetesSettings(BaseModel):
    """Where and how sandboxes run on a cluster."""

    namespace: str = Field(default_factory=lambda: os.environ.get("FORGE_K8S_NAMESPACE", "default"))
    kubeconfig: str | None = Field(default_factory=lambda: os.environ.get("FORGE_K8S_KUBECONFIG"))
    """A kubeconfig file; else $KUBECONFIG or ~/.kube/config, else the in-cluster service account."""
    context: str | None = Field(default_factory=lambda: os.environ.get("FORGE_K8S_CONTEXT"))
    registry: str | None = Field(default_factory=lambda: os.environ.get("FORGE_K8S_REGISTRY"))
    """Images are `<registry>/<local tag>` (pushed with `forge-env build --push REGISTRY`); None: the
    local tags, for a cluster that has them (kind's `kind load docker-image`)."""
    runtime_class: str | None = Field(default_factory=lambda: os.environ.get("FORGE_K8S_RUNTIME_CLASS"))
    """e.g. gvisor or kata, for a stronger boundary than runc."""
    start_timeout_sec: float = Field(
        default_factory=lambda: float(os.environ.get("FORGE_K8S_START_TIMEOUT", "300"))
    )
    """The client's deadline for a pod to be ready (pulls included)."""
    pod_deadline_sec: int = Field(
        default_factory=lambda: int(os.environ.get("FORGE_K8S_POD_DEADLINE", "21600"))
    )
    """activeDeadlineSeconds: the cluster ends any sandbox pod after this, whatever the driver does."""
    max_inflight: int = Field(default_factory=lambda: int(os.environ.get("FORGE_K8S_MAX_INFLIGHT", "32")))
    """At most this many pod creations and start-ups at once (429s shrink it further, for a while)."""
    image_pull_policy: str = "IfNotPresent"
    image_volumes: bool = Field(default_factory=lambda: os.environ.get("FORGE_K8S_BUNDLES") == "image-volume")
    """Harness bundles as image volumes (the cluster must support them: beta, on by default from 1.35);
    else each is copied by an init container into an emptyDir, which works everywhere."""
    node_selector: dict[str, str] = Field(default_factory=dict)
    watchdog: bool = True


_settings_lock = threading.Lock()
_settings: KubernetesSettings | None = None
_run: KubernetesRun | None = None


def configure(**values: Any) -> KubernetesSettings:
    """Set this process's settings (None values keep the default); the next sandbox uses them."""
    global _settings, _run
    with _settings_lock:
        _settings = KubernetesSettings(**{k: v for k, v in values.items() if v is not None})
        _run = None
        return _settings


def settings() -> KubernetesSettings:
    global _settings
    with _settings_lock:
        if _settings is None:
            _settings = KubernetesSettings()
        return _settings


def current_run() -> KubernetesRun:
    """The run of this process (created with its first sandbox)."""
    global _run
    wanted = settings()
    with _settings_lock:
        if _run is None or _run.pid != os.getpid():
            _run = KubernetesRun(wanted)
        return _run


def api_client(config: KubernetesSettings) -> k8s.ApiClient:
    """A new ApiClient for the configured cluster."""
    configuration = k8s.Configuration()
    try:
        if (
            config.kubeconfig
            or os.environ.get("KUBECONFIG")
            or os.path.exists(os.path.expanduser("~/.kube/config"))
        ):
            k8s_config.load_kube_config(
                config_file=config.kubeconfig, context=config.context, client_configuration=configuration
            )
        else:
            k8s_config.load_incluster_config(client_configuration=configuration)
    except (ConfigException, OSError) as exc:
        raise ClusterError(f"no usable Kubernetes configuration: {exc}") from exc
    return k8s.ApiClient(configuration)


class Backpressure:
    """Bounded concurrency that narrows when the API server answers 429 and widens again as calls pass."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self.allowed = float(self.limit)
        self.active = 0
        self.throttled = 0
        self._cond = threading.Condition()

    def __enter__(self) -> None:
        with self._cond:
            while self.active >= max(1, int(self.allowed)):
                self._cond.wait()
            self.active += 1

    def __exit__(self, *_: object) -> None:
        with self._cond:
            self.active -= 1
            self.allowed = min(float(self.limit), self.allowed + 0.1)
            self._cond.notify_all()

    def throttle(self) -> None:
        with self._cond:
            self.throttled += 1
            self.allowed = max(1.0, self.allowed / 2)


def call(what: str, fn: Callable[[], T], pressure: Backpressure | None = None) -> T:
    """`fn()` retried on 429 (after the server's Retry-After) and 5xx, with jittered backoff; any other
    refusal, or the last one, is a ClusterError naming `what`."""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            return fn()
        except ApiException as exc:
            if exc.status not in RETRY_STATUSES or attempt == MAX_ATTEMPTS:
                raise ClusterError(
                    f"{what}: the API server answered {exc.status} {exc.reason}: {_message(exc)}", exc.status
                ) from exc
            delay = min(10.0, 0.2 * 2 ** (attempt - 1)) * (0.5 + random.random())
            if exc.status == 429:
                if pressure is not None:
                    pressure.throttle()
                retry_after = (exc.headers or {}).get("Retry-After")
                with contextlib.suppress(TypeError, ValueError):
                    delay = max(delay, float(retry_after))  # type: ignore[arg-type]
            log.info("%s: %s, retried in %.1fs (attempt %d)", what, exc.status, delay, attempt)
            time.sleep(delay)
        except (OSError, ValueError, HTTPError) as exc:  # urllib3's own (MaxRetryError) are not OSErrors
            if attempt == MAX_ATTEMPTS:
                raise ClusterError(f"{what}: the API server cannot be reached: {exc}") from exc
            time.sleep(min(10.0, 0.2 * 2 ** (attempt - 1)))
    raise AssertionError("unreachable")


def _message(exc: ApiException) -> str:
    import json

    try:
        return str(json.loads(exc.body or "{}").get("message", ""))[:300]
    except ValueError:
        return str(exc.body or "")[:300]


class KubernetesRun:
    """The run's clients, parent object and policies (made once, lazily, by the first sandbox)."""

    def __init__(self, config: KubernetesSettings) -> None:
        self.config = config
        self.pid = os.getpid()
        self.id = uuid.uuid4().hex[:10]
        self.owner = cleanup.owner_id()
        self.parent_name = object_name("forge-run", self.id)
        self.labels = {DRIVER_LABEL: self.id}
        self.api = api_client(config)
        self.core = k8s.CoreV1Api(self.api)
        self.networking = k8s.NetworkingV1Api(self.api)
        self.pressure = Backpressure(config.max_inflight)
        self._lock = threading.Lock()
        self._owner_ref: dict[str, Any] | None = None
        self._watchdog: subprocess.Popen[bytes] | None = None

    @property
    def namespace(self) -> str:
        return self.config.namespace

    def owner_ref(self) -> dict[str, Any]:
        """The parent's ownerReference, creating the parent, the watchdog and the run's deny-all network
        policy the first time (no pod of the run has any network: the model comes through the tunnel)."""
        with self._lock:
            if self._owner_ref is None:
                run_labels = {**self.labels, labels.OWNER: label_value(self.owner)}
                manifest = parent_manifest(self.parent_name, self.namespace, self.owner, run_labels)
                created = self._create(
                    f"the run's parent {self.namespace}/{self.parent_name}",
                    lambda: self.core.create_namespaced_config_map(self.namespace, manifest),  # type: ignore[arg-type]
                    lambda: self.core.read_namespaced_config_map(self.parent_name, self.namespace),
                )
                if created.metadata is None or not created.metadata.uid:
                    raise ClusterError(f"the API server gave the run's parent {self.parent_name} no uid")
                manifest["metadata"]["uid"] = created.metadata.uid
                owner_ref = owner_reference(manifest)
                if self.config.watchdog and self._watchdog is None:
                    self._start_watchdog()
                name = object_name(self.parent_name, "deny")
                policy = deny_all_policy(name, self.namespace, self.labels, owner_ref)
                self._create(  # no pod is created before it exists: on a cluster, no policy is no wall
                    f"the run's deny-all network policy {self.namespace}/{name}",
                    lambda: self.networking.create_namespaced_network_policy(self.namespace, policy),  # type: ignore[arg-type]
                    lambda: self.networking.read_namespaced_network_policy(name, self.namespace),
                )
                self._owner_ref = owner_ref
            return self._owner_ref

    def _create(self, what: str, create: Callable[[], T], read: Callable[[], T]) -> T:
        """`create()`, retried; a 409 from a retry whose first try went through reads what it made (the
        names are this run's own, so what exists under them is ours)."""
        try:
            return call(f"create {what}", create, self.pressure)
        except ClusterError as exc:
            if exc.status != 409:
                raise
            return call(f"read {what}", read, self.pressure)

    def _start_watchdog(self) -> None:
        """`python -m envs.k8s_reaper watch`: holds a pipe from us and deletes the parent when it closes."""
        command = [
            sys.executable, "-m", "envs.k8s_reaper", "watch",
            "--namespace", self.namespace, "--parent", self.parent_name,
        ]  # fmt: skip
        if self.config.kubeconfig:
            command += ["--kubeconfig", self.config.kubeconfig]
        if self.config.context:
            command += ["--context", self.config.context]
        self._watchdog = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
        )

    def delete(self) -> None:
        """Delete the parent now: the cluster removes every pod and policy of the run."""
        with self._lock:
            if self._owner_ref is None:
                return
            with contextlib.suppress(ClusterError):
                call(
                    f"delete the run's parent {self.namespace}/{self.parent_name}",
                    lambda: self.core.delete_namespaced_config_map(
                        self.parent_name, self.namespace, propagation_policy="Background"
                    ),
                )
            self._owner_ref = None

    def close(self) -> None:
        """End the run: delete its parent (and so everything it owns) and let the watchdog go."""
        self.delete()
        with contextlib.suppress(Exception):
            self.api.close()
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None and watchdog.stdin is not None:
            with contextlib.suppress(OSError):
                watchdog.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                watchdog.wait(10)  # it finds the parent gone and ends

    def image(self, local_tag: str) -> str:
        """The image reference the cluster pulls for a local tag."""
        registry = (self.config.registry or "").rstrip("/")
        return f"{registry}/{local_tag}" if registry else local_tag
