"""Every error envs/ raises, in one place.

    EnvsError
    ├── TaskError                  a task directory or task.toml is wrong
    │   ├── TaskLoadError          ...named by task, file and field
    │   └── TaskNotInCatalog       a task asked for by name that the catalog does not have
    ├── ImageError
    │   ├── BaseImageError         the base image could not be built
    │   ├── VerifierImageMissing   a separate verifier's image is neither built nor buildable here
    │   └── BuildError             a task image failed to build (names the Dockerfile step)
    ├── SandboxError               the sandbox machinery failed (not the agent)
    │   ├── SandboxStartError
    │   │   ├── PreloadError       a preload archive could not be unpacked in it
    │   │   ├── SandboxNotReady    it started but its init never said it was ready
    │   │   ├── ImagePullFailed    the cluster cannot pull the sandbox's image (k8s)
    │   │   ├── PodUnschedulable   no node can take the sandbox's pod (k8s)
    │   │   ├── PodCrashed         a container of the pod exited or crash-looped while starting (k8s)
    │   │   └── PodStartTimeout    the pod did not get ready within the client's deadline (k8s)
    │   ├── ClusterError           the Kubernetes API refused or failed a call (k8s)
    │   ├── NetworkModeError       a network mode was asked for that is not allowed
    │   └── ArchiveTooLarge        a file or folder is bigger than the caller allows
    ├── RewardError                the verifier produced no usable reward
    │   ├── RewardFileMissing
    │   ├── RewardFileEmpty
    │   ├── RewardFileInvalid      not a plain number, out of [verifier] reward_range, too deep
    │   │   └── RewardFileTooLarge
    │   └── VerifierTimeout        the tests ran past their timeout and left no usable reward
    ├── PluginError                a registry name or module:Class target that does not resolve
    │   └── PluginDependencyMissing    ...its module needs a package not installed (envs.plugins)
    └── AgentFault                 what the agent did makes verification impossible: scored as the
        │                          bottom of the reward range, never an infrastructure error
        ├── VerifierTampered       the agent changed the system paths the tests would run on
        ├── SandboxBroken          the verification phase cannot run in the sandbox the agent left
        └── ArtifactsInvalid       the artifacts cannot be copied to the verifier
            └── ArtifactsTooLarge

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


class TaskNotInCatalog(TaskError):
    """A task asked for by name (`--task NAME`) is not in the catalog; says which names it has."""

    def __init__(self, name: str, catalog: str, known: list[str]) -> None:
        self.name, self.catalog, self.known = name, catalog, known
        super().__init__(f"no task {name!r} in {catalog} (it has: {', '.join(sorted(known))})")


class ImageError(EnvsError):
    """An image could not be built or found."""


class BaseImageError(ImageError):
    """The base image could not be built."""


class VerifierImageMissing(ImageError):
    """A verification needs an image of its own (a separate verifier environment) that is not built."""

    def __init__(self, task: str, message: str) -> None:
        self.task = task
        super().__init__(f"task '{task}': {message}")


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


class PreloadError(SandboxStartError):
    """An archive given to be unpacked before the sandbox starts was refused by the engine."""


class SandboxNotReady(SandboxStartError):
    """The container started, but its init did not get ready (or it exited while starting)."""


class ImagePullFailed(SandboxStartError):
    """The cluster cannot pull the sandbox's image (ErrImagePull, ImagePullBackOff, InvalidImageName):
    the image was not pushed (`forge-env build --push REGISTRY`) or the nodes cannot reach the registry."""


class PodUnschedulable(SandboxStartError):
    """The scheduler reports that no node can take the pod (resources, taints, node selectors)."""


class PodCrashed(SandboxStartError):
    """A container of the sandbox's pod (or an init container) ended or crash-looped before it was
    ready: the image's entrypoint fails, or a harness bundle could not be copied."""


class PodStartTimeout(SandboxStartError):
    """The pod was not ready within the client's start deadline (a pod that never starts)."""


class ClusterError(SandboxError):
    """The Kubernetes API refused or failed a call the backend needs (after its retries)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)


class NetworkModeError(SandboxError):
    """A network mode was requested that is unknown or not allowed without opt-in."""


class ArchiveTooLarge(SandboxError):
    """A file or folder read out of a sandbox is bigger than the caller's limit."""


class RewardError(EnvsError):
    """The verifier ran but left no usable reward."""


class RewardFileMissing(RewardError):
    """Neither /logs/verifier/reward.json nor reward.txt exists."""


class RewardFileEmpty(RewardError):
    """The reward file exists but is empty."""


class RewardFileInvalid(RewardError):
    """The reward file is not a number (txt) or not a flat map of numbers (json)."""


class RewardFileTooLarge(RewardFileInvalid):
    """The reward file is bigger than any reward needs (see envs.reward.MAX_REWARD_FILE_BYTES)."""


class VerifierTimeout(RewardError):
    """The tests were killed at their timeout and left no usable reward (the reward file's own error is
    in the message)."""


class AgentFault(EnvsError):
    """The sandbox was healthy when the agent started; what it did makes verification impossible. The
    rollout is scored (the bottom of the reward range) with this class, never dropped or redone."""


class VerifierTampered(AgentFault):
    """The engine's filesystem diff shows the agent changed a system path the tests would run on."""


class SandboxBroken(AgentFault):
    """The verification phase cannot run in the sandbox the agent left (it is gone, or the tests'
    folders cannot be made)."""


class ArtifactsInvalid(AgentFault):
    """The artifacts cannot be copied into the verifier's sandbox."""


class ArtifactsTooLarge(ArtifactsInvalid):
    """The artifacts are bigger than `[verifier] artifacts_max_mb`."""
