"""The k8s backend for real: each pod is real Docker containers behind an API server that speaks the exec
channel protocol (tests/envs/k8s_docker_api.py), driven through the official client; with `-m cluster` and
KUBECONFIG set, the same tests run on that cluster (FORGE_K8S_NAMESPACE, default forge-test; the base
image is pushed to FORGE_K8S_REGISTRY when set, else the cluster must have it, as kind after `kind load`).
What must hold against the agent is attacked here: processes that outlive a timeout or the agent phase,
a planted symlink where the tests' folder is made, a tampered userland, a dead init, the model routes."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tarfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import docker
import pytest

from envs.cluster_images import push_image
from envs.errors import ArchiveTooLarge, ImagePullFailed, PodUnschedulable, SandboxError
from envs.k8s_manifests import SANDBOX_LABEL
from envs.k8s_run import KubernetesRun, KubernetesSettings
from envs.k8s_sandbox import KubernetesSandbox
from envs.sandbox import SandboxSpec
from envs.task_config import NetworkMode
from tests.envs.k8s_docker_api import DockerKubeApi

pytestmark = pytest.mark.docker
NAMESPACE = "forge-test"


@pytest.fixture(scope="module", params=["emulated", pytest.param("cluster", marks=pytest.mark.cluster)])
def kube(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[DockerKubeApi | None, KubernetesSettings]]:
    if request.param == "cluster":
        if not os.environ.get("KUBECONFIG"):
            pytest.skip("no KUBECONFIG: the cluster runs of these tests need a real cluster")
        yield (
            None,
            KubernetesSettings(
                namespace=os.environ.get("FORGE_K8S_NAMESPACE", NAMESPACE), start_timeout_sec=300
            ),
        )
        return
    with DockerKubeApi() as api:
        config = api.write_kubeconfig(tmp_path_factory.mktemp("kube") / "config", NAMESPACE)
        yield api, KubernetesSettings(namespace=NAMESPACE, kubeconfig=str(config), start_timeout_sec=90)


@pytest.fixture(scope="module")
def run(
    kube: tuple[DockerKubeApi | None, KubernetesSettings], client: docker.DockerClient, base_image: str
) -> Iterator[KubernetesRun]:
    _, settings = kube
    if settings.registry:
        push_image(client, base_image, settings.registry)
    k8s_run = KubernetesRun(settings)
    yield k8s_run
    k8s_run.close()


@pytest.fixture
def sandbox(run: KubernetesRun, base_image: str) -> Iterator[KubernetesSandbox]:
    with KubernetesSandbox(SandboxSpec(image=base_image, task="k8s-test", run="r1"), run=run) as box:
        yield box


def _pods(run: KubernetesRun, name: str, wait: float = 15.0) -> list[str]:
    """The pods of sandbox `name`, once its deletion (asynchronous, as on a cluster) is through."""
    deadline = time.monotonic() + wait
    while True:
        pods = run.core.list_namespaced_pod(NAMESPACE, label_selector=f"{SANDBOX_LABEL}={name}")
        names = [p.metadata.name for p in pods.items if p.metadata is not None]
        if not names or time.monotonic() > deadline:
            return names
        time.sleep(0.2)


def _task_processes(box: KubernetesSandbox) -> list[str]:
    """Command lines of the task container's processes, as the warden sees them."""
    return [last for _, _, last in box._list_processes()]


def test_exec_codes_streams_env_workdir_user(sandbox: KubernetesSandbox) -> None:
    result = sandbox.exec("echo out; echo err >&2; exit 3")
    assert (result.exit_code, result.stdout, result.stderr) == (3, "out\n", "err\n")
    assert sandbox.exec(["true"]).ok
    assert sandbox.exec("pwd; echo $FOO", env={"FOO": "bar baz"}, workdir="/tmp").stdout == "/tmp\nbar baz\n"
    sandbox.exec("useradd -m -u 1234 agent")
    who = sandbox.exec("id -u; id -g; echo $HOME", user="agent")
    assert who.stdout.split() == ["1234", "1234", "/home/agent"], who
    assert sandbox.exec(["id", "-u"], user="1234:0").stdout.strip() == "1234"
    assert sandbox.exec(["/no/such/program"]).exit_code in (126, 127)
    big = sandbox.exec("head -c 6000000 /dev/zero | tr '\\0' a")
    assert big.exit_code == 0, big.stderr[-2000:]  # a stream cut short has no exit status: named here
    assert big.stdout.startswith("a" * 1000) and "more bytes dropped" in big.stdout, big.stdout[-200:]


class _StallingFile(io.BytesIO):
    """A destination whose first write stalls, as on a busy host: the server runs ahead of the client,
    so the stream's last frames and its close reach the client while it still holds unread output."""

    def write(self, data: Any) -> int:
        if not self.tell():
            time.sleep(0.5)
        return super().write(data)


def test_a_slow_reader_gets_every_byte(sandbox: KubernetesSandbox) -> None:
    digest = sandbox.exec("head -c 1000000 /dev/urandom > /tmp/big.bin; sha256sum < /tmp/big.bin").stdout
    dest = _StallingFile()
    assert sandbox.export("/tmp/big.bin", dest, max_bytes=4_000_000)
    dest.seek(0)
    with tarfile.open(fileobj=dest) as tar:  # a tar cut short fails here, or below
        member = tar.extractfile("big.bin")
        assert member is not None
        assert hashlib.sha256(member.read()).hexdigest() == digest.split()[0]


def test_a_timeout_kills_the_tree_not_the_pod(sandbox: KubernetesSandbox) -> None:
    before = _task_processes(sandbox)
    result = sandbox.exec("(setsid sh -c 'trap \"\" TERM HUP INT; exec sleep 301' &); sleep 302", timeout=2)
    assert result.timed_out and result.exit_code in (None, 137)
    left = _task_processes(sandbox)
    assert not any("301" in p or "302" in p for p in left), left
    assert len(left) == len(before)
    assert sandbox.exec("echo alive").stdout == "alive\n"


def test_kill_strays_spares_the_baseline(sandbox: KubernetesSandbox) -> None:
    baseline = _task_processes(sandbox)
    loop = "trap '' TERM HUP INT; while :; do echo 1 > /tmp/reward; sleep 0.02; done"
    spawner = "while :; do sleep 400 & sleep 0.05; done"  # a new process every 50 ms
    sandbox.exec(f"(setsid sh -c \"{loop}\" &); (setsid sh -c '{spawner}' &)")
    assert len(_task_processes(sandbox)) > len(baseline)
    killed = sandbox.kill_strays()
    assert killed >= 2
    assert _task_processes(sandbox) == baseline
    sandbox.exec("rm -f /tmp/reward")
    assert sandbox.exec("sleep 0.3; test -e /tmp/reward").exit_code == 1  # nothing writes it any more


def test_kill_strays_stops_and_kills_a_traced_tree(sandbox: KubernetesSandbox) -> None:
    """A traced process answers SIGSTOP with a tracing stop (`t`, not `T`), as a harness run with --trace
    does: the warden took it for one not yet stopped and swept until it gave up."""
    baseline = _task_processes(sandbox)
    spawner = "while :; do sleep 401 & sleep 0.05; done"
    sandbox.exec(f"(setsid strace -f -o /dev/null sh -c '{spawner}' >/dev/null 2>&1 &)")
    time.sleep(0.5)
    assert any("401" in p for p in _task_processes(sandbox))
    assert sandbox.kill_strays() >= 2
    left = _task_processes(sandbox)
    assert not any("401" in p or "strace" in p for p in left), left
    assert len(left) == len(baseline)


def test_files_through_the_warden(sandbox: KubernetesSandbox, tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "sub").mkdir(parents=True)
    (source / "a.txt").write_text("hello")
    (source / "sub" / "b.bin").write_bytes(bytes(range(256)) * 400)
    sandbox.upload(source, "/tests")
    assert sandbox.exec("cat /tests/a.txt; stat -c %a /tests").stdout == "hello755\n"
    back = tmp_path / "back"
    sandbox.download("/tests", back)
    assert (back / "sub" / "b.bin").read_bytes() == bytes(range(256)) * 400
    assert sandbox.read_file("/tests/a.txt", 100) == b"hello"
    assert sandbox.read_file("/no/such/file", 100) is None
    with pytest.raises(ArchiveTooLarge):
        sandbox.export("/tests", io.BytesIO(), max_bytes=50_000)
    buf = io.BytesIO()
    assert sandbox.export("/tests/sub", buf, max_bytes=1 << 20)
    buf.seek(0)
    with tarfile.open(fileobj=buf) as tar:
        assert sorted(tar.getnames()) == ["sub", "sub/b.bin"]


def test_make_dir_replaces_a_planted_symlink(sandbox: KubernetesSandbox) -> None:
    sandbox.exec("mkdir -p /logs && rm -rf /logs/verifier && ln -s /etc /logs/verifier")
    sandbox.make_dir("/logs/verifier", 1000, 1000, 0o750)
    assert sandbox.exec("stat -c '%F %u %g %a' /logs/verifier").stdout == "directory 1000 1000 750\n"
    assert sandbox.exec("test -f /etc/passwd").ok  # the link's target was not emptied


def test_changed_paths_see_what_the_agent_wrote(sandbox: KubernetesSandbox) -> None:
    sandbox.exec(
        "echo x > /usr/bin/evil; rm /usr/bin/yes; echo '#' >> /etc/passwd; "
        "cp /usr/bin/env /tmp/env; printf '#!/bin/sh\\n' | dd of=/usr/bin/env conv=notrunc 2>/dev/null; "
        "touch -r /tmp/env /usr/bin/env; echo y > /tmp/scratch"
    )
    changes = {(c.kind, c.path) for c in sandbox.changed_paths()}
    assert ("added", "/usr/bin/evil") in changes
    assert ("deleted", "/usr/bin/yes") in changes
    assert ("changed", "/etc/passwd") in changes
    assert ("changed", "/usr/bin/env") in changes  # same size, same mtime: the ctime gives it away
    assert ("added", "/tmp/scratch") in changes
    assert not any(path.startswith("/usr/lib") for _, path in changes)


def test_a_dead_init_is_not_alive(
    sandbox: KubernetesSandbox,
    kube: tuple[DockerKubeApi | None, KubernetesSettings],
    client: docker.DockerClient,
) -> None:
    """In a pod the init is not PID 1 (the pause container is), so an agent running as root can kill it;
    the test server's task container is its PID namespace's init, so there it is killed from outside."""
    assert sandbox.alive()
    api, _ = kube
    if api is None:
        sandbox.exec(f"kill -9 {sandbox._init}")
    else:
        pod = f"{NAMESPACE}/{sandbox.name}"
        containers = client.containers.list(filters={"label": f"forge.k8s-test.pod={pod}"})
        (task,) = [c for c in containers if c.name.startswith(f"k8s-{NAMESPACE}-{sandbox.name}-task-")]
        task.kill()
    for _ in range(50):
        if not sandbox.alive():
            break
    assert not sandbox.alive()


class _Model(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps({"path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextlib.contextmanager
def _model_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Model)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


FETCH = (
    "import sys, urllib.request, urllib.error\n"
    "try:\n"
    "    url = sys.argv[1] if sys.argv[1].startswith('http') else 'http://127.0.0.1:8000' + sys.argv[1]\n"
    "    print(urllib.request.urlopen(url, timeout=10).read().decode())\n"
    "except urllib.error.HTTPError as e:\n"
    "    print('HTTP', e.code)\n"
    "except OSError as e:\n"
    "    print('DOWN', e)\n"
)


def test_the_model_tunnel_passes_only_the_rollout_routes(run: KubernetesRun, base_image: str) -> None:
    with _model_server() as endpoint:
        spec = SandboxSpec(
            image=base_image, task="k8s-model", network=NetworkMode.MODEL_ONLY, model_endpoint=endpoint,
            model_routes=["/rollouts/r-1/v1/"],
        )  # fmt: skip
        with KubernetesSandbox(spec, run=run) as box:
            fetch = lambda path: box.exec(["python3", "-c", FETCH, path]).stdout.strip()  # noqa: E731
            assert fetch("/rollouts/r-1/v1/models") == '{"path": "/rollouts/r-1/v1/models"}'
            assert fetch("/rollouts/r-2/v1/models") == "HTTP 403"  # another rollout's route
            assert fetch("/control/rollouts") == "HTTP 403"
            assert box.exec("env").stdout.count("FORGE_MODEL_URL=http://127.0.0.1:8000") == 1
            assert fetch(endpoint + "/rollouts/r-1/v1/models").startswith("DOWN")  # no way around the tunnel
            box.cut_model()
            assert fetch("/rollouts/r-1/v1/models").startswith("DOWN")


def test_start_failures_are_their_own_class_and_leave_no_pod(run: KubernetesRun, base_image: str) -> None:
    missing = KubernetesSandbox(SandboxSpec(image="openforge/no-such-image:0", task="k8s-missing"), run=run)
    with pytest.raises(ImagePullFailed, match="no-such-image"):
        missing.start()
    assert _pods(run, missing.name) == []
    config = run.config.model_copy(
        update={"node_selector": {"forge.test/unschedulable": "true"}}
    )  # no node has it
    pinned = KubernetesRun(config)
    unschedulable = KubernetesSandbox(SandboxSpec(image=base_image, task="k8s-pinned"), run=pinned)
    with pytest.raises(PodUnschedulable):
        unschedulable.start()
    assert _pods(pinned, unschedulable.name) == []
    pinned.close()


def test_no_file_name_forges_the_diff(sandbox: KubernetesSandbox) -> None:
    """A link whose target holds a newline and the image's own entry for a file the agent rewrote: in a
    line-based listing it would stand in for the real one; the listing is NUL-separated."""
    sandbox.exec(
        "cd / && line=$(find usr/bin/env -printf '%y %m %U %G %s %T@ %C@ %p'); "
        "cp /usr/bin/env /tmp/env && printf '#!/bin/sh\\n' | dd of=/usr/bin/env conv=notrunc 2>/dev/null; "
        "touch -r /tmp/env /usr/bin/env; "
        "for dir in / /usr/bin /var /zz; do mkdir -p $dir; "
        'ln -s "$(printf \'\\n%s\\t\' "$line")" $dir/zzzz-forged; done'
    )
    changes = {(c.kind, c.path) for c in sandbox.changed_paths()}
    assert ("changed", "/usr/bin/env") in changes
    assert ("added", "/zz/zzzz-forged") in changes


def test_a_linked_parent_is_refused_not_followed(sandbox: KubernetesSandbox) -> None:
    """/logs made a link to /dev/x: through /proc/<init>/root it would lead into the warden's own /dev."""
    sandbox.exec("rm -rf /logs && mkdir -p /dev/x/verifier && echo 1 > /dev/x/verifier/reward.txt")
    sandbox.exec("ln -s /dev/x /logs")
    with pytest.raises(SandboxError, match="symbolic link"):
        sandbox.make_dir("/logs/verifier")
    with pytest.raises(SandboxError, match="symbolic link"):
        sandbox.read_file("/logs/verifier/reward.txt", 100)


def test_any_file_name_uploads(sandbox: KubernetesSandbox, tmp_path: Path) -> None:
    """A name that is not UTF-8 (an agent's artifact may have one) goes through as the engine's would."""
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / os.fsdecode(b"caf\xe9")).write_text("x")
    sandbox.upload(folder, "/odd")
    assert sandbox.exec("ls /odd | od -An -c").stdout.split() == ["c", "a", "f", "351", "\\n"]
