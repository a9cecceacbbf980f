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

from envs.errors import TaskLoadError
from envs.task_config import TaskConfig

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


def inspect_task(path: Path) -> tuple[Task | None, list[Problem]]:
    """Load a task and collect every problem found, not just the first.

    Returns the task when nothing is an error (warnings allowed), else None.
    """
    path = Path(path)
    name = path.name
    problems: list[Problem] = []

    def problem(file: str, message: str, field: str | None = None, severity: str = "error") -> None:
        problems.append(Problem(task=name, file=file, field=field, message=message, severity=severity))

    if not path.is_dir():
        problem(str(path), "not a directory")
        return None, problems

    config: TaskConfig | None = None
    toml_path = path / TASK_TOML
    if not toml_path.is_file():
        problem(TASK_TOML, "missing (every task needs a task.toml)")
    else:
        try:
            raw = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            problem(TASK_TOML, f"not valid TOML: {exc}")
        else:
            try:
                config = TaskConfig.model_validate(raw)
            except ValidationError as exc:
                for err in exc.errors():
                    got = err.get("input")
                    shown = f" (got {got!r})" if not isinstance(got, dict) else ""
                    problem(TASK_TOML, f"{err['msg']}{shown}", field=_field_path(err["loc"]))
    if config is not None and config.task.name:
        name = config.task.name
        for p in problems:
            p.task = name

    instruction = ""
    if not (path / INSTRUCTION).is_file():
        problem(INSTRUCTION, "missing (the agent needs an instruction)")
    else:
        instruction = (path / INSTRUCTION).read_text(encoding="utf-8")
        if not instruction.strip():
            problem(INSTRUCTION, "is empty")

    prebuilt = config is not None and config.environment.docker_image
    if not (path / DOCKERFILE).is_file() and not prebuilt:
        problem(DOCKERFILE, "missing (and no [environment].docker_image is set)")
    if not (path / TEST_SCRIPT).is_file():
        problem(TEST_SCRIPT, "missing (the hidden tests must write /logs/verifier/reward.txt or reward.json)")
    if not (path / SOLUTION_SCRIPT).is_file():
        problem(
            SOLUTION_SCRIPT, "missing (the verification gate needs a reference solution)", severity="warning"
        )
    for leak in ("tests", "solution"):
        if (path / ENVIRONMENT_DIR / leak).exists():
            problem(
                f"{ENVIRONMENT_DIR}/{leak}",
                f"the build context holds a '{leak}' directory; hidden {leak} must live beside environment/",
                severity="warning",
            )

    if config is None or any(p.severity == "error" for p in problems):
        return None, problems
    return Task(path=path.resolve(), config=config, instruction=instruction), problems


def load_task(path: Path | str) -> Task:
    """Load one task or raise TaskLoadError naming the task, file and field of the first error."""
    task, problems = inspect_task(Path(path))
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
