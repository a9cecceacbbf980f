"""The Docker sandbox backend against the real engine."""

from __future__ import annotations

import hashlib
import http.server
import os
import socketserver
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import docker
import pytest
import requests
from docker.models.containers import Container

from envs import cleanup, docker_sandbox
from envs.errors import ArchiveTooLarge, NetworkModeError, SandboxError, SandboxNotReady
from envs.sandbox import SandboxSpec, create_sandbox
from envs.task_config import NetworkMode

pytestmark = pytest.mark.docker


class _Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = f"model says hi to {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def address_string(self) -> str:
        return "unix"

    def log_message(self, *args: object) -> None:
        pass


class _UnixHTTPServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True

    def get_request(self):  # type: ignore[no-untyped-def]
        request, _ = super().get_request()
        return request, ("unix", 0)


@pytest.fixture
def tcp_model() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture
def unix_model(tmp_path: Path) -> Iterator[str]:
    path = tmp_path / "proxy.sock"
    server = _UnixHTTPServer(str(path), _Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"unix:{path}"
    server.shutdown()


def _spec(base_image: str, **kw: object) -> SandboxSpec:
    return SandboxSpec(image=base_image, task="sandbox-test", run="pytest", role="test", **kw)  # type: ignore[arg-type]


def test_exec_returns_code_and_streams(base_image: str, forge_home: Path) -> None:
    with create_sandbox(_spec(base_image, workdir="/tmp")) as sb:
        r = sb.exec("echo out; echo err >&2; pwd; exit 3", env={"X": "1"})
        assert (r.exit_code, r.stdout, r.stderr, r.timed_out) == (3, "out\n/tmp\n", "err\n", False)
        assert sb.exec(["printenv", "X"], env={"X": "42"}).stdout == "42\n"
        assert sb.exec("whoami", user="nobody").stdout.strip() == "nobody"


def test_exec_timeout_kills_the_process_tree_not_the_sandbox(base_image: str, forge_home: Path) -> None:
    with create_sandbox(_spec(base_image)) as sb:
        started = time.monotonic()
        r = sb.exec(
            "sleep 300 & (sleep 301 &) ; setsid sleep 302 & bash -c 'sleep 303'; echo never", timeout=2
        )
        took = time.monotonic() - started
        assert r.timed_out and r.exit_code != 0 and "never" not in r.stdout
        assert took < 15, took
        left = sb.exec("ps -eo args | grep '^sleep 30' || true")
        assert left.stdout.strip() == "", left.stdout
        assert sb.exec("echo alive").stdout == "alive\n"


def test_exec_returns_when_the_command_exits_even_if_a_background_child_lingers(
    base_image: str, forge_home: Path
) -> None:
    with create_sandbox(_spec(base_image)) as sb:
        started = time.monotonic()
        r = sb.exec("sleep 120 & echo started", timeout=60)
        assert r.exit_code == 0 and "started" in r.stdout
        assert time.monotonic() - started < 10


def test_upload_download_round_trip(base_image: str, forge_home: Path, tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "nested" / "deeper").mkdir(parents=True)
    (src / "a.txt").write_text("alpha\n")
    (src / "nested" / "b.bin").write_bytes(bytes(range(256)) * 100)
    (src / "nested" / "deeper" / "run.sh").write_text("#!/bin/sh\necho ran\n")
    (src / "nested" / "deeper" / "run.sh").chmod(0o755)
    single = tmp_path / "single.txt"
    single.write_text("one file\n")
    with create_sandbox(_spec(base_image)) as sb:
        sb.upload(src, "/data/in")
        sb.upload(single, "/data/file/renamed.txt")
        assert sb.exec("/data/in/nested/deeper/run.sh").stdout == "ran\n"
        assert sb.exec("cat /data/file/renamed.txt").stdout == "one file\n"
        sb.exec("echo made-inside > /data/in/new.txt")
        back = tmp_path / "back"
        sb.download("/data/in", back)
        sb.download("/data/file/renamed.txt", tmp_path / "back-file.txt")
    assert (back / "a.txt").read_text() == "alpha\n"
    assert (back / "nested" / "b.bin").read_bytes() == bytes(range(256)) * 100
    assert os.access(back / "nested" / "deeper" / "run.sh", os.X_OK)
    assert (back / "new.txt").read_text() == "made-inside\n"
    assert (tmp_path / "back-file.txt").read_text() == "one file\n"


NO_NETWORK_PROBE = r"""
ip_ifaces=$(ls /sys/class/net | sort | tr '\n' ' ')
echo "ifaces: $ip_ifaces"
getent hosts deb.debian.org && echo "dns: yes" || echo "dns: no"
curl -sS -m 5 http://1.1.1.1/ >/dev/null 2>&1 && echo "ip: yes" || echo "ip: no"
python3 -c "import socket; s=socket.socket(); s.settimeout(3); s.connect(('8.8.8.8', 53))" 2>/dev/null \
  && echo "tcp: yes" || echo "tcp: no"
"""


def test_network_none_really_has_no_network(base_image: str, forge_home: Path) -> None:
    with create_sandbox(_spec(base_image, network=NetworkMode.NONE)) as sb:
        out = sb.exec(NO_NETWORK_PROBE, timeout=60).stdout
    assert "ifaces: lo \n" in out
    assert "dns: no" in out and "ip: no" in out and "tcp: no" in out


@pytest.mark.parametrize("endpoint_fixture", ["tcp_model", "unix_model"])
def test_model_only_reaches_the_model_and_nothing_else(
    base_image: str, forge_home: Path, request: pytest.FixtureRequest, endpoint_fixture: str
) -> None:
    endpoint = request.getfixturevalue(endpoint_fixture)
    spec = _spec(base_image, network=NetworkMode.MODEL_ONLY, model_endpoint=endpoint, model_port=8000)
    with create_sandbox(spec) as sb:
        hello = sb.exec('curl -sS -m 10 "$FORGE_MODEL_URL/v1/models"', timeout=30)
        assert hello.stdout == "model says hi to /v1/models", hello
        out = sb.exec(NO_NETWORK_PROBE, timeout=60).stdout
        assert "ifaces: lo \n" in out
        assert "dns: no" in out and "ip: no" in out and "tcp: no" in out
        if endpoint.startswith("http://"):
            # The host's own loopback port is not reachable: only the forwarded socket is.
            host_port = endpoint.rsplit(":", 1)[1]
            direct = sb.exec(f"curl -sS -m 5 http://127.0.0.1:{host_port}/ || echo unreachable", timeout=30)
            assert "unreachable" in direct.stdout
        sb.cut_model()
        after = sb.exec('curl -sS -m 5 "$FORGE_MODEL_URL/v1/models" || echo cut', timeout=30)
        assert "cut" in after.stdout


def test_host_network_needs_an_explicit_opt_in(base_image: str) -> None:
    with pytest.raises(NetworkModeError, match="opt-in"):
        create_sandbox(_spec(base_image, network=NetworkMode.HOST)).start()


def test_resource_limits_and_labels_are_applied(
    client: docker.DockerClient, base_image: str, forge_home: Path
) -> None:
    spec = _spec(base_image, cpus=0.5, memory_mb=300, pids_limit=256)
    with create_sandbox(spec) as sb:
        container = client.containers.get(sb.name)  # type: ignore[attr-defined]
        host = container.attrs["HostConfig"]
        assert host["NanoCpus"] == 500_000_000
        assert host["Memory"] == 300 * 1024 * 1024
        assert host["PidsLimit"] == 256
        assert host["NetworkMode"] == "none"
        assert container.labels["openforge.task"] == "sandbox-test"
        assert container.labels["openforge.run"] == "pytest"
        assert container.labels["openforge.role"] == "test"
        assert container.labels["openforge.owner"].split(":")[1] == str(os.getpid())
        name = sb.name  # type: ignore[attr-defined]
    with pytest.raises(docker.errors.NotFound):
        client.containers.get(name)


@pytest.mark.parametrize("status", [409, 500], ids=["removal-in-flight", "could-not-kill"])
def test_stop_retries_a_refused_removal_until_the_container_is_gone(
    status: int,
    client: docker.DockerClient,
    base_image: str,
    forge_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine refuses a removal for a while (409 while another removal is in flight, 500 "could not
    kill" after a freeze failed under a fork bomb): stop() must retry, and return only once it is gone. A
    stop that gave up at the first refusal once left a fork-bombed sandbox behind the suite."""
    real_remove = Container.remove
    refusals = []

    def refuse_twice(self: Container, **kwargs: object) -> None:
        if len(refusals) < 2:
            refusals.append(status)
            response = requests.Response()
            response.status_code = status
            raise docker.errors.APIError("refused by the test", response=response)
        real_remove(self, **kwargs)

    sb = create_sandbox(_spec(base_image))
    sb.start()
    name = sb.name  # type: ignore[attr-defined]
    monkeypatch.setattr(Container, "remove", refuse_twice)
    sb.stop()
    assert refusals == [status, status]
    with pytest.raises(docker.errors.NotFound):
        client.containers.get(name)


@pytest.mark.parametrize("refusals", [2, 100])
def test_a_freeze_the_engine_refuses_is_retried_then_done_without_it(
    refusals: int, base_image: str, forge_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a busy host runc can give up a freeze ("unable to freeze", a 500): that is the engine's trouble,
    and once it made an oracle's run SandboxBroken, an agent's 0. A few refusals are retried; an engine
    that never freezes gets kill rounds instead, which a forking, signal-deaf process does not outlive."""
    real_pause = Container.pause
    refused = []

    def refuse(self: Container) -> None:
        if len(refused) < refusals:
            refused.append(1)
            response = requests.Response()
            response.status_code = 500
            raise docker.errors.APIError(
                "OCI runtime pause failed: unable to freeze: unknown", response=response
            )
        real_pause(self)

    with create_sandbox(_spec(base_image)) as sb:
        forker = "trap '' TERM HUP INT; while :; do sleep 30 & sleep 0.01; done"
        sb.exec(f'(setsid sh -c "{forker}" >/dev/null 2>&1 &)')
        time.sleep(0.3)
        monkeypatch.setattr(Container, "pause", refuse)
        assert sb.kill_strays() >= 2
        monkeypatch.setattr(Container, "pause", real_pause)
        left = sb.exec("ps -eo args").stdout
        assert "sleep 30" not in left and "while" not in left, left
        assert sb.exec("echo alive").stdout == "alive\n"


def test_a_removal_refused_past_the_wait_goes_on_in_the_background(
    client: docker.DockerClient,
    base_image: str,
    forge_home: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fork-bombed container under load once outlasted stop()'s wait: stop() raised, the rollout's
    score stood, and the container was left behind the suite. Now stop() says so and a background
    thread goes on removing it; the process's exit waits for that thread."""
    real_remove = Container.remove
    refusals: list[float] = []

    def refuse_for_a_while(self: Container, **kwargs: object) -> None:
        if len(refusals) < 12:  # about 3 s of refusals, past a 1 s wait
            refusals.append(time.monotonic())
            response = requests.Response()
            response.status_code = 500
            raise docker.errors.APIError("could not kill (the test)", response=response)
        real_remove(self, **kwargs)

    monkeypatch.setattr(docker_sandbox, "REMOVE_WAIT_SEC", 1.0)
    sb = create_sandbox(_spec(base_image))
    sb.start()
    name = sb.name  # type: ignore[attr-defined]
    monkeypatch.setattr(Container, "remove", refuse_for_a_while)
    with pytest.raises(SandboxError, match="removed in the background"):
        sb.stop()
    assert client.containers.get(name)  # still there when stop() gave up
    assert cleanup.wait_for_removals(60)
    assert len(refusals) == 12
    (removal,) = [r for r in cleanup.removals() if r.name == name]  # kept, for a leftover's diagnosis
    assert removal.outcome == "removed" and "500 Server Error" in removal.why
    with pytest.raises(docker.errors.NotFound):
        client.containers.get(name)


def test_a_file_over_the_read_bound_leaves_the_sandbox_removable(base_image: str, forge_home: Path) -> None:
    """The agent writes a reward file far over the bound. Reading it stops at the bound; the engine's
    stream must be closed then, not when the garbage collector gets to it: an open one keeps the engine
    writing into a full socket while it holds the container, and the removal hung (a 10 MB reward.json
    once timed the suite's gate tests out after 600 s)."""
    sb = create_sandbox(_spec(base_image))
    sb.start()
    stopper = threading.Thread(target=sb.stop, daemon=True)
    try:
        assert sb.exec("head -c 30000000 /dev/zero > /tmp/big").exit_code == 0
        with pytest.raises(ArchiveTooLarge) as raised:
            sb.read_file("/tmp/big", 1000)
        kept = raised.value  # its traceback keeps the reading frame alive, as an error record does
        started = time.monotonic()
        stopper.start()
        stopper.join(45)
        assert not stopper.is_alive(), "stop() hung after the bounded read"
        assert time.monotonic() - started < 45, kept
    finally:
        if not stopper.is_alive():
            sb.stop()


def _image_with_entrypoint(client: docker.DockerClient, base_image: str, tmp_path: Path, script: str) -> str:
    (tmp_path / "entry.sh").write_text(script)
    (tmp_path / "Dockerfile").write_text(
        f'FROM {base_image}\nCOPY entry.sh /entry.sh\nRUN chmod 755 /entry.sh\nENTRYPOINT ["/entry.sh"]\n'
    )
    tag = f"openforge/test-entrypoint:{hashlib.sha256(script.encode()).hexdigest()[:12]}"
    client.images.build(path=str(tmp_path), tag=tag, rm=True, labels={"openforge.managed": "true"})
    return tag


@pytest.mark.parametrize("ending", ['exec "$@"', "sleep 1000000"], ids=["execs-cmd", "never-execs"])
def test_the_images_entrypoint_runs_and_its_service_is_spared(
    client: docker.DockerClient, base_image: str, forge_home: Path, tmp_path: Path, ending: str
) -> None:
    """Harbor keeps the image's ENTRYPOINT (and gives it `sh -c "sleep infinity"`): services started
    there must run, survive the end of the agent phase, and the sandbox must be ready either way."""
    service = "echo 10.1.2.3 svc.internal >> /etc/hosts\nsleep 100000 &\necho $! > /run/svc.pid"
    script = f"#!/bin/sh\n{service}\n{ending}\n"
    image = _image_with_entrypoint(client, base_image, tmp_path, script)
    with create_sandbox(_spec(image)) as sb:
        assert sb.exec("grep -c svc.internal /etc/hosts").stdout.strip() == "1"
        sb.exec("sleep 100000 & echo started", timeout=10)
        assert sb.kill_strays() == 1  # the agent's sleep, not the entrypoint's service
        assert sb.exec('kill -0 "$(cat /run/svc.pid)"').ok


def test_an_entrypoint_that_exits_is_a_clear_start_failure(
    client: docker.DockerClient, base_image: str, forge_home: Path, tmp_path: Path
) -> None:
    image = _image_with_entrypoint(client, base_image, tmp_path, "#!/bin/sh\necho cannot start >&2\nexit 3\n")
    with pytest.raises(SandboxNotReady, match=r"(ENTRYPOINT|exited).*cannot start"):
        create_sandbox(_spec(image)).start()


def test_an_image_with_a_stale_readiness_marker_still_starts_its_services(
    client: docker.DockerClient, base_image: str, forge_home: Path, tmp_path: Path
) -> None:
    """An image made from a sandbox (a prepared verifier layer, a user's `docker commit`) carries our
    init's markers; they must not make the sandbox look ready before its services started."""
    (tmp_path / "10-service").write_text("#!/bin/sh\ntouch /tmp/service-started\n")
    (tmp_path / "Dockerfile").write_text(
        f"FROM {base_image}\nCOPY 10-service /etc/openforge/init.d/10-service\n"
        "RUN chmod 755 /etc/openforge/init.d/10-service && mkdir -p /run/forge/init "
        "&& touch /run/forge/ready\n"
    )
    tag = "openforge/test-stale-markers:latest"
    client.images.build(path=str(tmp_path), tag=tag, rm=True, labels={"openforge.managed": "true"})
    with create_sandbox(_spec(tag)) as sb:
        started = sb.exec(
            "for i in $(seq 50); do [ -e /tmp/service-started ] && exit 0; sleep 0.1; done; exit 1"
        )
        assert started.ok, "the image's init.d hook ran: our init ran, not fooled by the old markers"
