from pathlib import Path

import pytest

from envs.errors import TaskLoadError
from envs.task import find_task_dirs, inspect_task, load_task
from envs.task_config import NetworkMode, TaskConfig, parse_size_mb
from tests.conftest import write_task


def test_our_spelling_loads(tmp_path: Path) -> None:
    toml = """
        [task]
        name = "sort-files"
        description = "Sort files"
        keywords = ["files"]
        [metadata]
        domain = "claw"
        difficulty = "easy"
        tags = ["a", "b"]
        [agent]
        timeout_sec = 120
        [verifier]
        timeout_sec = 30
        [environment]
        cpus = 2
        memory_mb = 1024
        network = "none"
        workdir = "/app"
    """
    task = load_task(write_task(tmp_path, "dir-name", toml=toml))
    assert task.name == "sort-files"
    assert task.config.metadata.domain == "claw"
    assert task.config.agent.timeout_sec == 120
    assert task.config.environment.network is NetworkMode.NONE
    assert task.config.environment.cpus == 2
    assert task.image_repository == "openforge/task-sort-files"


def test_harbor_spellings_load_and_unknown_keys_are_kept(tmp_path: Path) -> None:
    toml = """
        version = "1.0"
        [metadata]
        author_name = "Jane"
        author_email = "jane@example.com"
        difficulty = "hard"
        expert_time_estimate_min = 30
        [verifier]
        timeout_sec = 900.0
        [agent]
        timeout_sec = 1800.0
        [environment]
        build_timeout_sec = 600.0
        cpus = 1
        memory = "2G"
        storage = "10G"
        network_mode = "no-network"
        something_new = { a = 1 }
    """
    task = load_task(write_task(tmp_path, "harbor-task", toml=toml))
    cfg = task.config
    assert task.name == "harbor-task"  # no [task].name: the directory's name
    assert cfg.version == "1.0"
    assert cfg.environment.memory_mb == 2048
    assert cfg.environment.storage_mb == 10240
    assert cfg.environment.network is NetworkMode.NONE
    assert cfg.metadata.model_extra == {
        "author_name": "Jane",
        "author_email": "jane@example.com",
        "expert_time_estimate_min": 30,
    }
    assert cfg.environment.model_extra["something_new"] == {"a": 1}
    assert cfg.environment.model_extra["network_mode"] == "no-network"


@pytest.mark.parametrize(
    ("text", "mb"), [("2G", 2048), ("512M", 512), ("1.5g", 1536), ("4GiB", 4096), (1024, 1024)]
)
def test_sizes(text: str | int, mb: int) -> None:
    assert parse_size_mb(text) == mb


def test_defaults() -> None:
    cfg = TaskConfig()
    assert cfg.environment.network is NetworkMode.MODEL_ONLY
    assert cfg.agent.timeout_sec > 0 and cfg.verifier.timeout_sec > 0


def test_negative_timeout_names_task_file_and_field(tmp_path: Path) -> None:
    task = write_task(tmp_path, "bad", toml="[task]\nname = 'bad'\n[agent]\ntimeout_sec = -5\n")
    with pytest.raises(TaskLoadError) as info:
        load_task(task)
    err = info.value
    assert (err.task, err.file, err.field) == ("bad", "task.toml", "[agent].timeout_sec")
    assert "greater than 0" in str(err) and "-5" in str(err)


def test_bad_toml_is_a_clear_error(tmp_path: Path) -> None:
    task = write_task(tmp_path, "broken", toml="[task\nname = 'x'\n")
    with pytest.raises(TaskLoadError, match=r"task 'broken': task.toml: not valid TOML"):
        load_task(task)


def test_missing_files_are_named(tmp_path: Path) -> None:
    task = write_task(tmp_path, "no-tests")
    (task / "tests" / "test.sh").unlink()
    with pytest.raises(TaskLoadError, match=r"tests/test.sh: missing"):
        load_task(task)


def test_check_lists_every_problem_not_just_the_first(tmp_path: Path) -> None:
    task = write_task(
        tmp_path,
        "many",
        toml="[agent]\ntimeout_sec = -1\n[verifier]\ntimeout_sec = 'soon'\n[environment]\nworkdir = 'app'\n",
        solve_sh=None,
    )
    (task / "environment" / "Dockerfile").unlink()
    (task / "instruction.md").write_text("   \n")
    found, problems = inspect_task(task)
    assert found is None
    text = "\n".join(str(p) for p in problems)
    for expected in (
        "[agent].timeout_sec",
        "[verifier].timeout_sec",
        "[environment].workdir",
        "environment/Dockerfile: missing",
        "instruction.md: is empty",
        "solution/solve.sh: missing",
    ):
        assert expected in text, text
    assert [p.severity for p in problems if p.file == "solution/solve.sh"] == ["warning"]


def test_unknown_domain_is_rejected(tmp_path: Path) -> None:
    task = write_task(tmp_path, "dom", toml="[metadata]\ndomain = 'space'\n")
    with pytest.raises(TaskLoadError, match=r"\[metadata\].domain"):
        load_task(task)


def test_find_task_dirs_walks_a_catalog(tmp_path: Path) -> None:
    write_task(tmp_path / "cat", "a")
    write_task(tmp_path / "cat" / "group", "b")
    assert [p.name for p in find_task_dirs(tmp_path / "cat")] == ["a", "b"]
    assert find_task_dirs(tmp_path / "cat" / "a") == [tmp_path / "cat" / "a"]


def test_harbor_schema_1_1_fields(tmp_path: Path) -> None:
    toml = """
        schema_version = "1.1"
        source = "terminal-bench"
        [task]
        name = "harbor/hello-world"
        authors = [{ name = "Jane", email = "jane@example.com" }]
        [agent]
        user = 1000
        network_mode = "no-network"
        [verifier]
        user = "tester"
        env = { JUDGE = "${JUDGE_KEY:-none}" }
        [solution]
        env = { HINT = "x" }
        [environment]
        gpus = 0
        allow_internet = false
        env = { TOKEN = "${FORGE_TEST_TOKEN}" }
        [environment.healthcheck]
        command = "test -f /ready"
        retries = 5
    """
    task = load_task(write_task(tmp_path, "hello", toml=toml))
    cfg = task.config
    assert task.name == "harbor/hello-world"
    assert task.image_repository == "openforge/task-harbor-hello-world"
    assert cfg.agent.user == "1000" and cfg.verifier.user == "tester"
    assert cfg.environment.network is NetworkMode.NONE
    assert cfg.environment.healthcheck is not None and cfg.environment.healthcheck.retries == 5
    assert cfg.solution.env == {"HINT": "x"}
    assert cfg.model_extra == {"source": "terminal-bench"}


def test_env_templates_are_filled_from_the_host(tmp_path: Path) -> None:
    from envs.task_sandbox import resolve_env

    task = load_task(write_task(tmp_path, "env"))
    env = {"A": "${X}", "B": "${Y:-fallback}", "C": "pre-${X}-post", "D": "plain"}
    assert resolve_env(task, env, "environment", host={"X": "1"}) == {
        "A": "1",
        "B": "fallback",
        "C": "pre-1-post",
        "D": "plain",
    }
    with pytest.raises(TaskLoadError, match=r"\[environment\].env.A: needs \$\{X\}"):
        resolve_env(task, {"A": "${X}"}, "environment", host={})
