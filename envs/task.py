"""A task on disk: the Harbor / Terminal-Bench 2 layout, loaded and checked.

my-task/
  task.toml              TaskConfig
  instruction.md         what the agent is told
  environment/           Docker build context (Dockerfile + files); the only thing in the image
  tests/test.sh          hidden tests; write /logs/verifier/reward.txt or reward.json
  solution/solve.sh      reference solution (the gate's oracle run)

Harbor's multi-step tasks (`[[steps]]` in task.toml) add, per step, `steps/<name>/instruction.md` (the
root instruction.md is then ignored, as Harbor ignores it) and optionally `steps/<name>/tests/`,
`steps/<name>/solution/` and `steps/<name>/workdir/` (which may hold setup.sh). A separate verifier
(`[verifier] environment_mode = "separate"` or `[verifier.environment]`) runs the tests in an image built
from `tests/` (its Dockerfile), which holds /tests/test.sh itself.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ValidationError

from envs.engine_limits import EngineLimits
from envs.errors import TaskError, TaskLoadError, TaskNotInCatalog
from envs.task_config import (
    EnvironmentSection,
    StepSection,
    TaskConfig,
    VerifierSandbox,
    check_task_name,
    separate_verifier,
)

TASK_TOML = "task.toml"
INSTRUCTION = "instruction.md"
ENVIRONMENT_DIR = "environment"
DOCKERFILE = "environment/Dockerfile"
TEST_SCRIPT = "tests/test.sh"
SOLUTION_SCRIPT = "solution/solve.sh"
STEPS_DIR = "steps"
VERIFIER_DOCKERFILE = "tests/Dockerfile"
COMPOSE_FILES = ("docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml")
"""Compose files Harbor (or `docker compose`) would layer over the main service to add sidecars."""


class Problem(BaseModel):
    """One thing wrong with a task, as `forge-env check` lists it."""

    task: str
    file: str
    field: str | None = None
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.file}: {self.field}" if self.field else self.file
        return f"task '{self.task}': {where}: {self.message}"


def task_slug(name: str) -> str:
    """A task name as one safe path component: Harbor's `org/name` becomes `org__name`."""
    return name.replace("/", "__")


def _dir_or_none(path: Path) -> Path | None:
    return path if path.is_dir() else None


@dataclass(frozen=True)
class TaskStep:
    """One step of a Harbor multi-step task, as loaded: its instruction is read, its folders found."""

    name: str
    instruction: str
    path: Path
    """The task's `steps/<name>`."""
    config: StepSection

    @property
    def tests_dir(self) -> Path | None:
        """`steps/<name>/tests`, uploaded over the task's tests/ for this step's verification (Harbor)."""
        return _dir_or_none(self.path / "tests")

    @property
    def test_script(self) -> Path | None:
        """This step's own test.sh, which wins over the task's tests/test.sh."""
        script = self.path / TEST_SCRIPT
        return script if script.is_file() else None

    @property
    def solution_dir(self) -> Path | None:
        """`steps/<name>/solution`, which the oracle uses instead of the task's solution/."""
        return _dir_or_none(self.path / "solution")

    @property
    def workdir_dir(self) -> Path | None:
        """`steps/<name>/workdir`: copied into the working directory before the step; may hold setup.sh."""
        return _dir_or_none(self.path / "workdir")

    def agent_timeout(self, task_config: TaskConfig) -> float:
        """The step's own agent timeout, else the task's `[agent].timeout_sec` (Harbor's rule)."""
        own = self.config.agent.timeout_sec
        return own if own is not None else task_config.agent.timeout_sec


@dataclass(frozen=True)
class Task:
    """A loaded, valid task directory."""

    path: Path
    config: TaskConfig
    instruction: str
    """The root instruction.md; empty for a multi-step task (each step has its own, as in Harbor)."""
    steps: tuple[TaskStep, ...] = ()
    """Harbor's `[[steps]]` in order; empty for a one-step task."""

    @property
    def is_multi_step(self) -> bool:
        return bool(self.steps)

    @property
    def separate_verifier(self) -> bool:
        """The tests run in a container of their own, built from tests/ (see envs.task_config)."""
        return separate_verifier(self.config)

    @property
    def verifier_context(self) -> Path:
        """The separate verifier's build context, the task's tests/: its Dockerfile builds the verifier
        image, and that image holds /tests/test.sh itself (Harbor uploads no tests into it)."""
        return self.tests_dir

    @property
    def name(self) -> str:
        return self.config.task.name or self.path.name

    @property
    def slug(self) -> str:
        """The name as one safe path component (Harbor's `org/name` becomes `org__name`): log folders
        and rollout ids are built from it."""
        return task_slug(self.name)

    @property
    def environment_dir(self) -> Path:
        return self.path / ENVIRONMENT_DIR

    @property
    def dockerfile(self) -> Path:
        return self.path / DOCKERFILE

    @property
    def tests_dir(self) -> Path:
        return self.path / "tests"

    @property
    def solution_dir(self) -> Path:
        return self.path / "solution"

    @property
    def has_solution(self) -> bool:
        return (self.path / SOLUTION_SCRIPT).is_file()

    @property
    def image_repository(self) -> str:
        """Docker repository name for this task's image (lower-case, only legal characters)."""
        slug = re.sub(r"[^a-z0-9._-]+", "-", self.name.lower()).strip("-._") or "task"
        return f"openforge/task-{slug}"


_TOP_LEVEL_LISTS = ("steps", "artifacts")


def _field_path(loc: tuple[int | str, ...]) -> str:
    """pydantic's ('agent', 'timeout_sec') -> '[agent].timeout_sec'; ('steps', 0, 'name') ->
    'steps[0].name' (Harbor's top-level lists are not sections)."""
    parts = [str(p) for p in loc]
    if len(loc) >= 2 and loc[0] in _TOP_LEVEL_LISTS and isinstance(loc[1], int):
        return f"{parts[0]}[{parts[1]}]" + "".join(f".{p}" for p in parts[2:])
    if len(parts) >= 2:
        return f"[{parts[0]}].{'.'.join(parts[1:])}"
    return parts[0] if parts else "(top level)"


def _read_text(path: Path) -> str:
    """A text file as str; a ValueError saying why when it is not UTF-8 text (binary, NUL bytes)."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"is not UTF-8 text (byte {exc.start}: {exc.reason}); is it a binary file?") from exc
    if "\0" in text:
        raise ValueError(
            f"is not UTF-8 text (a NUL byte at offset {text.index(chr(0))}); is it a binary file?"
        )
    return text


class _Findings:
    """One task's problems, all named after the task (its name is known only once task.toml is read)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.problems: list[Problem] = []
        self.reading = "."
        """The file being read, named if something unexpected is raised."""
        self.multi_step = False
        """task.toml declares `[[steps]]`: known even when it does not validate, so that the root
        instruction.md (which Harbor ignores then) is not asked for."""

    def add(self, file: str, message: str, field: str | None = None, severity: str = "error") -> None:
        self.problems.append(
            Problem(task=self.name, file=file, field=field, message=message, severity=severity)
        )

    def rename(self, name: str) -> None:
        self.name = name
        for p in self.problems:
            p.task = name

    @property
    def has_errors(self) -> bool:
        return any(p.severity == "error" for p in self.problems)


def inspect_task(path: Path, limits: EngineLimits | None = None) -> tuple[Task | None, list[Problem]]:
    """Load a task and collect every problem found, not just the first.

    `limits` (from envs.engine_limits.engine_limits()) adds the engine check: a task asking for more
    CPUs or memory than the engine has could never start. Anything unexpected while reading the task
    is a Problem too, so one odd directory never stops a whole catalog. Returns the task when nothing
    is an error (warnings allowed), else None.
    """
    path = Path(path)
    found = _Findings(path.name or str(path))
    try:
        found.name = path.resolve().name or str(path)
        return _inspect(path, limits, found), found.problems
    except Exception as exc:  # any failure is this task's problem, not the whole run's
        found.add(found.reading, f"could not be checked: {type(exc).__name__}: {exc}")
        return None, found.problems


def _read_config(path: Path, found: _Findings) -> TaskConfig | None:
    toml_path = path / TASK_TOML
    found.reading = TASK_TOML
    if not toml_path.is_file():
        found.add(TASK_TOML, "missing (every task needs a task.toml)")
        return None
    try:
        raw = tomllib.loads(_read_text(toml_path))
    except tomllib.TOMLDecodeError as exc:
        found.add(TASK_TOML, f"not valid TOML: {exc}")
        return None
    except ValueError as exc:
        found.add(TASK_TOML, str(exc))
        return None
    found.multi_step = bool(raw.get("steps"))
    try:
        config = TaskConfig.model_validate(raw)
    except ValidationError as exc:
        for err in exc.errors():
            got = err.get("input")
            tables = isinstance(got, dict) or (
                isinstance(got, list) and any(isinstance(g, dict) for g in got)
            )
            shown = f" (got {got!r})" if not tables else ""  # a whole table would bury the message
            message = err["msg"].removeprefix("Value error, ")
            found.add(TASK_TOML, f"{message}{shown}", field=_field_path(err["loc"]))
        return None
    if config.task.name:
        found.rename(config.task.name)
    else:
        default = path.resolve().name
        try:
            check_task_name(default)
        except ValueError as exc:
            found.add(
                TASK_TOML,
                f"not set, and the directory's name {default!r} (the default) {exc}; "
                "rename the directory or set [task].name",
                field="[task].name",
            )
    return config


def _check_engine_limits(config: TaskConfig, limits: EngineLimits, found: _Findings) -> None:
    env = config.environment
    if env.cpus > limits.cpus:
        found.add(
            TASK_TOML,
            f"asks for {env.cpus:g} CPUs but the engine has {limits.cpus:g} (docker info: NCPU)",
            field="[environment].cpus",
        )
    if env.memory_mb > limits.memory_mb:
        found.add(
            TASK_TOML,
            f"asks for {env.memory_mb} MiB but the engine has {limits.memory_mb} MiB (docker info: MemTotal)",
            field="[environment].memory_mb",
        )


def _read_instruction(path: Path, rel: str, found: _Findings, why: str) -> str:
    """An instruction file's text, or "" with its problem named (missing, not UTF-8, empty)."""
    found.reading = rel
    if not (path / rel).is_file():
        found.add(rel, f"missing ({why})")
        return ""
    try:
        text = _read_text(path / rel)
    except ValueError as exc:
        found.add(rel, str(exc))
        return ""
    if not text.strip():
        found.add(rel, "is empty")
    return text


def _inspect(path: Path, limits: EngineLimits | None, found: _Findings) -> Task | None:
    if not path.is_dir():
        found.add(str(path), "not a directory")
        return None

    config = _read_config(path, found)
    if config is not None and limits is not None:
        _check_engine_limits(config, limits, found)
    if config is not None and config.environment.os == "windows":
        found.add(
            TASK_TOML,
            "is 'windows': Windows tasks cannot run here (OpenForge runs Linux containers); "
            "the task is refused",
            field="[environment].os",
        )
        return None

    step_configs = (config.steps or []) if config is not None else []
    instruction = ""
    if not found.multi_step:
        instruction = _read_instruction(path, INSTRUCTION, found, "the agent needs an instruction")
    steps = _inspect_steps(path, step_configs, found)

    found.reading = "."
    prebuilt = config is not None and config.environment.docker_image
    if not (path / DOCKERFILE).is_file() and not prebuilt:
        found.add(DOCKERFILE, "missing (and no [environment].docker_image is set)")
    for compose in COMPOSE_FILES:
        if (path / ENVIRONMENT_DIR / compose).is_file():
            found.add(
                f"{ENVIRONMENT_DIR}/{compose}",
                "compose sidecar services are not supported yet; the task is refused "
                "(OpenForge runs only the main container, so the services it declares would be missing)",
            )
    if config is not None and separate_verifier(config):
        _check_separate_verifier(path, config, steps, found)
    else:
        _check_test_scripts(path, steps, found)
    _check_solutions(path, steps, found)
    for leak in ("tests", "solution"):
        if (path / ENVIRONMENT_DIR / leak).exists():
            found.add(
                f"{ENVIRONMENT_DIR}/{leak}",
                f"the build context holds a '{leak}' directory; hidden {leak} must live beside environment/",
                severity="warning",
            )
    if config is not None:
        _harbor_warnings(config, found)

    if config is None or found.has_errors:
        return None
    return Task(path=path.resolve(), config=config, instruction=instruction, steps=tuple(steps))


def _inspect_steps(path: Path, configs: list[StepSection], found: _Findings) -> list[TaskStep]:
    """Each declared step's folder and instruction (Harbor refuses a step without them)."""
    steps = []
    for index, step in enumerate(configs):
        rel = f"{STEPS_DIR}/{step.name}"
        found.reading = rel
        if not (path / rel).is_dir():
            found.add(rel, f"missing (steps[{index}] is named {step.name!r}; its instruction.md lives here)")
            continue
        text = _read_instruction(path, f"{rel}/{INSTRUCTION}", found, "each step needs its instruction")
        for key in ("environment", "environment_mode"):
            if key in (step.verifier.model_extra or {}):
                found.add(
                    TASK_TOML,
                    "a per-step verifier environment is not supported yet; the task is refused "
                    "(use the task's [verifier.environment])",
                    field=f"steps[{index}].verifier.{key}",
                )
        steps.append(TaskStep(name=step.name, instruction=text, path=(path / rel).resolve(), config=step))
    return steps


def _check_test_scripts(path: Path, steps: list[TaskStep], found: _Findings) -> None:
    """Shared mode: the root tests/test.sh, unless every step has its own (Harbor's rule)."""
    if (path / TEST_SCRIPT).is_file():
        return
    without = [step.name for step in steps if step.test_script is None]
    if not steps:
        found.add(
            TEST_SCRIPT, "missing (the hidden tests must write /logs/verifier/reward.txt or reward.json)"
        )
    elif without:
        listed = ", ".join(f"{STEPS_DIR}/{name}/{TEST_SCRIPT}" for name in without)
        found.add(TEST_SCRIPT, f"missing, and so is {listed} (each step needs a test script)")


def _check_separate_verifier(path: Path, config: TaskConfig, steps: list[TaskStep], found: _Findings) -> None:
    """A separate verifier's image comes from tests/ (its Dockerfile) or `[verifier.environment]`'s
    prebuilt image; it holds its own /tests, so no test.sh is required here (as in Harbor)."""
    env = config.verifier.environment
    if not (path / VERIFIER_DOCKERFILE).is_file() and not (env is not None and env.docker_image):
        found.add(
            VERIFIER_DOCKERFILE,
            "missing: the tests run in a separate verifier environment ([verifier] environment_mode = "
            "'separate' or [verifier.environment]) whose image is built from tests/ "
            "(or set [verifier.environment].docker_image)",
        )
    for compose in COMPOSE_FILES:
        if (path / "tests" / compose).is_file():
            found.add(
                f"tests/{compose}",
                "compose sidecar services are not supported yet (for the verifier either); "
                "the task is refused",
            )
    for step in steps:
        if step.tests_dir is not None:
            found.add(
                f"{STEPS_DIR}/{step.name}/tests",
                "with a separate verifier, Harbor builds this step's verifier image from this folder; "
                "per-step verifier images are not supported yet, so the task is refused",
            )


def _check_solutions(path: Path, steps: list[TaskStep], found: _Findings) -> None:
    """The gate's oracle needs a solution: the root one, or (multi-step) each step's own."""
    if (path / SOLUTION_SCRIPT).is_file():
        return
    without = [s.name for s in steps if not (s.path / SOLUTION_SCRIPT).is_file()]
    if not steps:
        found.add(
            SOLUTION_SCRIPT, "missing (the verification gate needs a reference solution)", severity="warning"
        )
    elif without:
        listed = ", ".join(f"{STEPS_DIR}/{name}/{SOLUTION_SCRIPT}" for name in without)
        found.add(
            SOLUTION_SCRIPT,
            f"missing, and so is {listed} (the verification gate needs a reference solution for each step)",
            severity="warning",
        )


ALLOWLIST_NOT_ENFORCED = (
    "is 'allowlist', which OpenForge cannot enforce (allowed_hosts is not applied): the agent reaches only "
    "its model, and verification has no network unless run with --verifier-network, which gives it the "
    "public network, not only these hosts"
)
AGENT_NETWORK_IGNORED = (
    "is {mode!r}, but the agent phase always reaches only its model in OpenForge (model-only); "
    "this override is not applied"
)


def _harbor_warnings(config: TaskConfig, found: _Findings) -> None:
    """Harbor features OpenForge runs differently or not at all: each named, with what happens instead."""

    def warn(field: str, message: str) -> None:
        found.add(TASK_TOML, message, field=field, severity="warning")

    envs: list[tuple[str, EnvironmentSection]] = [("[environment]", config.environment)]
    if config.verifier.environment is not None:
        envs.append(("[verifier].environment", config.verifier.environment))
    for label, env in envs:
        if env.network_mode == "allowlist":
            warn(f"{label}.network_mode", ALLOWLIST_NOT_ENFORCED)
    if config.verifier.network_mode == "allowlist":
        warn("[verifier].network_mode", ALLOWLIST_NOT_ENFORCED)
    if config.agent.network_mode is not None:
        warn("[agent].network_mode", AGENT_NETWORK_IGNORED.format(mode=config.agent.network_mode))
    env = config.environment
    if env.mcp_servers:
        names = ", ".join(repr(s.get("name", "?")) for s in env.mcp_servers)
        warn(
            "[environment].mcp_servers",
            f"declares {len(env.mcp_servers)} MCP server(s) ({names}); they are not given to the harnesses, "
            "so the agent runs without them",
        )
    if env.skills_dir is not None:
        warn(
            "[environment].skills_dir",
            f"is {env.skills_dir!r}; its skills are not copied into the harnesses' skill folders "
            "(the files stay where the image has them)",
        )
    if env.gpus:
        warn(
            "[environment].gpus",
            f"asks for {env.gpus} GPU(s); the Docker backend gives the sandbox none, "
            "so the task runs without one",
        )
    if "tpu" in (env.model_extra or {}):
        warn("[environment].tpu", "is not supported; the sandbox gets no TPU")
    for index, artifact in enumerate(config.artifacts):
        if artifact.exclude:
            warn(
                f"artifacts[{index}].exclude",
                f"is not applied: all of {artifact.source} is carried into the verifier's sandbox",
            )
        if artifact.destination is not None:
            warn(
                f"artifacts[{index}].destination",
                f"is not used: {artifact.source} is carried into the verifier's sandbox at its own path, "
                "and no artifacts folder is kept with the rollout",
            )
    if "collect" in (config.verifier.model_extra or {}):
        warn("[verifier].collect", "Harbor's collect commands are not run before verification")
    if (
        separate_verifier(config)
        and "sandbox" in config.verifier.model_fields_set
        and config.verifier.sandbox is VerifierSandbox.AGENT
    ):
        warn("[verifier].sandbox", "is 'agent', but a separate verifier runs in its own container; ignored")
    for index, step in enumerate(config.steps or []):
        agent_mode = (step.agent.model_extra or {}).get("network_mode")
        if agent_mode is not None:
            warn(f"steps[{index}].agent.network_mode", AGENT_NETWORK_IGNORED.format(mode=agent_mode))
        if (step.verifier.model_extra or {}).get("network_mode") is not None:
            warn(
                f"steps[{index}].verifier.network_mode",
                "is not applied per step: every step's verification gets what the task declares "
                "([verifier].network_mode or [environment])",
            )
        if (step.model_extra or {}).get("artifacts"):
            warn(
                f"steps[{index}].artifacts",
                "per-step artifacts are not collected (nor given to a separate verifier)",
            )


def load_task(path: Path | str, limits: EngineLimits | None = None) -> Task:
    """Load one task or raise TaskLoadError naming the task, file and field of the first error."""
    task, problems = inspect_task(Path(path), limits)
    if task is None:
        first = next(p for p in problems if p.severity == "error")
        raise TaskLoadError(first.task, first.file, first.message, field=first.field)
    return task


def is_task_dir(path: Path) -> bool:
    return (path / TASK_TOML).is_file()


def find_task_dirs(root: Path | str) -> list[Path]:
    """A task directory itself, or every task directory below a catalog, sorted."""
    root = Path(root)
    if is_task_dir(root):
        return [root]
    return sorted(
        p.parent for p in root.rglob(TASK_TOML) if not any(part.startswith(".") for part in p.parts)
    )


def resolve_task_dirs(paths: Iterable[Path], catalog: Path | None) -> list[Path]:
    """CLI helper: explicit task dirs plus every task of --catalog, de-duplicated, in order."""
    found: list[Path] = []
    for p in [*paths, *([catalog] if catalog is not None else [])]:
        below = find_task_dirs(p)
        if not below:
            raise TaskLoadError(Path(p).name, str(p), "no task.toml here or in any folder below")
        found.extend(below)
    seen: set[Path] = set()
    unique = []
    for p in found:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


def load_catalog(catalog: Path | str, names: Sequence[str] = ()) -> list[Task]:
    """The tasks of a catalog (or one task directory), only `names` when given, in their order.

    The one loader behind every `--catalog DIR --task NAME` option. Raises TaskError for a catalog that
    does not exist or has no task, TaskLoadError for a task that does not load, TaskNotInCatalog for a
    name it does not have (the error lists the names it has).
    """
    root = Path(catalog)
    if not root.exists():
        raise TaskError(f"catalog {root} does not exist")
    tasks = [load_task(d) for d in find_task_dirs(root)]
    if not tasks:
        raise TaskError(f"no tasks in {root} (no task.toml there or in any folder below)")
    if not names:
        return tasks
    known = {t.name: t for t in tasks}
    if missing := [n for n in names if n not in known]:
        raise TaskNotInCatalog(missing[0], str(root), list(known))
    return [known[n] for n in names]


_TEMPLATE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def resolve_env(
    task: Task, env: Mapping[str, str], section: str, host: Mapping[str, str] | None = None
) -> dict[str, str]:
    """Fill `${VAR}` / `${VAR:-default}` in env values from the host's environment (Harbor's syntax)."""
    host = os.environ if host is None else host
    resolved = {}
    for key, value in env.items():

        def fill(match: re.Match[str], key: str = key) -> str:
            name, default = match.group(1), match.group(2)
            found = host.get(name)
            if found:
                return found
            if default is not None:
                return default
            raise TaskLoadError(
                task.name,
                TASK_TOML,
                f"needs ${{{name}}} from the host environment, which is not set",
                field=f"[{section}].env.{key}",
            )

        resolved[key] = _TEMPLATE.sub(fill, value)
    return resolved
