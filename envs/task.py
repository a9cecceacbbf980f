"""A task on disk: the Harbor / Terminal-Bench 2 layout, loaded and checked.

my-task/
  task.toml              TaskConfig
  instruction.md         what the agent is told
  environment/           Docker build context (Dockerfile + files); the only thing in the image
  tests/test.sh          hidden tests; write /logs/verifier/reward.txt or reward.json
  solution/solve.sh      reference solution (the gate's oracle run)
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ValidationError

from envs.engine_limits import EngineLimits
from envs.errors import TaskLoadError
from envs.task_config import TaskConfig, check_task_name

TASK_TOML = "task.toml"
INSTRUCTION = "instruction.md"
ENVIRONMENT_DIR = "environment"
DOCKERFILE = "environment/Dockerfile"
TEST_SCRIPT = "tests/test.sh"
SOLUTION_SCRIPT = "solution/solve.sh"


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


@dataclass(frozen=True)
class Task:
    """A loaded, valid task directory."""

    path: Path
    config: TaskConfig
    instruction: str

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


def _field_path(loc: tuple[int | str, ...]) -> str:
    """pydantic's ('agent', 'timeout_sec') -> '[agent].timeout_sec'."""
    parts = [str(p) for p in loc]
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
    try:
        config = TaskConfig.model_validate(raw)
    except ValidationError as exc:
        for err in exc.errors():
            got = err.get("input")
            shown = f" (got {got!r})" if not isinstance(got, dict) else ""
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


def _inspect(path: Path, limits: EngineLimits | None, found: _Findings) -> Task | None:
    if not path.is_dir():
        found.add(str(path), "not a directory")
        return None

    config = _read_config(path, found)
    if config is not None and limits is not None:
        _check_engine_limits(config, limits, found)

    instruction = ""
    found.reading = INSTRUCTION
    if not (path / INSTRUCTION).is_file():
        found.add(INSTRUCTION, "missing (the agent needs an instruction)")
    else:
        try:
            instruction = _read_text(path / INSTRUCTION)
        except ValueError as exc:
            found.add(INSTRUCTION, str(exc))
        else:
            if not instruction.strip():
                found.add(INSTRUCTION, "is empty")

    found.reading = "."
    prebuilt = config is not None and config.environment.docker_image
    if not (path / DOCKERFILE).is_file() and not prebuilt:
        found.add(DOCKERFILE, "missing (and no [environment].docker_image is set)")
    if not (path / TEST_SCRIPT).is_file():
        found.add(
            TEST_SCRIPT, "missing (the hidden tests must write /logs/verifier/reward.txt or reward.json)"
        )
    if not (path / SOLUTION_SCRIPT).is_file():
        found.add(
            SOLUTION_SCRIPT, "missing (the verification gate needs a reference solution)", severity="warning"
        )
    for leak in ("tests", "solution"):
        if (path / ENVIRONMENT_DIR / leak).exists():
            found.add(
                f"{ENVIRONMENT_DIR}/{leak}",
                f"the build context holds a '{leak}' directory; hidden {leak} must live beside environment/",
                severity="warning",
            )

    if config is None or found.has_errors:
        return None
    return Task(path=path.resolve(), config=config, instruction=instruction)


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
