"""The test doubles honour the interfaces they stand in for, so they cannot drift from them silently:
FakeSandbox implements every method of envs.sandbox.Sandbox with its signature and the Docker backend's
file semantics, and runs the real verifier and headless runner; NullHarness is a whole Harness."""

from __future__ import annotations

import inspect
import io
import tarfile
from pathlib import Path

import httpx
import pytest

from envs.errors import ArchiveTooLarge, NetworkModeError, SandboxError
from envs.sandbox import ExecResult, Mount, Sandbox, SandboxSpec, create_sandbox
from envs.tamper import SYSTEM_PATHS, tampered_paths
from envs.task import load_task
from envs.task_config import NetworkMode
from envs.verifier import run_verifier
from harnesses.harness import Harness, LaunchContext
from harnesses.headless import run_headless
from harnesses.registry import get_harness
from proxy.engines.scripted import ScriptedEngine
from proxy.records import CallStatus
from proxy.session import ProxySession
from tests.conftest import write_task
from tests.doubles import (
    ExecCall,
    FakeBackend,
    FakeSandbox,
    NullHarness,
    RecordingTrainer,
    ask_model,
    is_launch,
    null_bundle,
)
from train.trainer import Trainer


def _interface(cls: type) -> set[str]:
    """The methods an implementation must give: an ABC's abstract ones, a Protocol's own."""
    if getattr(cls, "_is_protocol", False):
        return {name for name, value in vars(cls).items() if callable(value) and not name.startswith("_")}
    return {name for name in dir(cls) if getattr(getattr(cls, name), "__isabstractmethod__", False)}


@pytest.mark.parametrize(
    ("double", "interface"), [(FakeSandbox, Sandbox), (NullHarness, Harness), (RecordingTrainer, Trainer)]
)
def test_each_double_implements_its_whole_interface(double: type, interface: type) -> None:
    assert not getattr(double, "__abstractmethods__", None), f"{double.__name__} leaves abstract methods"
    methods = _interface(interface)
    assert methods, f"found no methods on {interface.__name__}"
    for name in methods:
        assert name in vars(double), f"{double.__name__} does not implement {name}"
        ours, theirs = inspect.signature(getattr(double, name)), inspect.signature(getattr(interface, name))
        assert list(ours.parameters) == list(theirs.parameters), f"{double.__name__}.{name}{ours} != {theirs}"
        assert [p.default for p in ours.parameters.values()] == [
            p.default for p in theirs.parameters.values()
        ], f"{double.__name__}.{name}: other defaults than {interface.__name__}'s"


def test_null_harness_is_a_whole_harness_that_launches_nothing(tmp_path: Path) -> None:
    harness = get_harness("tests.doubles:NullHarness")
    assert isinstance(harness, NullHarness) and harness.unavailable_reason() is None
    ctx = LaunchContext(
        instruction="do it",
        model="m",
        base_url="http://127.0.0.1:8000/rollouts/r1",
        api_key="k",
        workdir="/app",
        home="/tmp/h",
        bundle="/opt/forge/harness/null",
    )
    launch = harness.launch(ctx)
    assert launch.argv == ["true"] and launch.env["OPENAI_BASE_URL"] == "http://127.0.0.1:8000/rollouts/r1/v1"
    bundle = null_bundle(tmp_path / "bundle")
    assert bundle.mount().target == "/opt/forge/harness/null" and (tmp_path / "bundle").is_dir()


def _started(tmp_path: Path, **spec: object) -> FakeSandbox:
    sandbox = FakeSandbox(SandboxSpec(image="fake", workdir="/app", **spec), root=tmp_path / "root")  # type: ignore[arg-type]
    sandbox.start()
    return sandbox


def test_files_move_with_the_docker_backends_semantics(tmp_path: Path) -> None:
    sandbox = _started(tmp_path)
    host = tmp_path / "host"
    (host / "sub").mkdir(parents=True)
    (host / "a.txt").write_text("a")
    (host / "sub" / "b.txt").write_text("b")
    sandbox.upload(host / "a.txt", "/app/x/renamed.txt")  # a file lands at the target path
    sandbox.upload(host, "/data")  # a folder's contents merge into the target
    sandbox.upload(host / "sub", "/data")
    assert sandbox.read_file("/app/x/renamed.txt", 100) == b"a"
    assert sandbox.read_file("/data/sub/b.txt", 100) == b"b" and sandbox.read_file("/data/b.txt", 100) == b"b"
    assert sandbox.read_file("/nowhere", 100) is None
    with pytest.raises(SandboxError, match="not a regular file"):
        sandbox.read_file("/data/sub", 100)
    with pytest.raises(ArchiveTooLarge):
        sandbox.read_file("/data/a.txt", 0)
    buf = io.BytesIO()
    assert sandbox.export("/data", buf, 1 << 20)
    buf.seek(0)
    with tarfile.open(fileobj=buf) as tar:
        assert tar.next().name == "data"  # type: ignore[union-attr]  # the top entry is the basename
    sandbox.make_dir("/data", uid=1000, gid=1000, mode=0o700)  # whatever was there goes
    assert list(sandbox.host_path("/data").iterdir()) == [] and sandbox.owners["/data"] == (1000, 1000)
    sandbox.download("/app/x", tmp_path / "out")
    assert (tmp_path / "out" / "renamed.txt").read_text() == "a"
    with pytest.raises(SandboxError, match="no such file"):
        sandbox.download("/nowhere", tmp_path / "out2")
    assert sandbox.host_path("/../../etc") == tmp_path / "root" / "etc"  # `/..` is `/`, as in the sandbox
    with pytest.raises(SandboxError):
        sandbox.make_dir("/")


def test_mounts_are_read_through_and_never_written(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "bin").write_text("#!/bin/sh\n")
    sandbox = _started(tmp_path, mounts=[Mount(source=bundle, target="/opt/forge/harness/x")])
    assert sandbox.read_file("/opt/forge/harness/x/bin", 100) == b"#!/bin/sh\n"
    with pytest.raises(SandboxError, match="mount"):
        sandbox.make_dir("/opt/forge/harness/x/new")


def test_exec_records_each_command_and_answers_with_the_handler(tmp_path: Path) -> None:
    def handler(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
        if call.argv[:2] == ["bash", "-c"]:
            sandbox.put_file("/app/out.txt", call.argv[2])
            return ExecResult(exit_code=3, stdout="ran")
        return None

    sandbox = FakeSandbox(SandboxSpec(image="fake", workdir="/app"), root=tmp_path / "r", handler=handler)
    with pytest.raises(SandboxError, match="not running"):
        sandbox.exec(["true"])
    with sandbox:
        assert sandbox.baseline_marked and sandbox.alive()
        result = sandbox.exec("echo hi", timeout=5, env={"A": "1"}, user="agent")
        assert (result.exit_code, result.stdout) == (3, "ran")
        assert sandbox.read_file("/app/out.txt", 100) == b"echo hi"
        assert sandbox.exec(["true"], workdir="/tmp").ok
        assert sandbox.calls == [
            ExecCall(argv=["bash", "-c", "echo hi"], timeout=5, env={"A": "1"}, workdir="/app", user="agent"),
            ExecCall(argv=["true"], timeout=None, env={}, workdir="/tmp", user=None),
        ]
        sandbox.strays = 2
        assert (sandbox.kill_strays(), sandbox.kill_strays()) == (2, 0)


def test_the_commands_around_a_harness_act_on_the_files(tmp_path: Path) -> None:
    with FakeSandbox(SandboxSpec(image="fake", workdir="/app"), root=tmp_path / "r") as sandbox:
        assert sandbox.exec(["/bin/sh", "-c", "mkdir -p /x/y rel"]).ok
        assert sandbox.host_path("/x/y").is_dir() and sandbox.host_path("/app/rel").is_dir()
        assert sandbox.exec(["test", "-e", "/x/y"]).ok and not sandbox.exec(["test", "-e", "/nope"]).ok
        sandbox.put_file("/x/y/f", "text")
        assert sandbox.exec(["cat", "/x/y/f"]).stdout == "text" and not sandbox.exec(["cat", "/nope"]).ok
        assert sandbox.exec(["rm", "-rf", "--", "/x"]).ok and not sandbox.host_path("/x").exists()
        assert sandbox.exec("mkdir -p /made; mkdir -p /also").ok  # shell syntax: left alone, exit 0
        assert not sandbox.host_path("/made").exists()
    assert not sandbox.alive() and sandbox.model_cut
    sandbox.stop()  # twice is safe
    with pytest.raises(SandboxError, match="not running"):
        sandbox.exec(["true"])


def test_the_spec_is_checked_on_start(tmp_path: Path) -> None:
    with pytest.raises(NetworkModeError, match="opt-in"):
        FakeSandbox(SandboxSpec(image="fake", network=NetworkMode.HOST), root=tmp_path / "r").start()


def test_the_diff_names_what_changed_since_start(tmp_path: Path) -> None:
    sandbox = FakeSandbox(
        SandboxSpec(image="fake"), root=tmp_path / "r", files={"/usr/bin/python3": "real", "/app/a": "a"}
    )
    sandbox.start()
    assert sandbox.changed_paths() == []
    sandbox.host_path("/usr/bin/python3").write_text("forged!")
    sandbox.host_path("/app/a").unlink()
    sandbox.host_path("/app/new").write_text("n")
    changes = {(c.kind, c.path) for c in sandbox.changed_paths()}
    assert changes == {
        ("changed", "/usr/bin/python3"),
        ("changed", "/usr/bin"),
        ("changed", "/usr"),
        ("deleted", "/app/a"),
        ("added", "/app/new"),
        ("changed", "/app"),
    }
    assert tampered_paths(sandbox.changed_paths(), list(SYSTEM_PATHS)) == ["changed /usr/bin/python3"]


def test_create_sandbox_makes_the_installed_backends_sandboxes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    backend = FakeBackend(tmp_path / "sandboxes", files={"/etc/motd": "hi"}, image_workdir="/srv")
    name = backend.install(monkeypatch)
    sandbox = create_sandbox(SandboxSpec(image="fake", role="verify"), name)
    assert isinstance(sandbox, FakeSandbox) and backend.sandboxes == [sandbox]
    with sandbox:
        assert sandbox.read_file("/etc/motd", 10) == b"hi"
        assert sandbox.process_defaults().workdir == "/srv"
    assert sandbox.root == tmp_path / "sandboxes" / "000-verify"


def test_the_model_is_reached_only_on_the_sandboxs_own_routes(tmp_path: Path) -> None:
    with ProxySession(ScriptedEngine(), tmp_path / "run") as proxy:
        assert proxy.store is not None
        spec = SandboxSpec(
            image="fake",
            network=NetworkMode.MODEL_ONLY,
            model_endpoint=proxy.endpoint,
            model_routes=["/rollouts/r1/v1/"],
        )
        sandbox = FakeSandbox(spec, root=tmp_path / "r")
        with sandbox:
            body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
            assert sandbox.model_request("/rollouts/r1/v1/chat/completions", json=body).status_code == 200
            assert sandbox.model_request("/rollouts/r2/v1/chat/completions", json=body).status_code == 403
            assert sandbox.model_request("/admin/pause").status_code == 403
            sandbox.cut_model()
            with pytest.raises(httpx.ConnectError):
                sandbox.model_request("/rollouts/r1/v1/chat/completions", json=body)
        assert [c.status for c in proxy.store.calls("r1")] == [CallStatus.OK]
        assert proxy.store.calls("r2") == []
    offline = _started(tmp_path / "none")
    with pytest.raises(httpx.ConnectError, match="no way"):
        offline.model_request("/rollouts/r1/v1/chat/completions")


def _agent_verified_task(tmp_path: Path) -> Path:
    return write_task(tmp_path, "fake-task", verifier='sandbox = "agent"')


@pytest.mark.parametrize(("reward", "expected"), [("1", 1.0), ("0.25", 0.25), (None, None)])
def test_the_real_verifier_runs_on_a_fake_sandbox(
    tmp_path: Path, reward: str | None, expected: float
) -> None:
    task = load_task(_agent_verified_task(tmp_path))

    def tests(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
        if call.argv == ["/bin/bash", "/tests/test.sh"]:
            assert sandbox.read_file("/tests/test.sh", 10_000) == (task.tests_dir / "test.sh").read_bytes()
            if reward is not None:
                sandbox.put_file("/logs/verifier/reward.txt", reward)
            sandbox.put_file("/logs/verifier/report.json", "{}")
            return ExecResult(exit_code=0, stdout="tests ran")
        return None

    sandbox = FakeSandbox(SandboxSpec(image="fake", workdir="/app"), root=tmp_path / "r", handler=tests)
    with sandbox:
        verdict = run_verifier(sandbox, task, "fake-unused", None)
    assert verdict.reward == expected
    assert verdict.error_class == (None if reward is not None else "RewardFileMissing")
    assert sandbox.model_cut and sandbox.kill_strays_calls == 2  # before the tests and after them


def test_the_real_headless_runner_launches_the_null_harness(tmp_path: Path) -> None:
    seen: list[ExecCall] = []

    def handler(sandbox: FakeSandbox, call: ExecCall) -> ExecResult | None:
        if is_launch(call):
            seen.append(call)
            sandbox.put_file("/logs/agent/final-message.txt", "did nothing")
        return None

    harness = NullHarness()
    sandbox = FakeSandbox(SandboxSpec(image="fake", workdir="/app"), root=tmp_path / "r", handler=handler)
    with sandbox:
        run = run_headless(
            sandbox,
            harness,
            null_bundle(tmp_path / "bundle"),
            instruction="x",
            model="m",
            base_url="http://127.0.0.1:8000/rollouts/r1",
            api_key="k",
            timeout=30,
            workdir="/app",
            logs_dir=tmp_path / "logs",
        )
    assert run.status == "completed" and run.final_message == "did nothing", run
    assert [c.workdir for c in seen] == ["/app"] and seen[0].timeout == 30
    assert (tmp_path / "logs" / "agent" / "final-message.txt").read_text() == "did nothing"


def test_ask_model_posts_where_the_launch_points(tmp_path: Path) -> None:
    with ProxySession(ScriptedEngine(), tmp_path / "run") as proxy:
        assert proxy.store is not None
        spec = SandboxSpec(
            image="fake",
            network=NetworkMode.MODEL_ONLY,
            model_endpoint=proxy.endpoint,
            model_routes=["/rollouts/r1/v1/"],
        )
        launch = NullHarness().launch(
            LaunchContext(
                instruction="x",
                model="m",
                base_url="http://127.0.0.1:8000/rollouts/r1",
                api_key="k",
                workdir="/app",
                home="/tmp/h",
                bundle="/b",
            )
        )
        call = ExecCall(argv=launch.argv, timeout=None, env=launch.env, workdir="/app", user=None)
        with FakeSandbox(spec, root=tmp_path / "r") as sandbox:
            assert ask_model(sandbox, call).status_code == 200
        assert len(proxy.store.calls("r1")) == 1
