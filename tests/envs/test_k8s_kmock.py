"""The k8s backend against an emulated Kubernetes API (kmock, served on loopback by
tests/envs/kmock_cluster.py): the objects a sandbox's start creates, how a start fails (image pulls,
scheduling, crashes, timeouts), its retries, `gc`, and the watchdog that deletes a dead driver's run.

Nothing of ours is mocked: the backend talks HTTP to the emulator. A "kubelet" thread here plays the
node's part, reporting pod statuses through the API's status subresource. kmock has no exec subresource,
so a pod reported running fails at the first exec; what is tested is what happens before it, and that the
pod is deleted after every failed start.
"""

from __future__ import annotations

import datetime
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest
from kubernetes import client as k8s
from kubernetes import config as k8s_config
from kubernetes.client.exceptions import ApiException

from envs import k8s_run
from envs.errors import (
    ClusterError,
    ImagePullFailed,
    PodCrashed,
    PodStartTimeout,
    PodUnschedulable,
    SandboxError,
    SandboxStartError,
)
from envs.k8s_manifests import SANDBOX_LABEL, label_value, object_name
from envs.k8s_reaper import remove_objects
from envs.k8s_run import DRIVER_LABEL, KubernetesRun, KubernetesSettings
from envs.k8s_sandbox import KubernetesSandbox
from envs.sandbox import SandboxSpec
from tests.envs.kmock_cluster import EmulatedCluster, write_kubeconfig

REPO = Path(__file__).resolve().parents[2]
IMAGE = "registry.invalid/openforge/task-csv-sales-summary:0123456789abcdef"
TASK = "csv-sales-summary"
RUN = "exp/7 step-3"
"""A training run's id, with characters a label value cannot hold."""
DEADLINE_SEC = 4321
QUICK_SEC = 6.0
"""A start that fails on a pod's status must fail within this (the start timeout is 15 s)."""


@pytest.fixture
def cluster() -> Iterator[EmulatedCluster]:
    """A cluster of the test's own: kmock finds a reaction by walking every request it has had."""
    with EmulatedCluster() as running:
        yield running


@dataclass
class Env:
    """One test's namespace on the emulated cluster, its kubeconfig, and API clients of its own (typed
    Any: the client's stubs make every field Optional and every body a model, and the tests send and read
    plain manifests)."""

    cluster: EmulatedCluster
    namespace: str
    kubeconfig: Path
    core: Any
    networking: Any
    runs: list[KubernetesRun] = field(default_factory=list)

    def settings(self, **values: Any) -> KubernetesSettings:
        values = {
            "namespace": self.namespace,
            "kubeconfig": str(self.kubeconfig),
            "start_timeout_sec": 15.0,
            "pod_deadline_sec": DEADLINE_SEC,
            "watchdog": False,
            **values,
        }
        return KubernetesSettings(**values)

    def sandbox(self, **settings: Any) -> KubernetesSandbox:
        run = KubernetesRun(self.settings(**settings))
        self.runs.append(run)
        spec = SandboxSpec(image=IMAGE, task=TASK, run=RUN, role="agent")
        return KubernetesSandbox(spec, run=run)

    def pod_path(self) -> str:
        return f"/api/v1/namespaces/{self.namespace}/pods"

    def exists(self, read: Callable[[str, str], Any], name: str) -> bool:
        try:
            read(name, self.namespace)
        except ApiException as exc:
            if exc.status == 404:
                return False
            raise
        return True

    def pod_exists(self, name: str) -> bool:
        return self.exists(self.core.read_namespaced_pod, name)

    def config_map_exists(self, name: str) -> bool:
        return self.exists(self.core.read_namespaced_config_map, name)


@pytest.fixture
def env(cluster: EmulatedCluster, tmp_path: Path) -> Iterator[Env]:
    namespace = f"forge-{uuid.uuid4().hex[:8]}"
    kubeconfig = cluster.kubeconfig(tmp_path / "kubeconfig", namespace)
    api = k8s_config.new_client_from_config(config_file=str(kubeconfig))
    found = Env(cluster, namespace, kubeconfig, k8s.CoreV1Api(api), k8s.NetworkingV1Api(api))
    yield found
    for run in found.runs:
        run.api.close()
    api.close()


# -- the node's side ------------------------------------------------------------------------------------

NOW = datetime.datetime.now(tz=datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def container(name: str, state: dict[str, Any], ready: bool = False) -> dict[str, Any]:
    return {"name": name, "image": IMAGE, "imageID": "", "ready": ready, "restartCount": 0, "state": state}


def waiting(reason: str, message: str = "") -> dict[str, Any]:
    """A pod whose task container waits with `reason` (its warden still being created)."""
    return {
        "phase": "Pending",
        "containerStatuses": [
            container("task", {"waiting": {"reason": reason, "message": message}}),
            container("warden", {"waiting": {"reason": "ContainerCreating"}}),
        ],
    }


RUNNING: dict[str, Any] = {
    "phase": "Running",
    "conditions": [{"type": "PodScheduled", "status": "True"}, {"type": "Ready", "status": "True"}],
    "containerStatuses": [
        container("task", {"running": {"startedAt": NOW}}, ready=True),
        container("warden", {"running": {"startedAt": NOW}}, ready=True),
    ],
}
PULL_ERROR = waiting("ErrImagePull", f'failed to pull and unpack image "{IMAGE}": not found')
UNSCHEDULABLE: dict[str, Any] = {
    "phase": "Pending",
    "conditions": [
        {
            "type": "PodScheduled",
            "status": "False",
            "reason": "Unschedulable",
            "message": "0/3 nodes are available: 3 Insufficient cpu.",
        }
    ],
}
CRASHED: dict[str, Any] = {
    "phase": "Running",
    "containerStatuses": [
        container("task", {"terminated": {"exitCode": 1, "reason": "Error", "startedAt": NOW}}),
        container("warden", {"running": {"startedAt": NOW}}),
    ],
}
EVICTED: dict[str, Any] = {
    "phase": "Failed",
    "reason": "Evicted",
    "message": "The node was low on resource: memory.",
}
PAST_DEADLINE: dict[str, Any] = {
    "phase": "Failed",
    "reason": "DeadlineExceeded",
    "message": "Pod was active on the node longer than the specified deadline",
}


class Kubelet:
    """The node's part, faked: each new sandbox pod of the namespace gets `status` (as a kubelet reports
    it; or `status(pod name)`) through the API's status subresource, `delay` after it appears; None
    leaves a pod without one. `seen` holds each pod as the API served it before the kubelet touched it."""

    def __init__(
        self,
        env: Env,
        status: dict[str, Any] | Callable[[str], dict[str, Any] | None] | None,
        delay: float = 0.2,
    ) -> None:
        self.env = env
        self.status = status
        self.delay = delay
        self.seen: dict[str, dict[str, Any]] = {}
        self.errors: list[BaseException] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fake-kubelet", daemon=True)

    def __enter__(self) -> Kubelet:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join(10)
        if kind is None and self.errors:
            raise AssertionError(f"the fake kubelet failed: {self.errors!r}")

    def _run(self) -> None:
        core, ns = self.env.core, self.env.namespace
        while not self._stop.wait(0.05):
            try:
                for pod in core.list_namespaced_pod(ns, label_selector="openforge.managed=true").items:
                    name = pod.metadata.name
                    if name in self.seen:
                        continue
                    self.seen[name] = core.api_client.sanitize_for_serialization(pod)
                    status = self.status(name) if callable(self.status) else self.status
                    if status is not None and not self._stop.wait(self.delay):
                        core.patch_namespaced_pod_status(name, ns, {"status": status})
            except ApiException as exc:
                if exc.status != 404:  # a pod deleted under the patch is not the kubelet's failure
                    self.errors.append(exc)
                    return
            except Exception as exc:
                self.errors.append(exc)
                return


def _pod_body(name: str, labels: dict[str, str]) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "labels": labels},
        "spec": {"containers": [{"name": "main", "image": "busybox"}]},
    }


def start_fails(sandbox: KubernetesSandbox, expected: type[BaseException]) -> tuple[BaseException, float]:
    started = time.monotonic()
    with pytest.raises(expected) as caught:
        sandbox.start()
    return caught.value, time.monotonic() - started


# -- what a start creates ------------------------------------------------------------------------------


def test_the_pod_the_parent_and_the_deny_all_policy_carry_the_labels_and_owner(env: Env) -> None:
    sandbox = env.sandbox()
    run = sandbox.run
    with Kubelet(env, RUNNING) as kubelet:
        error, _ = start_fails(sandbox, SandboxError)  # running, then the first exec: none on kmock
    assert "the warden cannot run" in str(error), error  # it ran: _await_running returned
    own_watch = f"{env.pod_path()}?watch=true&fieldSelector=metadata.name={sandbox.name}"
    assert env.cluster.requests("GET", own_watch) >= 1, "the pod was not watched by its name"
    assert env.cluster.requests("GET", f"{env.pod_path()}/{sandbox.name}") == 0, "the pod was polled"

    parent = env.core.read_namespaced_config_map(run.parent_name, env.namespace)
    assert parent.metadata.uid
    assert parent.metadata.labels[DRIVER_LABEL] == run.id
    assert parent.metadata.labels["openforge.managed"] == "true"
    assert parent.metadata.labels["openforge.parent"] == "true"

    policy_name = object_name(run.parent_name, "deny")
    policy = env.networking.read_namespaced_network_policy(policy_name, env.namespace)
    assert policy.metadata.labels[DRIVER_LABEL] == run.id
    assert policy.metadata.labels["openforge.managed"] == "true"
    assert policy.spec.pod_selector.match_labels == {"openforge.managed": "true", DRIVER_LABEL: run.id}
    assert sorted(policy.spec.policy_types) == ["Egress", "Ingress"]
    assert not policy.spec.ingress and not policy.spec.egress
    assert [(r.kind, r.name, r.uid) for r in policy.metadata.owner_references] == [
        ("ConfigMap", run.parent_name, parent.metadata.uid)
    ]

    pod = kubelet.seen[sandbox.name]
    pod_labels = pod["metadata"]["labels"]
    assert pod_labels["openforge.managed"] == "true"
    assert pod_labels["openforge.task"] == TASK
    assert pod_labels["openforge.run"] == label_value(RUN) == "exp-7-step-3"
    assert pod_labels["openforge.role"] == "agent"
    assert pod_labels["openforge.owner"] == label_value(run.owner)
    assert pod_labels[DRIVER_LABEL] == run.id
    assert pod_labels[SANDBOX_LABEL] == sandbox.name
    assert pod["metadata"]["ownerReferences"] == [
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "name": run.parent_name,
            "uid": parent.metadata.uid,
            "blockOwnerDeletion": True,
        }
    ]
    assert pod["spec"]["activeDeadlineSeconds"] == DEADLINE_SEC
    assert pod["spec"]["automountServiceAccountToken"] is False
    assert [c["image"] for c in pod["spec"]["containers"]] == [IMAGE, IMAGE]
    assert not env.pod_exists(sandbox.name), "a failed start leaves its pod"


# -- how a start fails ---------------------------------------------------------------------------------


def test_an_image_pull_error_fails_the_start_at_once_naming_the_image(env: Env) -> None:
    sandbox = env.sandbox()
    with Kubelet(env, PULL_ERROR):
        error, took = start_fails(sandbox, ImagePullFailed)
    assert took < QUICK_SEC, f"the pull error was seen after {took:.1f}s"
    assert IMAGE in str(error) and "ErrImagePull" in str(error)
    assert not env.pod_exists(sandbox.name)


@pytest.mark.parametrize(
    ("status", "expected", "said"),
    [
        (UNSCHEDULABLE, PodUnschedulable, "3 Insufficient cpu"),
        (CRASHED, PodCrashed, "exited with 1"),
        (EVICTED, PodCrashed, "Evicted"),
        (PAST_DEADLINE, PodStartTimeout, "activeDeadlineSeconds"),
        (waiting("CrashLoopBackOff", "back-off 10s restarting failed container"), PodCrashed, "back-off"),
    ],
    ids=["unschedulable", "exit-1", "evicted", "deadline", "crash-loop"],
)
def test_a_pod_that_never_will_run_fails_the_start_with_its_class(
    env: Env, status: dict[str, Any], expected: type[SandboxStartError], said: str
) -> None:
    sandbox = env.sandbox()
    with Kubelet(env, status):
        error, took = start_fails(sandbox, expected)
    assert took < QUICK_SEC
    assert said in str(error)
    assert not env.pod_exists(sandbox.name)


def test_a_pod_that_never_gets_a_status_times_out_after_start_timeout(env: Env) -> None:
    sandbox = env.sandbox(start_timeout_sec=3.0)
    with Kubelet(env, None) as kubelet:
        error, took = start_fails(sandbox, PodStartTimeout)
    assert sandbox.name in kubelet.seen, "the pod was never created"
    assert 3.0 <= took < 7.0, f"timed out after {took:.1f}s"
    assert "3s" in str(error)
    assert not env.pod_exists(sandbox.name)


def test_a_pod_deleted_while_starting_fails_the_start(env: Env) -> None:
    sandbox = env.sandbox()
    done = threading.Event()

    own_watch = f"{env.pod_path()}?watch=true&fieldSelector=metadata.name={sandbox.name}"

    def delete_it() -> None:
        deadline = time.monotonic() + 10
        while not done.is_set() and time.monotonic() < deadline:
            if env.cluster.requests("GET", own_watch):  # the watch has begun
                time.sleep(0.2)
                env.core.delete_namespaced_pod(sandbox.name, env.namespace)
                return
            time.sleep(0.05)

    deleter = threading.Thread(target=delete_it, daemon=True)
    deleter.start()
    try:
        error, took = start_fails(sandbox, PodCrashed)
    finally:
        done.set()
        deleter.join(10)
    assert "deleted while starting" in str(error)
    assert took < QUICK_SEC


def test_a_neighbours_failing_pod_does_not_fail_this_start(env: Env) -> None:
    """Another sandbox's pod in the namespace cannot pull its image; this one runs (its watch is its own)."""
    env.core.create_namespaced_pod(env.namespace, _pod_body("neighbour", {"openforge.managed": "true"}))
    sandbox = env.sandbox()
    with Kubelet(env, lambda name: PULL_ERROR if name == "neighbour" else RUNNING, delay=0.0):
        error, _ = start_fails(sandbox, SandboxError)
    assert not isinstance(error, ImagePullFailed), error
    assert "the warden cannot run" in str(error), error


# -- retries -------------------------------------------------------------------------------------------


def test_429s_on_the_pod_create_are_retried_after_retry_after_and_counted(env: Env) -> None:
    sandbox = env.sandbox()
    env.cluster.refuse("POST", env.pod_path(), 429, times=2, headers={"Retry-After": "1"})
    with Kubelet(env, PULL_ERROR) as kubelet:
        _, took = start_fails(sandbox, ImagePullFailed)  # the start went on to watch the created pod
    assert env.cluster.requests("POST", env.pod_path()) == 3
    assert sandbox.name in kubelet.seen
    assert sandbox.run.pressure.throttled == 2
    assert took >= 2.0, f"Retry-After: 1 twice, yet the create succeeded after {took:.1f}s"


def test_a_500_on_the_pod_create_is_retried(env: Env) -> None:
    sandbox = env.sandbox()
    env.cluster.refuse("POST", env.pod_path(), 500)
    with Kubelet(env, PULL_ERROR) as kubelet:
        start_fails(sandbox, ImagePullFailed)
    assert env.cluster.requests("POST", env.pod_path()) == 2
    assert sandbox.name in kubelet.seen
    assert sandbox.run.pressure.throttled == 0


def test_a_403_on_the_pod_create_fails_at_once_with_its_status(env: Env) -> None:
    sandbox = env.sandbox()
    env.cluster.refuse("POST", env.pod_path(), 403)
    error, took = start_fails(sandbox, SandboxStartError)
    assert "403" in str(error), error
    assert isinstance(error.__cause__, ClusterError) and error.__cause__.status == 403
    assert env.cluster.requests("POST", env.pod_path()) == 1, "a 403 was retried"
    assert took < QUICK_SEC
    assert not env.pod_exists(sandbox.name)


def test_a_watch_refused_with_429_is_throttled_and_watched_again(env: Env) -> None:
    sandbox = env.sandbox()
    env.cluster.refuse("GET", env.pod_path() + "?watch=true", 429, times=1)
    with Kubelet(env, PULL_ERROR):
        start_fails(sandbox, ImagePullFailed)
    assert sandbox.run.pressure.throttled == 1


# -- 409: a create whose answer was lost, and a name someone else holds ----------------------------------


def test_a_create_whose_answer_was_lost_is_taken_as_ours(env: Env) -> None:
    """The first create is made, its answer lost (503): the retry's 409 is for our own pod."""
    sandbox = env.sandbox()
    env.cluster.refuse("POST", env.pod_path(), 503, applied=True)
    with Kubelet(env, PULL_ERROR):
        start_fails(sandbox, ImagePullFailed)  # it went on to watch the pod
    assert env.cluster.requests("POST", env.pod_path()) == 2
    assert not env.pod_exists(sandbox.name), "the failed start did not delete the pod it made"


def test_a_409_for_a_pod_labelled_as_ours_is_accepted(env: Env) -> None:
    sandbox = env.sandbox()
    env.core.create_namespaced_pod(
        env.namespace, _pod_body(sandbox.name, {"openforge.managed": "true", SANDBOX_LABEL: sandbox.name})
    )
    with Kubelet(env, PULL_ERROR):
        start_fails(sandbox, ImagePullFailed)
    assert env.cluster.requests("POST", env.pod_path()) == 2  # ours (made above) and the sandbox's
    assert not env.pod_exists(sandbox.name)


def test_a_409_for_a_foreign_pod_of_that_name_is_refused_and_the_pod_left_alone(env: Env) -> None:
    sandbox = env.sandbox()
    env.core.create_namespaced_pod(env.namespace, _pod_body(sandbox.name, {"app": "someone-else"}))
    error, _ = start_fails(sandbox, SandboxStartError)
    assert "not ours" in str(error)
    assert env.pod_exists(sandbox.name), "the backend deleted a pod that is not its own"


# -- gc ------------------------------------------------------------------------------------------------


def _create_gc_objects(env: Env) -> None:
    def pod(name: str, labels: dict[str, str]) -> None:
        env.core.create_namespaced_pod(env.namespace, _pod_body(name, labels))

    managed = {"openforge.managed": "true"}
    pod("run-a-1", {**managed, "openforge.run": label_value(RUN), DRIVER_LABEL: "d1"})
    pod("run-a-2", {**managed, "openforge.run": label_value(RUN), DRIVER_LABEL: "d2"})
    pod("run-b-1", {**managed, "openforge.run": "other-run", DRIVER_LABEL: "d1"})
    pod("unlabelled", {"app": "web"})
    pod("not-managed", {"openforge.managed": "false", "openforge.run": label_value(RUN)})
    for driver in ("d1", "d2"):
        env.core.create_namespaced_config_map(
            env.namespace,
            {
                "metadata": {
                    "name": f"forge-run-{driver}",
                    "labels": {**managed, "openforge.parent": "true", DRIVER_LABEL: driver},
                },
                "data": {"owner": "x"},
            },
        )
        env.networking.create_namespaced_network_policy(
            env.namespace,
            {
                "metadata": {"name": f"forge-run-{driver}-deny", "labels": {**managed, DRIVER_LABEL: driver}},
                "spec": {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]},
            },
        )
    env.core.create_namespaced_config_map(env.namespace, {"metadata": {"name": "settings"}, "data": {}})


def _names(env: Env) -> dict[str, list[str]]:
    ns = env.namespace
    return {
        "pods": sorted(p.metadata.name for p in env.core.list_namespaced_pod(ns).items),
        "networkpolicies": sorted(
            p.metadata.name for p in env.networking.list_namespaced_network_policy(ns).items
        ),
        "configmaps": sorted(c.metadata.name for c in env.core.list_namespaced_config_map(ns).items),
    }


def test_gc_of_everything_removes_all_managed_objects_and_nothing_else(env: Env) -> None:
    _create_gc_objects(env)
    removed = remove_objects(env.settings(), include_all=True)
    assert {kind: sorted(names) for kind, names in removed.items()} == {
        "pods": ["run-a-1", "run-a-2", "run-b-1"],
        "networkpolicies": ["forge-run-d1-deny", "forge-run-d2-deny"],
        "configmaps": ["forge-run-d1", "forge-run-d2"],
    }
    assert _names(env) == {
        "pods": ["not-managed", "unlabelled"],
        "networkpolicies": [],
        "configmaps": ["settings"],
    }


def test_gc_of_one_run_removes_only_that_runs_pods(env: Env) -> None:
    _create_gc_objects(env)
    removed = remove_objects(env.settings(), run=RUN)
    assert sorted(removed["pods"]) == ["run-a-1", "run-a-2"]
    assert removed["networkpolicies"] == removed["configmaps"] == []
    assert _names(env) == {
        "pods": ["not-managed", "run-b-1", "unlabelled"],
        "networkpolicies": ["forge-run-d1-deny", "forge-run-d2-deny"],
        "configmaps": ["forge-run-d1", "forge-run-d2", "settings"],
    }


def test_gc_of_one_driver_removes_its_pods_policy_and_parent(env: Env) -> None:
    _create_gc_objects(env)
    remove_objects(env.settings(), driver="d2")
    assert _names(env) == {
        "pods": ["not-managed", "run-a-1", "run-b-1", "unlabelled"],
        "networkpolicies": ["forge-run-d1-deny"],
        "configmaps": ["forge-run-d1", "settings"],
    }


# -- the watchdog --------------------------------------------------------------------------------------


def _wait_for(condition: Callable[[], bool], timeout: float, what: str) -> float:
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"{what}: not within {timeout:g}s")
        time.sleep(0.1)
    return time.monotonic() - started


def _parent(env: Env, name: str) -> None:
    env.core.create_namespaced_config_map(
        env.namespace, {"metadata": {"name": name, "labels": {"openforge.parent": "true"}}, "data": {}}
    )


def _watchdog(kubeconfig: Path, namespace: str, parent: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "envs.k8s_reaper", "watch", "--namespace", namespace]
    command += ["--parent", parent, "--kubeconfig", str(kubeconfig)]
    return subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)


def test_the_watchdog_deletes_the_parent_when_its_stdin_closes(env: Env) -> None:
    _parent(env, "forge-run-watched")
    watchdog = _watchdog(env.kubeconfig, env.namespace, "forge-run-watched")
    try:
        time.sleep(1.0)
        assert watchdog.poll() is None, watchdog.stderr.read() if watchdog.stderr else ""
        assert env.config_map_exists("forge-run-watched"), "deleted while its driver lives"
        assert watchdog.stdin is not None
        watchdog.stdin.close()
        _wait_for(lambda: not env.config_map_exists("forge-run-watched"), 10, "the parent's deletion")
        assert watchdog.wait(10) == 0
    finally:
        if watchdog.poll() is None:
            watchdog.kill()
            watchdog.wait()
        if watchdog.stderr is not None:
            watchdog.stderr.close()


DRIVER = textwrap.dedent(
    """
    import sys, time
    from envs import k8s_run
    settings = k8s_run.configure(namespace=sys.argv[1], kubeconfig=sys.argv[2], watchdog=True)
    k8s_run.KubernetesRun(settings).owner_ref()
    print("ready", flush=True)
    time.sleep(120)
    """
)


def test_a_driver_killed_by_sigkill_has_its_run_deleted_by_its_watchdog(env: Env) -> None:
    driver = subprocess.Popen(
        [sys.executable, "-c", DRIVER, env.namespace, str(env.kubeconfig)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={k: v for k, v in os.environ.items() if not k.startswith("FORGE_K8S_")},
    )
    try:
        assert driver.stdout is not None
        line = driver.stdout.readline()
        assert line == b"ready\n", (driver.stderr.read() if driver.stderr else b"").decode()[-2000:]
        parents = env.core.list_namespaced_config_map(
            env.namespace, label_selector="openforge.parent=true"
        ).items
        assert len(parents) == 1
        parent = parents[0].metadata.name
        policies = env.networking.list_namespaced_network_policy(env.namespace).items
        assert [p.metadata.owner_references[0].name for p in policies] == [parent]
        driver.send_signal(signal.SIGKILL)
        assert driver.wait(10) == -signal.SIGKILL
        _wait_for(lambda: not env.config_map_exists(parent), 10, "the dead driver's parent's deletion")
        # the cluster's garbage collector (emulated) then takes what the parent owns
        assert env.networking.list_namespaced_network_policy(env.namespace).items == []
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait()
        for stream in (driver.stdout, driver.stderr):
            if stream is not None:
                stream.close()


# -- what the backend survives: a cut watch, an API server that cannot be reached or is briefly away ------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_watch_whose_connection_drops_is_watched_again(env: Env) -> None:
    sandbox = env.sandbox()
    env.cluster.cut_next_watches(1)
    with Kubelet(env, PULL_ERROR, delay=0.5):
        start_fails(sandbox, ImagePullFailed)


def test_an_unreachable_api_server_is_a_cluster_error(
    env: Env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(k8s_run, "MAX_ATTEMPTS", 2)  # fewer rounds of back-off, the same path
    nowhere = write_kubeconfig(tmp_path / "nowhere", f"http://127.0.0.1:{_free_port()}", env.namespace)
    run = KubernetesRun(env.settings(kubeconfig=str(nowhere)))
    env.runs.append(run)
    with pytest.raises(ClusterError, match="cannot be reached"):
        run.owner_ref()


class Unanswering:
    """A listener on a port that closes every connection unanswered (an API server that is away), counting
    them."""

    def __init__(self, port: int) -> None:
        self.connections = 0
        self._server = socket.create_server(("127.0.0.1", port))
        self._server.settimeout(0.1)
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._closed.is_set():
            try:
                connection, _ = self._server.accept()
            except TimeoutError:
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self._closed.set()
        self._thread.join(5)
        self._server.close()


def test_the_watchdog_outlasts_an_api_server_that_is_briefly_away(tmp_path: Path) -> None:
    port = _free_port()
    namespace = "forge-outage"
    kubeconfig = write_kubeconfig(tmp_path / "kubeconfig", f"http://127.0.0.1:{port}", namespace)
    away = Unanswering(port)
    watchdog = _watchdog(kubeconfig, namespace, "forge-run-orphan")
    try:
        assert watchdog.stdin is not None
        watchdog.stdin.close()  # the driver is gone, and the API server is away
        _wait_for(lambda: away.connections > 0, 30, "the watchdog's first try")
        time.sleep(0.5)  # its tries (urllib3 makes a few) are over
        away.close()
        parent = {"metadata": {"name": "forge-run-orphan", "namespace": namespace}, "data": {}}
        with EmulatedCluster(port=port, seed=[("v1/configmaps", parent)]) as back:
            api = k8s_config.new_client_from_config(config_file=str(kubeconfig))
            core: Any = k8s.CoreV1Api(api)
            assert [c.metadata.name for c in core.list_namespaced_config_map(namespace).items] == [
                "forge-run-orphan"
            ]

            def gone() -> bool:
                if watchdog.poll() not in (None, 0):
                    died = watchdog.stderr.read()[-300:] if watchdog.stderr else b""
                    raise AssertionError(f"the watchdog died: {died!r}")
                return not core.list_namespaced_config_map(namespace).items

            try:
                _wait_for(gone, 10, "the orphaned parent's deletion")
            finally:
                api.close()
            assert back.port == port
    finally:
        away.close()
        if watchdog.poll() is None:
            watchdog.kill()
            watchdog.wait()
        if watchdog.stderr is not None:
            watchdog.stderr.close()
