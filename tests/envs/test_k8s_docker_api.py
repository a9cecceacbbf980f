"""The test cluster of tests/envs/k8s_docker_api.py, driven by the official `kubernetes` client against
real Docker: what a Kubernetes backend relies on (watches, exec streams, pod states, garbage collection,
API errors) must behave here as it does on a cluster, or tests built on it prove nothing."""

from __future__ import annotations

import concurrent.futures
import gc
import io
import json
import os
import tarfile
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import docker
import kubernetes
import pytest
from kubernetes.client.rest import ApiException
from kubernetes.stream import stream
from kubernetes.stream.ws_client import WSClient

from tests.envs.k8s_docker_api import LABEL_POD, LABEL_SERVER, DockerKubeApi

NS = "forge-test"
Pod = dict[str, Any]


# ---- fixtures and helpers -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(base_image: str) -> Iterator[DockerKubeApi]:
    with DockerKubeApi() as srv:
        yield srv


@pytest.fixture(scope="module")
def api(
    server: DockerKubeApi, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[kubernetes.client.CoreV1Api]:
    """The client as a backend makes it: from a kubeconfig file."""
    kubeconfig = server.write_kubeconfig(tmp_path_factory.mktemp("kube") / "config")
    kubernetes.config.load_kube_config(config_file=str(kubeconfig))
    core = kubernetes.client.CoreV1Api()
    yield core
    core.api_client.close()


@pytest.fixture(scope="module")
def sim(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[DockerKubeApi, kubernetes.client.ApiClient]]:
    """A simulating server (no Docker) and a client of its own, beside the module's default one."""
    with DockerKubeApi(simulate=True) as srv:
        kubeconfig = srv.write_kubeconfig(tmp_path_factory.mktemp("kube-sim") / "config")
        api_client = kubernetes.config.new_client_from_config(config_file=str(kubeconfig))
        yield srv, api_client
        api_client.close()


def pod_body(name: str, containers: list[Pod], **spec: Any) -> Pod:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "labels": {"app": "k8s-docker-test"}},
        "spec": {"restartPolicy": "Never", "containers": containers, **spec},
    }


def sleeper(image: str, name: str = "task", *command: str, **fields: Any) -> Pod:
    return {"name": name, "image": image, "command": list(command or ("sleep", "infinity")), **fields}


def condition(pod: Pod, kind: str) -> Pod:
    for cond in pod.get("status", {}).get("conditions") or []:
        if cond["type"] == kind:
            return dict(cond)
    return {}


def is_ready(pod: Pod) -> bool:
    return condition(pod, "Ready").get("status") == "True"


def watch_pod(
    core: kubernetes.client.CoreV1Api,
    name: str,
    until: Callable[[str, Pod], bool],
    timeout: int = 30,
    resource_version: str | None = None,
) -> list[tuple[float, str, Pod]]:
    """The watch events of one pod (time, type, raw object) up to the first for which `until` holds."""
    events: list[tuple[float, str, Pod]] = []
    w = kubernetes.watch.Watch()
    extra = {} if resource_version is None else {"resource_version": resource_version}
    for ev in w.stream(
        core.list_namespaced_pod,
        NS,
        field_selector=f"metadata.name={name}",
        timeout_seconds=timeout,
        **extra,
    ):
        assert isinstance(ev["object"], kubernetes.client.V1Pod)  # the client could read the status
        events.append((time.monotonic(), ev["type"], ev["raw_object"]))
        if until(ev["type"], ev["raw_object"]):
            w.stop()
            return events
    states = [(kind, pod.get("status")) for _, kind, pod in events[-3:]]
    pytest.fail(f"pod {name}: the awaited state never came in {timeout}s; last events: {states}")


def start_pod(core: kubernetes.client.CoreV1Api, body: Pod) -> Pod:
    """Create a pod and wait until it is Ready; returns its last state."""
    core.create_namespaced_pod(NS, body)
    return watch_pod(core, body["metadata"]["name"], lambda _, pod: is_ready(pod))[-1][2]


def delete_pod(core: kubernetes.client.CoreV1Api, name: str) -> None:
    """Delete a pod and wait until it is gone (its containers removed)."""
    rv = core.list_namespaced_pod(NS).metadata.resource_version
    core.delete_namespaced_pod(name, NS)
    watch_pod(core, name, lambda kind, _: kind == "DELETED", resource_version=rv)


def pod_containers(engine: docker.DockerClient, server: DockerKubeApi, name: str) -> list[Any]:
    labels = [f"{LABEL_SERVER}={server.server_id}", f"{LABEL_POD}={NS}/{name}"]
    return list(engine.containers.list(all=True, filters={"label": labels}))


def close_ws(resp: WSClient) -> None:
    """Close an exec stream. websocket-client does not close its socket once the server's close frame
    came (WebSocket.close returns early when no longer `connected`), so shut the socket too."""
    resp.close()
    resp.sock.shutdown()


def run(
    core: kubernetes.client.CoreV1Api,
    pod: str,
    command: list[str],
    stdin: bytes | None = None,
    container: str = "task",
) -> tuple[bytes, bytes, int]:
    """Run a command in a pod as a backend does (binary stream, stdin closed with the v5 close
    message); returns stdout, stderr and the exit code from the status channel."""
    resp = stream(
        core.connect_get_namespaced_pod_exec,
        pod,
        NS,
        command=command,
        container=container,
        stderr=True,
        stdin=stdin is not None,
        stdout=True,
        tty=False,
        _preload_content=False,
        binary=True,
    )
    try:
        assert resp.subprotocol == "v5.channel.k8s.io"
        if stdin is not None:
            resp.write_stdin(stdin)
            resp.close_channel(0)
        out = err = b""
        deadline = time.monotonic() + 30
        while resp.is_open():
            assert time.monotonic() < deadline, f"{command} did not end"
            resp.update(timeout=1)
            out += resp.read_stdout(timeout=0)
            err += resp.read_stderr(timeout=0)
        out += resp.read_stdout(timeout=0)
        err += resp.read_stderr(timeout=0)
        return out, err, resp.returncode
    finally:
        close_ws(resp)


@pytest.fixture(scope="module")
def task_pod(api: kubernetes.client.CoreV1Api, base_image: str) -> str:
    """A running pod to exec into (container "task")."""
    start_pod(api, pod_body("shell", [sleeper(base_image)]))
    return "shell"


# ---- pods as containers -------------------------------------------------------------------------


def test_pod_is_a_container_and_ready_only_once_its_probe_passes(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, base_image: str, client: docker.DockerClient
) -> None:
    rv = api.list_namespaced_pod(NS).metadata.resource_version
    probe = {"exec": {"command": ["cat", "/tmp/ready"]}, "periodSeconds": 1}
    gated = sleeper(base_image, "task", "sh", "-c", "sleep 1; touch /tmp/ready; exec sleep infinity")
    api.create_namespaced_pod(NS, pod_body("gated", [{**gated, "readinessProbe": probe}]))
    events = watch_pod(api, "gated", lambda _, pod: is_ready(pod), resource_version=rv)

    kinds = [kind for _, kind, _ in events]
    assert kinds[0] == "ADDED" and set(kinds[1:]) == {"MODIFIED"}
    assert events[0][2]["status"]["phase"] == "Pending"
    versions = [int(pod["metadata"]["resourceVersion"]) for _, _, pod in events]
    assert versions == sorted(set(versions))
    running = [t for t, _, pod in events if pod["status"]["phase"] == "Running" and not is_ready(pod)]
    assert running, "never Running and not yet Ready: the readiness probe did not gate"
    assert events[-1][0] - running[0] > 0.7  # the probe passes only after the container's `sleep 1`

    status = events[-1][2]["status"]["containerStatuses"][0]
    assert status["ready"] and status["started"] and "running" in status["state"]
    (container,) = pod_containers(client, server, "gated")
    assert status["containerID"] == f"docker://{container.id}"
    assert container.name.startswith(f"k8s-{NS}-gated-task")
    assert container.labels["app"] == "k8s-docker-test"
    assert container.attrs["HostConfig"]["NetworkMode"] == "none"
    assert container.status == "running"

    delete_pod(api, "gated")
    assert pod_containers(client, server, "gated") == []
    with pytest.raises(ApiException) as err:
        api.read_namespaced_pod("gated", NS)
    assert err.value.status == 404


def test_container_spec_maps_onto_docker(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, base_image: str, client: docker.DockerClient
) -> None:
    shared = {"name": "shared", "mountPath": "/shared"}
    task = sleeper(
        base_image,
        "task",
        "sleep",
        args=["infinity"],
        workingDir="/shared",
        env=[{"name": "FORGE_VAR", "value": "forty two"}],
        resources={"limits": {"cpu": "500m", "memory": "256Mi"}},
        securityContext={
            "readOnlyRootFilesystem": True,
            "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"], "add": ["NET_BIND_SERVICE"]},
        },
        volumeMounts=[shared, {"name": "shared", "mountPath": "/ro", "readOnly": True}],
    )
    args_only = {"name": "args-only", "image": base_image, "args": ["sleep", "infinity"]}
    init = sleeper(base_image, "prepare", "sh", "-c", "echo from-init > /shared/note", volumeMounts=[shared])
    body = pod_body(
        "mapped",
        [task, args_only],
        initContainers=[init],
        volumes=[{"name": "shared", "emptyDir": {}}],
        securityContext={"runAsUser": 1000, "runAsGroup": 1000},
    )
    pod = start_pod(api, body)

    (init_status,) = pod["status"]["initContainerStatuses"]
    assert init_status["state"]["terminated"]["exitCode"] == 0
    assert init_status["state"]["terminated"]["reason"] == "Completed"
    script = (
        'id -u; id -g; pwd; echo "$FORGE_VAR"; cat /shared/note; touch /shared/w && echo rw-ok; '
        "touch /ro/x 2>/dev/null || echo ro-denied; touch /rootfs 2>/dev/null || echo rootfs-denied"
    )
    out, err, code = run(api, "mapped", ["sh", "-c", script])
    assert (code, err) == (0, b"")
    assert out.decode().splitlines() == [
        "1000",
        "1000",
        "/shared",
        "forty two",
        "from-init",
        "rw-ok",
        "ro-denied",
        "rootfs-denied",
    ]

    by_name = {c.labels["forge.k8s-test.container"]: c for c in pod_containers(client, server, "mapped")}
    assert set(by_name) == {"prepare", "task", "args-only"}
    host = by_name["task"].attrs["HostConfig"]
    assert host["NanoCpus"] == 500_000_000
    assert host["Memory"] == 256 * 2**20
    assert host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"]
    assert [cap.removeprefix("CAP_") for cap in host["CapAdd"]] == ["NET_BIND_SERVICE"]
    assert "no-new-privileges" in host["SecurityOpt"]
    assert not host.get("Init")
    conf = by_name["task"].attrs["Config"]
    assert (conf["User"], conf["Entrypoint"], conf["Cmd"]) == ("1000:1000", ["sleep"], ["infinity"])
    conf = by_name["args-only"].attrs["Config"]
    assert (conf["Entrypoint"], conf["Cmd"]) == (None, ["sleep", "infinity"])  # the image's entrypoint
    delete_pod(api, "mapped")
    volumes = client.volumes.list(filters={"label": f"{LABEL_POD}={NS}/mapped"})
    assert volumes == []


def test_containers_of_a_pod_share_a_process_namespace(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, base_image: str, client: docker.DockerClient
) -> None:
    main = sleeper(base_image, "main", "sleep", "31337")
    side = sleeper(base_image, "side")
    start_pod(api, pod_body("pidns", [main, side], shareProcessNamespace=True))

    listing = "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < \"$f\"; echo; done"
    out, _, code = run(api, "pidns", ["sh", "-c", listing], container="side")
    assert code == 0
    assert "sleep 31337" in [line.strip() for line in out.decode().splitlines()]
    out, _, _ = run(api, "pidns", ["cat", "/proc/1/cmdline"], container="side")
    assert out == b"sleep\x0031337\x00"  # the first container's process is PID 1, not a pause process
    by_name = {c.labels["forge.k8s-test.container"]: c for c in pod_containers(client, server, "pidns")}
    assert by_name["side"].attrs["HostConfig"]["PidMode"] == f"container:{by_name['main'].id}"
    delete_pod(api, "pidns")


def test_a_missing_image_is_never_pulled_and_the_pod_stays_pending(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, client: docker.DockerClient
) -> None:
    image = "openforge/no-such-image:k8s-docker-test"
    with pytest.raises(docker.errors.ImageNotFound):
        client.images.get(image)
    api.create_namespaced_pod(NS, pod_body("no-image", [sleeper(image)]))

    def waiting(pod: Pod) -> str:
        statuses = pod.get("status", {}).get("containerStatuses") or [{}]
        return str(statuses[0].get("state", {}).get("waiting", {}).get("reason"))

    events = watch_pod(api, "no-image", lambda _, pod: waiting(pod) == "ImagePullBackOff")
    reasons = [waiting(pod) for _, _, pod in events]
    assert "ErrImagePull" in reasons
    assert reasons.index("ErrImagePull") < reasons.index("ImagePullBackOff")
    assert {pod["status"]["phase"] for _, _, pod in events} == {"Pending"}
    last = events[-1][2]["status"]["containerStatuses"][0]["state"]["waiting"]
    assert image in last["message"]
    assert pod_containers(client, server, "no-image") == []
    with pytest.raises(docker.errors.ImageNotFound):
        client.images.get(image)
    delete_pod(api, "no-image")


def test_an_unschedulable_pod_stays_pending_without_containers(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, base_image: str, client: docker.DockerClient
) -> None:
    body = pod_body("nowhere", [sleeper(base_image)], nodeSelector={"forge.test/unschedulable": "true"})
    api.create_namespaced_pod(NS, body)

    events = watch_pod(api, "nowhere", lambda _, pod: bool(condition(pod, "PodScheduled")))
    scheduled = condition(events[-1][2], "PodScheduled")
    assert (scheduled["status"], scheduled["reason"]) == ("False", "Unschedulable")
    assert "didn't match" in scheduled["message"]
    assert events[-1][2]["status"]["phase"] == "Pending"
    time.sleep(0.3)
    assert api.read_namespaced_pod("nowhere", NS).status.phase == "Pending"
    assert pod_containers(client, server, "nowhere") == []
    with pytest.raises(ApiException) as err:  # exec into a pod that does not run: 400 before upgrading
        stream(
            api.connect_get_namespaced_pod_exec,
            "nowhere",
            NS,
            command=["true"],
            stderr=True,
            stdin=False,
            stdout=True,
            tty=False,
        )
    assert "400" in str(err.value.reason)
    delete_pod(api, "nowhere")


def test_active_deadline_fails_the_pod(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, base_image: str, client: docker.DockerClient
) -> None:
    api.create_namespaced_pod(NS, pod_body("deadline", [sleeper(base_image)], activeDeadlineSeconds=1))
    events = watch_pod(api, "deadline", lambda _, pod: pod["status"]["phase"] == "Failed")

    phases = [pod["status"]["phase"] for _, _, pod in events]
    assert "Running" in phases
    assert events[-1][2]["status"]["reason"] == "DeadlineExceeded"
    assert not is_ready(events[-1][2])
    done = watch_pod(
        api, "deadline", lambda _, pod: "terminated" in pod["status"]["containerStatuses"][0]["state"]
    )[-1][2]
    assert done["status"]["phase"] == "Failed" and done["status"]["reason"] == "DeadlineExceeded"
    (container,) = pod_containers(client, server, "deadline")
    assert container.status == "exited"
    delete_pod(api, "deadline")


def test_container_exits_end_readiness_and_fail_the_pod(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, base_image: str, client: docker.DockerClient
) -> None:
    main = sleeper(base_image, "task", "sh", "-c", "echo bye; sleep 1; exit 4")
    start_pod(api, pod_body("exits", [main, sleeper(base_image, "side")]))

    def main_exited(pod: Pod) -> bool:
        return "terminated" in pod["status"]["containerStatuses"][0]["state"]

    pod = watch_pod(api, "exits", lambda _, pod: main_exited(pod))[-1][2]
    terminated = pod["status"]["containerStatuses"][0]["state"]["terminated"]
    assert (terminated["exitCode"], terminated["reason"]) == (4, "Error")
    assert not is_ready(pod)
    assert pod["status"]["phase"] == "Running"  # its other container still runs
    assert api.read_namespaced_pod_log("exits", NS, container="task") == "bye\n"
    delete_pod(api, "exits")

    failing_init = sleeper(base_image, "prepare", "sh", "-c", "exit 5")
    api.create_namespaced_pod(
        NS, pod_body("init-fails", [sleeper(base_image)], initContainers=[failing_init])
    )
    pod = watch_pod(api, "init-fails", lambda _, pod: pod["status"]["phase"] == "Failed")[-1][2]
    terminated = pod["status"]["initContainerStatuses"][0]["state"]["terminated"]
    assert (terminated["exitCode"], terminated["reason"]) == (5, "Error")
    names = {c.labels["forge.k8s-test.container"] for c in pod_containers(client, server, "init-fails")}
    assert names == {"prepare"}  # the main container never started
    delete_pod(api, "init-fails")


def test_deleting_an_owner_deletes_its_pod_and_containers(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, base_image: str, client: docker.DockerClient
) -> None:
    owner = api.create_namespaced_config_map(
        NS, {"metadata": {"name": "owner", "labels": {"role": "owner"}}, "data": {"k": "v"}}
    )
    ref = {"apiVersion": "v1", "kind": "ConfigMap", "name": "owner", "uid": owner.metadata.uid}
    body = pod_body("owned", [sleeper(base_image)])
    body["metadata"]["ownerReferences"] = [ref]
    start_pod(api, body)
    assert len(pod_containers(client, server, "owned")) == 1
    net = kubernetes.client.NetworkingV1Api(api.api_client)
    policy = {"metadata": {"name": "owned", "ownerReferences": [ref]}, "spec": {"podSelector": {}}}
    net.create_namespaced_network_policy(NS, policy)
    net.create_namespaced_network_policy(NS, {"metadata": {"name": "unowned"}, "spec": {"podSelector": {}}})

    rv = api.list_namespaced_pod(NS).metadata.resource_version
    api.delete_namespaced_config_map("owner", NS)
    events = watch_pod(api, "owned", lambda kind, _: kind == "DELETED", resource_version=rv)
    assert events[0][2]["metadata"].get("deletionTimestamp")  # first marked, then gone
    assert pod_containers(client, server, "owned") == []
    assert [p.metadata.name for p in net.list_namespaced_network_policy(NS).items] == ["unowned"]
    net.delete_namespaced_network_policy("unowned", NS)
    for read in (api.read_namespaced_config_map, api.read_namespaced_pod):
        with pytest.raises(ApiException) as err:
            read("owner" if read == api.read_namespaced_config_map else "owned", NS)
        assert err.value.status == 404


# ---- exec ---------------------------------------------------------------------------------------


def test_exec_exit_codes_and_output_streams(
    server: DockerKubeApi, api: kubernetes.client.CoreV1Api, task_pod: str
) -> None:
    before = server.stats()["exec"].count
    assert run(api, task_pod, ["sh", "-c", "printf out; printf err >&2; exit 3"]) == (b"out", b"err", 3)
    assert run(api, task_pod, ["sh", "-c", "printf fine"]) == (b"fine", b"", 0)
    out, err, code = run(api, task_pod, ["no-such-command"])
    assert (out, code) == (b"", 127)
    assert b"executable file not found" in err
    with warnings.catch_warnings():  # the client drops this stream's socket unclosed (see close_ws)
        warnings.simplefilter("ignore", ResourceWarning)
        simple = stream(
            api.connect_get_namespaced_pod_exec,
            task_pod,
            NS,
            command=["echo", "hello"],
            container="task",
            stderr=True,
            stdin=False,
            stdout=True,
            tty=False,
            _preload_content=True,
        )
        gc.collect()  # the socket sits in a reference cycle: let it go here, under this filter
    assert simple == "hello\n"
    stats = server.stats()["exec"]
    assert stats.count == before + 4
    assert stats.bytes_out > 0


def test_exec_stdin_round_trips_binary(api: kubernetes.client.CoreV1Api, task_pod: str) -> None:
    data = os.urandom(1 << 20)
    out, err, code = run(api, task_pod, ["cat"], stdin=data)
    assert (len(out), err, code) == (len(data), b"", 0)
    assert out == data


def test_exec_tar_in_and_out(api: kubernetes.client.CoreV1Api, task_pod: str) -> None:
    files = {"blob.bin": bytes(range(256)) * 64, "dir/latin1.txt": "h\xe9llo\n".encode("latin-1")}
    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    command = ["sh", "-c", "rm -rf /tmp/t && mkdir -p /tmp/t && tar -x -C /tmp/t"]
    assert run(api, task_pod, command, stdin=archive.getvalue()) == (b"", b"", 0)

    out, err, code = run(api, task_pod, ["tar", "-c", "-C", "/tmp/t", "blob.bin", "dir/latin1.txt"])
    assert (err, code) == (b"", 0)
    with tarfile.open(fileobj=io.BytesIO(out)) as tar:
        got = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}  # type: ignore[union-attr]
    assert got == files


def test_exec_leaves_the_process_running_when_the_client_goes(
    api: kubernetes.client.CoreV1Api, task_pod: str
) -> None:
    resp = stream(
        api.connect_get_namespaced_pod_exec,
        task_pod,
        NS,
        command=["sh", "-c", "rm -f /tmp/survived; sleep 1; touch /tmp/survived"],
        container="task",
        stderr=True,
        stdin=False,
        stdout=True,
        tty=False,
        _preload_content=False,
    )
    time.sleep(0.3)
    resp.sock.shutdown()  # gone without a word, as a killed client
    deadline = time.monotonic() + 10
    while run(api, task_pod, ["test", "-f", "/tmp/survived"])[2] != 0:
        assert time.monotonic() < deadline, "the command was killed with its client"
        time.sleep(0.2)


# ---- the API itself -----------------------------------------------------------------------------


def test_configmaps_and_network_policies(sim: tuple[DockerKubeApi, kubernetes.client.ApiClient]) -> None:
    srv, api_client = sim
    core = kubernetes.client.CoreV1Api(api_client)
    made = core.create_namespaced_config_map(NS, {"metadata": {"name": "a", "labels": {"role": "x"}}})
    assert made.metadata.namespace == NS and made.metadata.uid and int(made.metadata.resource_version) > 0
    assert made.metadata.creation_timestamp is not None
    core.create_namespaced_config_map(NS, {"metadata": {"name": "b", "labels": {"role": "y"}}})
    with pytest.raises(ApiException) as err:
        core.create_namespaced_config_map(NS, {"metadata": {"name": "a"}})
    assert err.value.status == 409 and json.loads(err.value.body)["reason"] == "AlreadyExists"
    listed = core.list_namespaced_config_map(NS, label_selector="role=x")
    assert [cm.metadata.name for cm in listed.items] == ["a"]
    assert [cm.metadata.name for cm in core.list_namespaced_config_map(NS, label_selector="role").items] == [
        "a",
        "b",
    ]
    core.delete_namespaced_config_map("a", NS)
    for call in (core.read_namespaced_config_map, core.delete_namespaced_config_map):
        with pytest.raises(ApiException) as err:
            call("a", NS)
        assert err.value.status == 404 and json.loads(err.value.body)["kind"] == "Status"

    net = kubernetes.client.NetworkingV1Api(api_client)
    policy = {"metadata": {"name": "deny"}, "spec": {"podSelector": {}, "policyTypes": ["Egress"]}}
    assert net.create_namespaced_network_policy(NS, policy).spec.policy_types == ["Egress"]
    assert [p.metadata.name for p in net.list_namespaced_network_policy(NS).items] == ["deny"]
    net.delete_namespaced_network_policy("deny", NS)
    assert net.list_namespaced_network_policy(NS).items == []

    with pytest.raises(urllib.error.HTTPError) as http:
        urllib.request.urlopen(f"{srv.url}/api/v1/namespaces/{NS}/widgets")
    assert http.value.code == 404 and json.loads(http.value.read())["reason"] == "NotFound"
    http.value.close()


def test_simulated_pods_patches_and_selector_watches(
    sim: tuple[DockerKubeApi, kubernetes.client.ApiClient],
) -> None:
    srv, api_client = sim
    core = kubernetes.client.CoreV1Api(api_client)
    rv = core.list_namespaced_pod(NS).metadata.resource_version
    core.create_namespaced_pod(NS, pod_body("sim", [sleeper("no/such:image")]))
    events = watch_pod(core, "sim", lambda _, pod: is_ready(pod), resource_version=rv)
    phases = [pod["status"]["phase"] for _, _, pod in events]
    assert phases[0] == "Pending" and phases[-1] == "Running"
    assert not is_ready(events[-2][2]) and events[-2][2]["status"]["phase"] == "Running"
    with pytest.raises(ApiException) as err:
        stream(core.connect_get_namespaced_pod_exec, "sim", NS, command=["true"], stdout=True, stderr=True)
    assert "501" in str(err.value.reason)

    rv = core.list_namespaced_pod(NS).metadata.resource_version
    core.patch_namespaced_pod("sim", NS, {"metadata": {"labels": {"stage": "one"}}})
    core.patch_namespaced_pod("sim", NS, {"metadata": {"labels": {"stage": None, "app": None}}})
    patched = core.read_namespaced_pod("sim", NS)
    assert patched.metadata.labels is None
    seen = []
    w = kubernetes.watch.Watch()
    for ev in w.stream(
        core.list_namespaced_pod, NS, label_selector="stage=one", resource_version=rv, timeout_seconds=2
    ):
        seen.append(ev["type"])
        if len(seen) == 2:
            w.stop()
    assert seen == ["ADDED", "DELETED"]  # into the selector and out of it, as a real server says

    core.delete_collection_namespaced_pod(NS, field_selector="metadata.name=sim")
    deadline = time.monotonic() + 5
    while core.list_namespaced_pod(NS).items:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    stats = srv.stats()
    assert stats["POST pods"].count >= 1 and stats["POST pods"].bytes_in > 0
    assert stats["GET pods (watch)"].bytes_out > 0
    assert stats["PATCH pods"].count == 2


def test_injected_faults_reach_the_client(sim: tuple[DockerKubeApi, kubernetes.client.ApiClient]) -> None:
    srv, api_client = sim
    core = kubernetes.client.CoreV1Api(api_client)
    srv.inject("POST", r"/configmaps$", 429, retry_after=7)
    started = time.monotonic()
    with pytest.raises(ApiException) as err:
        core.create_namespaced_config_map(NS, {"metadata": {"name": "throttled"}})
    assert time.monotonic() - started < 5  # a POST is not retried: the 429 reaches the caller at once
    assert err.value.status == 429
    assert err.value.headers["Retry-After"] == "7"
    body = json.loads(err.value.body)
    assert (body["kind"], body["status"], body["reason"], body["code"]) == (
        "Status",
        "Failure",
        "TooManyRequests",
        429,
    )

    # A GET answered 429 with Retry-After is retried by urllib3 inside the client (3 retries, sleeping
    # Retry-After each time): only the fourth 429 reaches the caller.
    before = srv.stats()["GET configmaps"].count if "GET configmaps" in srv.stats() else 0
    srv.inject("GET", r"/configmaps/throttled$", 429, times=4, retry_after=0)
    with pytest.raises(ApiException) as err:
        core.read_namespaced_config_map("throttled", NS)
    assert err.value.status == 429
    assert srv.stats()["GET configmaps"].count == before + 4
    with pytest.raises(ApiException) as err:
        core.read_namespaced_config_map("throttled", NS)
    assert err.value.status == 404  # the faults are used up

    srv.inject("POST", r"/configmaps$", 409, times=2)
    for _ in range(2):
        with pytest.raises(ApiException) as err:
            core.create_namespaced_config_map(NS, {"metadata": {"name": "contended"}})
        assert err.value.status == 409 and json.loads(err.value.body)["reason"] == "Conflict"
    core.create_namespaced_config_map(NS, {"metadata": {"name": "contended"}})
    core.delete_namespaced_config_map("contended", NS)


def test_latency_delays_every_request_but_requests_overlap(tmp_path: Path) -> None:
    with DockerKubeApi(simulate=True, latency_sec=0.3) as srv:
        api_client = kubernetes.config.new_client_from_config(str(srv.write_kubeconfig(tmp_path / "config")))
        core = kubernetes.client.CoreV1Api(api_client)
        try:
            started = time.monotonic()
            core.list_namespaced_config_map(NS)
            assert time.monotonic() - started >= 0.3
            started = time.monotonic()
            with concurrent.futures.ThreadPoolExecutor(8) as pool:
                list(pool.map(lambda _: core.list_namespaced_config_map(NS), range(8)))
            assert time.monotonic() - started < 8 * 0.3 / 2
            assert srv.stats()["GET configmaps (list)"].count == 9
        finally:
            api_client.close()


def test_close_removes_every_container_and_volume(
    base_image: str, client: docker.DockerClient, tmp_path: Path
) -> None:
    srv = DockerKubeApi()
    srv.start()
    label = {"label": f"{LABEL_SERVER}={srv.server_id}"}
    try:
        api_client = kubernetes.config.new_client_from_config(str(srv.write_kubeconfig(tmp_path / "config")))
        core = kubernetes.client.CoreV1Api(api_client)
        volume = {"name": "scratch", "mountPath": "/scratch"}
        start_pod(
            core,
            pod_body(
                "kept",
                [sleeper(base_image, volumeMounts=[volume])],
                volumes=[{"name": "scratch", "emptyDir": {}}],
            ),
        )
        start_pod(core, pod_body("also-kept", [sleeper(base_image)]))
        api_client.close()
        assert len(client.containers.list(all=True, filters=label)) == 2
        assert len(client.volumes.list(filters=label)) == 1
    finally:
        srv.close()
    assert client.containers.list(all=True, filters=label) == []
    assert client.volumes.list(filters=label) == []
    with pytest.raises(urllib.error.URLError), warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        urllib.request.urlopen(f"{srv.url}/version", timeout=2)
