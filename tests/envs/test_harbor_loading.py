"""Harbor's task features load as Harbor reads them, or are refused / warned about by name: multi-step
tasks, a separate verifier, Windows and compose tasks, per-phase networks and the rest."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from envs.errors import TaskLoadError
from envs.task import Problem, inspect_task, load_task
from envs.task_config import (
    TaskConfig,
    harbor_artifact_paths,
    separate_verifier,
    verifier_network_declared,
)
from tests.conftest import write_task

STEPS_TOML = """
    [task]
    name = "org/steps"
    [agent]
    timeout_sec = 120
    [[steps]]
    name = "first"
    [steps.agent]
    timeout_sec = 30
    [[steps]]
    name = "second"
    [steps.verifier]
    timeout_sec = 45
    env = { LEVEL = "2" }
"""


def _multi_step(root: Path, toml: str = STEPS_TOML, **files: str) -> Path:
    """A two-step task: `first` has its own tests, solution and workdir, `second` only an instruction."""
    task = write_task(root, "steps", toml=toml)
    (task / "instruction.md").unlink()  # Harbor ignores the root instruction of a multi-step task
    layout = {
        "steps/first/instruction.md": "Make the first file.\n",
        "steps/first/tests/test.sh": "#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n",
        "steps/first/solution/solve.sh": "#!/bin/bash\ntouch /app/one\n",
        "steps/first/workdir/setup.sh": "touch /app/ready\n",
        "steps/second/instruction.md": "Now the second.\n",
        **files,
    }
    for rel, text in layout.items():
        (task / rel).parent.mkdir(parents=True, exist_ok=True)
        (task / rel).write_text(text)
    return task


def _problems(task: Path) -> list[tuple[str, str, str | None]]:
    _, problems = inspect_task(task)
    return [(p.severity, p.file, p.field) for p in problems]


def _only_error(task: Path) -> Problem:
    found, problems = inspect_task(task)
    assert found is None, "the task loaded, but it should have been refused"
    errors = [p for p in problems if p.severity == "error"]
    assert len(errors) == 1, [str(p) for p in problems]
    return errors[0]


def test_a_multi_step_task_loads_with_its_steps_in_order(tmp_path: Path) -> None:
    path = _multi_step(tmp_path)
    task, problems = inspect_task(path)
    assert problems == []
    assert task is not None
    assert task.is_multi_step and task.instruction == ""
    assert [s.name for s in task.steps] == ["first", "second"]
    first, second = task.steps
    root = path.resolve()
    assert (first.instruction, second.instruction) == ("Make the first file.\n", "Now the second.\n")
    assert first.path == root / "steps" / "first"
    assert first.tests_dir == root / "steps" / "first" / "tests"
    assert first.test_script == root / "steps" / "first" / "tests" / "test.sh"
    assert first.solution_dir == root / "steps" / "first" / "solution"
    assert first.workdir_dir == root / "steps" / "first" / "workdir"
    assert (second.tests_dir, second.test_script, second.solution_dir, second.workdir_dir) == (None,) * 4
    assert first.agent_timeout(task.config) == 30.0
    assert second.agent_timeout(task.config) == 120.0  # the task's [agent].timeout_sec
    assert (first.config.verifier.timeout_sec, second.config.verifier.timeout_sec) == (600.0, 45.0)
    assert second.config.verifier.env == {"LEVEL": "2"}
    assert task.separate_verifier is False


def test_a_one_step_task_has_no_steps(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path, "one"))
    assert (task.steps, task.is_multi_step, task.instruction) == ((), False, "Create the file /app/done.\n")


def test_a_multi_step_task_keeps_its_reward_strategy_and_gates(tmp_path: Path) -> None:
    toml = 'multi_step_reward_strategy = "final"\n' + textwrap.dedent(
        STEPS_TOML.replace('name = "second"', 'name = "second"\n    min_reward = { a = 0.5 }')
    )
    task = load_task(_multi_step(tmp_path, toml=toml))
    assert task.config.multi_step_reward_strategy == "final"
    assert [s.config.min_reward for s in task.steps] == [None, {"a": 0.5}]


@pytest.mark.parametrize(
    ("change", "file", "says"),
    [
        ("missing", "steps/second/instruction.md", "missing (each step needs its instruction)"),
        ("empty", "steps/second/instruction.md", "is empty"),
        ("binary", "steps/second/instruction.md", "is not UTF-8 text"),
        ("no dir", "steps/second", "missing (steps[1] is named 'second'"),
    ],
)
def test_a_step_without_its_instruction_is_named(tmp_path: Path, change: str, file: str, says: str) -> None:
    path = _multi_step(tmp_path)
    instruction = path / "steps" / "second" / "instruction.md"
    if change == "missing":
        instruction.unlink()
    elif change == "empty":
        instruction.write_text(" \n")
    elif change == "binary":
        instruction.write_bytes(b"\xff\xfe\x00binary")
    else:
        instruction.unlink()
        (path / "steps" / "second").rmdir()
    error = _only_error(path)
    assert (error.task, error.file, error.field) == ("org/steps", file, None)
    assert error.message.startswith(says), error.message
    with pytest.raises(TaskLoadError, match=f"task 'org/steps': {file}: "):
        load_task(path)


def test_duplicate_step_names_are_refused(tmp_path: Path) -> None:
    path = _multi_step(tmp_path, toml=STEPS_TOML.replace('name = "second"', 'name = "first"'))
    error = _only_error(path)
    assert (error.file, error.field, error.message) == ("task.toml", "steps", "names 'first' more than once")


@pytest.mark.parametrize("name", ["a/b", "..", ".hidden", "-x", "has space", ""])
def test_a_step_name_must_be_one_safe_path_component(tmp_path: Path, name: str) -> None:
    path = _multi_step(tmp_path, toml=STEPS_TOML.replace('name = "second"', f'name = "{name}"'))
    error = _only_error(path)
    assert (error.file, error.field) == ("task.toml", "steps[1].name")
    assert error.message.startswith("must be a name like 'step-1'"), error.message


def test_root_test_script_is_needed_only_for_a_step_without_its_own(tmp_path: Path) -> None:
    path = _multi_step(tmp_path)
    (path / "tests" / "test.sh").unlink()
    error = _only_error(path)
    assert (error.file, error.field) == ("tests/test.sh", None)
    assert error.message == "missing, and so is steps/second/tests/test.sh (each step needs a test script)"
    (path / "steps" / "second" / "tests").mkdir()
    (path / "steps" / "second" / "tests" / "test.sh").write_text("#!/bin/bash\n")
    assert _problems(path) == []


def test_solution_warning_when_some_step_has_none(tmp_path: Path) -> None:
    path = _multi_step(tmp_path)
    assert _problems(path) == []  # the root solution/solve.sh covers the second step
    (path / "solution" / "solve.sh").unlink()
    task, problems = inspect_task(path)
    assert task is not None
    assert [(p.severity, p.file, p.message) for p in problems] == [
        (
            "warning",
            "solution/solve.sh",
            "missing, and so is steps/second/solution/solve.sh "
            "(the verification gate needs a reference solution for each step)",
        )
    ]
    (path / "steps" / "second" / "solution").mkdir()
    (path / "steps" / "second" / "solution" / "solve.sh").write_text("#!/bin/bash\n")
    assert _problems(path) == []  # every step has its own


def test_a_multi_step_task_with_a_broken_toml_still_names_the_toml(tmp_path: Path) -> None:
    path = _multi_step(tmp_path, toml=STEPS_TOML.replace("timeout_sec = 30", "timeout_sec = -1"))
    _, problems = inspect_task(path)
    assert ("error", "task.toml", "steps[0].agent.timeout_sec") in [
        (p.severity, p.file, p.field) for p in problems
    ]


SEPARATE = '[task]\nname = "sep"\n[verifier]\nenvironment_mode = "separate"\n'


def test_separate_mode_needs_tests_dockerfile(tmp_path: Path) -> None:
    path = write_task(tmp_path, "sep", toml=SEPARATE)
    error = _only_error(path)
    assert (error.file, error.field) == ("tests/Dockerfile", None)
    assert "separate verifier environment" in error.message
    assert "[verifier.environment].docker_image" in error.message
    (path / "tests" / "Dockerfile").write_text("FROM debian\nCOPY . /tests/\n")
    (path / "tests" / "test.sh").unlink()  # the verifier image holds /tests itself, as in Harbor
    task = load_task(path)
    assert task.separate_verifier is True
    assert task.verifier_context == path.resolve() / "tests"


def test_a_prebuilt_verifier_image_needs_no_dockerfile(tmp_path: Path) -> None:
    toml = '[task]\nname = "pre"\n[verifier.environment]\ndocker_image = "example/verifier:1"\n'
    task = load_task(write_task(tmp_path, "pre", toml=toml))
    assert task.separate_verifier is True
    assert task.config.verifier.environment is not None
    assert task.config.verifier.environment.docker_image == "example/verifier:1"


def test_verifier_environment_implies_separate(tmp_path: Path) -> None:
    toml = '[task]\nname = "imp"\n[verifier.environment]\ncpus = 2\n'
    path = write_task(tmp_path, "imp", toml=toml)
    assert _only_error(path).file == "tests/Dockerfile"  # separate, so its image is built from tests/
    config = TaskConfig.model_validate({"verifier": {"environment": {}}})
    assert config.verifier.environment_mode is None
    assert separate_verifier(config) is True
    assert (
        separate_verifier(TaskConfig.model_validate({"verifier": {"environment_mode": "separate"}})) is True
    )
    assert separate_verifier(TaskConfig.model_validate({"verifier": {"environment_mode": "shared"}})) is False
    assert separate_verifier(TaskConfig()) is False


def test_shared_mode_with_a_verifier_environment_is_refused(tmp_path: Path) -> None:
    toml = (
        '[task]\nname = "both"\n[verifier]\nenvironment_mode = "shared"\n[verifier.environment]\ncpus = 2\n'
    )
    error = _only_error(write_task(tmp_path, "both", toml=toml))
    assert (error.file, error.field) == ("task.toml", "[verifier].environment")
    assert error.message.startswith("is set, but [verifier].environment_mode is 'shared'")


def test_separate_mode_refuses_per_step_verifier_images(tmp_path: Path) -> None:
    toml = STEPS_TOML.replace("[[steps]]", '[verifier]\n    environment_mode = "separate"\n    [[steps]]', 1)
    path = _multi_step(tmp_path, toml=toml)
    (path / "tests" / "Dockerfile").write_text("FROM debian\n")
    error = _only_error(path)
    assert (error.file, error.field) == ("steps/first/tests", None)
    assert "per-step verifier images are not supported yet" in error.message


def test_a_per_step_verifier_environment_is_refused(tmp_path: Path) -> None:
    toml = STEPS_TOML.replace("[steps.verifier]", '[steps.verifier]\n    environment_mode = "separate"')
    error = _only_error(_multi_step(tmp_path, toml=toml))
    assert (error.file, error.field) == ("task.toml", "steps[1].verifier.environment_mode")
    assert error.message.startswith("a per-step verifier environment is not supported yet")


@pytest.mark.parametrize("os_name", ["windows", "Windows", "WINDOWS"])
def test_windows_tasks_are_refused_clearly(tmp_path: Path, os_name: str) -> None:
    path = write_task(tmp_path, "win", toml=f'[task]\nname = "win"\n[environment]\nos = "{os_name}"\n')
    (path / "tests" / "test.sh").rename(path / "tests" / "test.bat")  # as a Windows task has it
    (path / "instruction.md").unlink()
    found, problems = inspect_task(path)
    assert found is None
    assert [(p.severity, p.file, p.field, p.message) for p in problems] == [
        (
            "error",
            "task.toml",
            "[environment].os",
            "is 'windows': Windows tasks cannot run here (OpenForge runs Linux containers); "
            "the task is refused",
        )
    ]


def test_linux_is_the_default_os_and_any_other_is_refused(tmp_path: Path) -> None:
    assert TaskConfig().environment.os == "linux"
    assert TaskConfig.model_validate({"environment": {"os": "Linux"}}).environment.os == "linux"
    error = _only_error(write_task(tmp_path, "mac", toml='[environment]\nos = "macos"\n'))
    assert (error.file, error.field) == ("task.toml", "[environment].os")


@pytest.mark.parametrize("name", ["docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml"])
def test_compose_tasks_are_refused(tmp_path: Path, name: str) -> None:
    path = write_task(tmp_path, "compose", files={f"environment/{name}": "services:\n  db:\n    image: x\n"})
    error = _only_error(path)
    assert (error.file, error.field) == (f"environment/{name}", None)
    assert error.message.startswith("compose sidecar services are not supported yet; the task is refused")


def test_a_separate_verifier_compose_file_is_refused(tmp_path: Path) -> None:
    path = write_task(tmp_path, "sep", toml=SEPARATE, files={"tests/Dockerfile": "FROM x\n"})
    (path / "tests" / "compose.yaml").write_text("services: {}\n")
    assert _only_error(path).file == "tests/compose.yaml"


def test_a_plain_task_has_no_warnings(tmp_path: Path) -> None:
    assert _problems(write_task(tmp_path, "plain")) == []


ALLOW = 'network_mode = "allowlist"\nallowed_hosts = ["pypi.org"]'


@pytest.mark.parametrize(
    ("toml", "field", "says"),
    [
        (f"[environment]\n{ALLOW}", "[environment].network_mode", "cannot enforce"),
        (f"[verifier]\n{ALLOW}", "[verifier].network_mode", "--verifier-network"),
        (
            f'[verifier.environment]\ndocker_image = "v"\n{ALLOW}',
            "[verifier].environment.network_mode",
            "cannot enforce",
        ),
        ('[agent]\nnetwork_mode = "public"', "[agent].network_mode", "always reaches only its model"),
        ('[agent]\nnetwork_mode = "no-network"', "[agent].network_mode", "is 'no-network', but the agent"),
        (f"[agent]\n{ALLOW}", "[agent].network_mode", "(model-only); this override is not applied"),
        (
            '[[environment.mcp_servers]]\nname = "search"\ntransport = "sse"\nurl = "http://mcp:8000/sse"',
            "[environment].mcp_servers",
            "1 MCP server(s) ('search'); they are not given to the harnesses",
        ),
        (
            '[environment]\nskills_dir = "/skills"',
            "[environment].skills_dir",
            "not copied into the harnesses'",
        ),
        ("[environment]\ngpus = 1", "[environment].gpus", "asks for 1 GPU(s); the Docker backend gives"),
        ('[environment.tpu]\ntype = "v6e"\ntopology = "2x2"', "[environment].tpu", "no TPU"),
        ('[[verifier.collect]]\ncommand = "true"', "[verifier].collect", "not run"),
        (
            '[[artifacts]]\nsource = "/app/out"\nexclude = ["*.tmp"]',
            "artifacts[0].exclude",
            "all of /app/out is carried",
        ),
        (
            '[[artifacts]]\nsource = "/app/a"\n[[artifacts]]\nsource = "/app/b"\ndestination = "b"',
            "artifacts[1].destination",
            "/app/b is carried into the verifier's sandbox at its own path",
        ),
        (
            '[verifier]\nsandbox = "agent"\n[verifier.environment]\ndocker_image = "v"',
            "[verifier].sandbox",
            "runs in its own container",
        ),
    ],
)
def test_unsupported_features_are_named_warnings(tmp_path: Path, toml: str, field: str, says: str) -> None:
    path = write_task(tmp_path, "warn", toml=f'[task]\nname = "warn"\n{toml}\n')
    task, problems = inspect_task(path)
    assert task is not None, [str(p) for p in problems]  # a warning never refuses the task
    assert [(p.severity, p.file, p.field) for p in problems] == [("warning", "task.toml", field)]
    assert says in problems[0].message, problems[0].message


def test_no_gpus_and_public_networks_are_not_warned_about(tmp_path: Path) -> None:
    toml = '[environment]\ngpus = 0\nnetwork_mode = "public"\n[verifier]\nnetwork_mode = "public"\n'
    assert _problems(write_task(tmp_path, "quiet", toml=toml)) == []


def test_per_step_network_and_artifacts_are_named_warnings(tmp_path: Path) -> None:
    toml = STEPS_TOML.replace(
        "[steps.agent]", 'artifacts = ["/app/one"]\n    [steps.agent]\n    network_mode = "public"'
    ).replace("[steps.verifier]", '[steps.verifier]\n    network_mode = "public"')
    assert _problems(_multi_step(tmp_path, toml=toml)) == [
        ("warning", "task.toml", "steps[0].agent.network_mode"),
        ("warning", "task.toml", "steps[0].artifacts"),
        ("warning", "task.toml", "steps[1].verifier.network_mode"),
    ]


@pytest.mark.parametrize("section", ["agent", "verifier", "environment"])
def test_allowed_hosts_needs_allowlist_as_in_harbor(tmp_path: Path, section: str) -> None:
    toml = f'[{section}]\nnetwork_mode = "public"\nallowed_hosts = ["pypi.org"]\n'
    error = _only_error(write_task(tmp_path, "hosts", toml=toml))
    assert (error.field, error.message) == (
        f"[{section}].allowed_hosts",
        "is only valid with network_mode = 'allowlist' (got ['pypi.org'])",
    )


def test_network_mode_maps_to_ours_by_harbors_precedence() -> None:
    def network(env: dict[str, Any]) -> str:
        return TaskConfig.model_validate({"environment": env}).environment.network.value

    assert network({"network_mode": "no-network"}) == "none"
    assert network({"allow_internet": False}) == "none"
    assert network({"network_mode": "public", "allow_internet": False}) == "model-only"  # network_mode wins
    assert network({"network_mode": "public"}) == "model-only"
    assert network({}) == "model-only"


@pytest.mark.parametrize(
    ("config", "declared"),
    [
        ({}, "public"),  # Harbor's default
        ({"environment": {"allow_internet": False}}, "no-network"),
        ({"environment": {"allow_internet": True}}, "public"),
        ({"environment": {"network_mode": "no-network"}}, "no-network"),
        ({"environment": {"network_mode": "public", "allow_internet": False}}, "public"),
        ({"environment": {"network_mode": "allowlist", "allowed_hosts": ["pypi.org"]}}, "public"),
        ({"environment": {"network_mode": "no-network"}, "verifier": {"network_mode": "public"}}, "public"),
        ({"environment": {"allow_internet": True}, "verifier": {"network_mode": "no-network"}}, "no-network"),
        ({"verifier": {"network_mode": "allowlist", "allowed_hosts": ["pypi.org"]}}, "public"),
        # a separate verifier's own environment is its baseline
        (
            {
                "environment": {"network_mode": "public"},
                "verifier": {"environment": {"allow_internet": False}},
            },
            "no-network",
        ),
        ({"environment": {"network_mode": "no-network"}, "verifier": {"environment": {}}}, "public"),
    ],
)
def test_verifier_network_declared(config: dict[str, Any], declared: str) -> None:
    assert verifier_network_declared(TaskConfig.model_validate(config)) == declared


def test_harbor_artifacts_give_their_absolute_sources(tmp_path: Path) -> None:
    toml = """
        artifacts = [
            "/app/out.txt",
            { source = "/app/results/", destination = "results", exclude = ["*.tmp"] },
            "/app/out.txt",
        ]
        [task]
        name = "arts"
    """
    task = load_task(write_task(tmp_path, "arts", toml=toml))
    assert harbor_artifact_paths(task.config) == ["/app/out.txt", "/app/results"]
    second = task.config.artifacts[1]
    assert (second.destination, second.exclude) == ("results", ["*.tmp"])
    assert harbor_artifact_paths(TaskConfig()) == []


@pytest.mark.parametrize(
    ("value", "field", "says"),
    [
        ('["app/out"]', "artifacts[0].source", "must be an absolute path"),
        ('["/ok", { source = "/app/../etc" }]', "artifacts[1].source", "normalized"),
        ('["/"]', "artifacts[0].source", "must not be '/'"),
    ],
)
def test_bad_harbor_artifacts_are_named(tmp_path: Path, value: str, field: str, says: str) -> None:
    error = _only_error(write_task(tmp_path, "arts", toml=f"artifacts = {value}\n"))
    assert (error.file, error.field) == ("task.toml", field)
    assert says in error.message, error.message
