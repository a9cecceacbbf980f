"""Every error envs/ raises, in one place.

    EnvsError
    ├── TaskError                  a task directory or task.toml is wrong
    │   └── TaskLoadError          ...named by task, file and field
    ├── ImageError
    │   ├── BaseImageError         the base image could not be built
    │   └── BuildError             a task image failed to build (names the Dockerfile step)
    ├── SandboxError               the sandbox machinery failed (not the agent)
    │   ├── SandboxStartError
    │   └── NetworkModeError       a network mode was asked for that is not allowed
    └── RewardError                the verifier produced no usable reward
        ├── RewardFileMissing
        ├── RewardFileEmpty
        └── RewardFileInvalid

Docker errors are translated into these at the boundary and chained with ``from exc``.
"""

from __future__ import annotations


class EnvsError(Exception):
    """Base class for everything envs/ raises on purpose."""


class TaskError(EnvsError):
    """A task directory is not a valid task."""


class TaskLoadError(TaskError):
    """A task could not be loaded; says which task, file and field, and what is wrong."""

    def __init__(self, task: str, file: str, message: str, field: str | None = None) -> None:
        self.task = task
        self.file = file
        self.field = field
        self.message = message
        where = f"{file}: {field}" if field else file
        super().__init__(f"task '{task}': {where}: {message}")


class ImageError(EnvsError):
    """An image could not be built or found."""


class BaseImageError(ImageError):
    """The base image could not be built."""


class BuildError(ImageError):
    """A task image failed to build."""

    def __init__(self, task: str, message: str, step: str | None = None, log_path: str | None = None) -> None:
        self.task = task
        self.step = step
        self.log_path = log_path
        text = f"task '{task}': image build failed"
        if step:
            text += f" at {step}"
        text += f": {message}"
        if log_path:
            text += f" (log: {log_path})"
        super().__init__(text)


class SandboxError(EnvsError):
    """The sandbox machinery failed (an infrastructure error, not an agent failure)."""


class SandboxStartError(SandboxError):
    """A sandbox could not be started."""


class NetworkModeError(SandboxError):
    """A network mode was requested that is unknown or not allowed without opt-in."""


class RewardError(EnvsError):
    """The verifier ran but left no usable reward."""


class RewardFileMissing(RewardError):
    """Neither /logs/verifier/reward.json nor reward.txt exists."""


class RewardFileEmpty(RewardError):
    """The reward file exists but is empty."""


class RewardFileInvalid(RewardError):
    """The reward file is not a number (txt) or not a flat map of numbers (json)."""
