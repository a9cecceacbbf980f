import json
import textwrap
from pathlib import Path

import pytest

from envs.engine_limits import EngineLimits, engine_limits
from envs.errors import TaskLoadError
from envs.task import Problem, find_task_dirs, inspect_task, load_task
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
        "difficulty": "hard",
        "expert_time_estimate_min": 30,
    }
    assert cfg.environment.model_extra["something_new"] == {"a": 1}
    assert cfg.environment.network_mode == "no-network"  # Harbor's field, typed now
    assert "network_mode" not in cfg.environment.model_extra


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


def test_metadata_is_free_form_as_in_harbor(tmp_path: Path) -> None:
    toml = """
        [metadata]
        difficulty = 3
        tags = "parsing, text"
        category = ["a", "b"]
        time_estimate = { expert_min = 5, junior_min = 20 }
    """
    metadata = load_task(write_task(tmp_path, "free", toml=toml)).config.metadata
    assert metadata.domain is None
    assert metadata.model_extra == {
        "difficulty": 3,
        "tags": "parsing, text",
        "category": ["a", "b"],
        "time_estimate": {"expert_min": 5, "junior_min": 20},
    }


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
    from envs.task import resolve_env

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


def _errors(task: Path, limits: EngineLimits | None = None) -> list[Problem]:
    found, problems = inspect_task(task, limits)
    assert found is None, "the task loaded, but it should have had a problem"
    return [p for p in problems if p.severity == "error"]


WEEK = 604800


@pytest.mark.parametrize(
    ("toml", "field", "says"),
    [
        ("[agent]\ntimeout_sec = inf", "[agent].timeout_sec", "finite"),
        ("[agent]\ntimeout_sec = nan", "[agent].timeout_sec", "finite"),
        ("[agent]\ntimeout_sec = 1e12", "[agent].timeout_sec", f"less than or equal to {WEEK}"),
        ("[agent]\ntimeout_sec = true", "[agent].timeout_sec", "must be a number"),
        ("[verifier]\ntimeout_sec = inf", "[verifier].timeout_sec", "finite"),
        (f"[verifier]\ntimeout_sec = {WEEK + 1}", "[verifier].timeout_sec", f"less than or equal to {WEEK}"),
        ("[environment]\nbuild_timeout_sec = -inf", "[environment].build_timeout_sec", "finite"),
        ("[environment]\nbuild_timeout_sec = 1e12", "[environment].build_timeout_sec", "less than or equal"),
        *[
            (
                f"[environment.healthcheck]\ncommand = 'true'\n{key} = {value}",
                f"[environment].healthcheck.{key}",
                says,
            )
            for key in ("interval_sec", "timeout_sec", "start_period_sec", "start_interval_sec")
            for value, says in (("inf", "finite"), ("nan", "finite"), ("1e12", "less than or equal"))
        ],
        ("[environment]\ncpus = inf", "[environment].cpus", "finite"),
        ("[environment]\ncpus = nan", "[environment].cpus", "finite"),
        ("[environment]\ncpus = 2048", "[environment].cpus", "less than or equal to 1024"),
        ("[environment]\nmemory_mb = 5", "[environment].memory_mb", "greater than or equal to 6"),
        ("[environment]\nmemory_mb = 1e12", "[environment].memory_mb", "less than or equal to 16777216"),
        ("[environment]\nmemory_mb = inf", "[environment].memory_mb", "finite"),
        ("[environment]\nmemory = inf", "[environment].memory_mb", "memory must be a size"),
        ("[environment]\nmemory = nan", "[environment].memory_mb", "memory must be a size"),
        ("[environment]\nmemory = '1M'", "[environment].memory_mb", "greater than or equal to 6"),
        ("[environment]\nmemory = '17T'", "[environment].memory_mb", "less than or equal to 16777216"),
        (
            "[environment]\nstorage_mb = 16777217",
            "[environment].storage_mb",
            "less than or equal to 16777216",
        ),
        ("[environment]\nstorage = '17T'", "[environment].storage_mb", "less than or equal to 16777216"),
        ("[environment]\nstorage = 'lots'", "[environment].storage_mb", "storage must be a size"),
        ("[environment]\nstorage = inf", "[environment].storage_mb", "storage must be a size"),
        *[
            (f"[task]\nname = {json.dumps(name)}", "[task].name", "must be a name like")
            for name in (
                "..",
                ".",
                "../escape",
                "a/../b",
                "has space",
                "-leading-dash",
                ".hidden",
                "back\\slash",
                "/abs/path",
                "org/",
                "/name",
                "org//name",
                "a/b/c",
                "",
                "tab\tname",
                "new\nline",
            )
        ],
        ("[task]\nname = '" + "a" * 129 + "'", "[task].name", "at most 128 characters"),
        ("[verifier]\nreward_range = [1, 0]", "[verifier].reward_range", "low < high"),
        ("[verifier]\nreward_range = [0.5, 0.5]", "[verifier].reward_range", "low < high"),
        ("[verifier]\nreward_range = [0, inf]", "[verifier].reward_range.1", "finite"),
        ("[verifier]\nreward_range = [nan, 1]", "[verifier].reward_range.0", "finite"),
        ("[verifier]\nartifacts = ['app/out']", "[verifier].artifacts.0", "absolute"),
        ("[verifier]\nartifacts = ['/app', '/']", "[verifier].artifacts.1", "must not be '/'"),
        ("[verifier]\nartifacts = ['/app/../etc']", "[verifier].artifacts.0", "normalized"),
        ("[verifier]\nartifacts = ['/app/./out']", "[verifier].artifacts.0", "normalized"),
        ("[verifier]\nartifacts = ['//app']", "[verifier].artifacts.0", "normalized"),
        ("[verifier]\nartifacts = ['/app//out']", "[verifier].artifacts.0", "normalized"),
        ("[verifier]\nartifacts = ['/app/']", "[verifier].artifacts.0", "normalized"),
        ('[verifier]\nartifacts = ["/app/\\u0000x"]', "[verifier].artifacts.0", "NUL"),
        ("[verifier]\nartifacts = ['/app', '/out', '/app']", "[verifier].artifacts", "'/app' more than once"),
        ("[verifier]\nartifacts_max_mb = 1048577", "[verifier].artifacts_max_mb", "less than or equal"),
    ],
)
def test_out_of_bounds_values_are_named_problems(tmp_path: Path, toml: str, field: str, says: str) -> None:
    named = toml if toml.startswith("[task]") else f'[task]\nname = "bounds"\n{toml}'
    errors = _errors(write_task(tmp_path, "bounds", toml=named + "\n"))
    assert [(p.file, p.field) for p in errors] == [("task.toml", field)], errors
    assert says in errors[0].message, errors[0].message
    with pytest.raises(TaskLoadError) as info:
        load_task(tmp_path / "bounds")
    assert info.value.field == field


def test_values_at_the_bounds_load(tmp_path: Path) -> None:
    toml = f"""
        [task]
        name = "org.x/Task_1.v2-b"
        [agent]
        timeout_sec = {WEEK}
        [verifier]
        timeout_sec = 0.5
        artifacts = ["/app/out", "/var/lib/result.json", "/app/out.d"]
        artifacts_max_mb = 1048576
        reward_range = [-1, 2.5]
        [environment]
        cpus = 0.25
        memory_mb = 6
        storage = "16T"
        build_timeout_sec = {WEEK}
        [environment.healthcheck]
        command = "true"
        start_period_sec = 0
        interval_sec = {WEEK}
    """
    task = load_task(write_task(tmp_path, "edge", toml=toml))
    cfg = task.config
    assert task.slug == "org.x__Task_1.v2-b"
    assert cfg.environment.storage_mb == 16 * 1024 * 1024 and cfg.environment.memory_mb == 6
    assert cfg.verifier.reward_range == (-1.0, 2.5)
    assert cfg.verifier.artifacts == ["/app/out", "/var/lib/result.json", "/app/out.d"]
    # and one step beyond each bound is a problem
    beyond = {
        f"timeout_sec = {WEEK}": f"timeout_sec = {WEEK + 0.5}",
        "memory_mb = 6": "memory_mb = 5",
        'storage = "16T"': 'storage = "16385G"',
        "artifacts_max_mb = 1048576": "artifacts_max_mb = 1048577",
    }
    for at, past in beyond.items():
        (task.path / "task.toml").write_text(textwrap.dedent(toml).replace(at, past, 1))
        assert _errors(task.path), past


@pytest.mark.parametrize("dirname", ["has space", "-dash", "x'y", "tab\there"])
def test_a_bad_directory_name_without_task_name_is_a_problem(tmp_path: Path, dirname: str) -> None:
    task = write_task(tmp_path, dirname, toml="[agent]\ntimeout_sec = 60\n")
    errors = _errors(task)
    assert [(p.task, p.file, p.field) for p in errors] == [(dirname, "task.toml", "[task].name")]
    assert f"directory's name {dirname!r}" in errors[0].message
    # a good [task].name makes the directory's name irrelevant
    (task / "task.toml").write_text('[task]\nname = "fine"\n')
    assert load_task(task).name == "fine"


def test_a_task_given_as_dot_is_named_by_its_resolved_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`forge-env check .` inside a task: the default name is the directory's, checked as such."""
    write_task(tmp_path, "a..b", toml="")  # dots inside a name are fine
    monkeypatch.chdir(tmp_path / "a..b")
    assert load_task(Path(".")).name == "a..b"
    write_task(tmp_path, "not ok", toml="")
    monkeypatch.chdir(tmp_path / "not ok")
    errors = _errors(Path("."))
    assert [(p.task, p.field) for p in errors] == [("not ok", "[task].name")]


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe\x00\x01binary", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", b"text, then a NUL\x00byte\n"],
)
def test_binary_instruction_is_a_named_problem(tmp_path: Path, content: bytes) -> None:
    task = write_task(tmp_path, "bin")
    (task / "instruction.md").write_bytes(content)
    errors = _errors(task)
    assert [str(p).split(": is not")[0] for p in errors] == ["task 'bin': instruction.md"], errors
    assert errors[0].message.startswith("is not UTF-8 text")


@pytest.mark.parametrize("content", [b"\xff\xfe\x00\x01binary", b"[task]\nname = 'x\x00'\n"])
def test_binary_task_toml_is_a_named_problem(tmp_path: Path, content: bytes) -> None:
    task = write_task(tmp_path, "bin")
    (task / "task.toml").write_bytes(content)
    errors = _errors(task)
    assert [(p.task, p.file) for p in errors] == [("bin", "task.toml")], errors
    assert errors[0].message.startswith("is not UTF-8 text")


def test_engine_limits_are_checked_when_given(tmp_path: Path) -> None:
    task = write_task(
        tmp_path, "big", toml='[task]\nname = "big"\n[environment]\ncpus = 4\nmemory_mb = 8192\n'
    )
    assert load_task(task, EngineLimits(cpus=4, memory_mb=8192)).config.environment.cpus == 4
    assert load_task(task).name == "big"  # no limits: only the static bounds
    errors = _errors(task, EngineLimits(cpus=2, memory_mb=4096))
    assert [(p.file, p.field) for p in errors] == [
        ("task.toml", "[environment].cpus"),
        ("task.toml", "[environment].memory_mb"),
    ]
    assert "4 CPUs" in errors[0].message and "engine has 2" in errors[0].message
    assert "8192 MiB" in errors[1].message and "engine has 4096 MiB" in errors[1].message


def test_engine_limits_from_docker_info() -> None:
    limits = EngineLimits.from_info({"NCPU": 8, "MemTotal": 16 * 1024**3 + 5})
    assert limits == EngineLimits(cpus=8, memory_mb=16384)
    assert EngineLimits.from_info({"NCPU": 8}) is None
    assert EngineLimits.from_info({"NCPU": 0, "MemTotal": 1}) is None


def test_engine_limits_are_none_without_an_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    assert engine_limits() is None


def test_anything_unexpected_while_inspecting_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("something nobody expected")

    task = write_task(tmp_path, "odd")
    monkeypatch.setattr(TaskConfig, "model_validate", explode)
    errors = _errors(task)
    assert [(p.task, p.file) for p in errors] == [("odd", "task.toml")]
    assert "RuntimeError: something nobody expected" in errors[0].message
    with pytest.raises(TaskLoadError, match=r"task 'odd': task\.toml: could not be checked"):
        load_task(task)
