"""The images a verification runs on, other than the task image.

A separate verifier (Harbor's `[verifier] environment_mode = "separate"` or `[verifier.environment]`) runs
the tests in an image of its own, built from the task's `tests/` (its Dockerfile) and cached by content
hash exactly as task images are (envs.image_builder), or `[verifier.environment].docker_image` as it is.

A prepared verifier image is for machines without a network. Terminal-Bench 2's test.sh files install
their runner when they run (`apt-get install`, uv's installer, `uvx pytest`), which a verification with
network `none` cannot. `forge-env build --prepare-verifier` runs test.sh once, with the host network (the
explicit opt-in of whoever runs it), in a container of the image the tests will run on: no agent and no
solution, so the tests fail and their exit code and reward are ignored; what they installed stays. The
container, less /tests and /logs/verifier, is committed as `<image>-verifier`, labelled with the image id
and the tests' hash, so a changed task is never verified on a stale layer (`prepared_verifier_image`).
A verification on it gets PREPARED_ENV, so the installers use what is there instead of the network.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import docker
import docker.errors
from docker.models.images import Image
from pydantic import BaseModel

from envs import labels
from envs.content_hash import hash_directory
from envs.docker_client import docker_client
from envs.docker_sandbox import RUN_DIR, DockerSandbox
from envs.errors import BuildError
from envs.image_builder import BuildContext, build_image
from envs.reward import VERIFIER_DIR
from envs.sandbox import ExecResult, SandboxSpec
from envs.task import Task, TaskStep, resolve_env
from envs.task_config import EnvironmentSection, NetworkMode, VerifierSandbox, verifier_network_declared
from envs.verifier import VerifyOptions

VERIFIER_REPOSITORY_PREFIX = "openforge/verifier-"
PREPARED_SUFFIX = "-verifier"
TESTS_DIR = "/tests"
HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
CA_TARGET = "/opt/forge/host-ca.crt"
"""Where the host's CA bundle is copied during preparation, beside our sandbox files, and removed before
the commit. Not mounted: the engine would commit the mount point as a VOLUME over an empty file, and
no sandbox could then start from the image ("cannot mount volume over existing file")."""
OUTPUT_TAIL = 8_000
APT_OFFLINE_CONF = "/opt/forge/apt-offline.conf"
"""Left in a prepared image: its /etc/apt/apt.conf (if any) and `Acquire::Retries "0"`, which PREPARED_ENV's
APT_CONFIG names."""

PREPARED_ENV: dict[str, str] = {
    "APT_CONFIG": APT_OFFLINE_CONF,
    "UV_OFFLINE": "1",
    "PIP_NO_INDEX": "1",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    "npm_config_offline": "true",
}
"""What a verification on a prepared image (and only there: APT_CONFIG names a file in it) gets, so
installers use what preparation left instead of the network, where each request would fail or hang:

- APT_CONFIG: apt's main config file (in place of /etc/apt/apt.conf, whose lines it holds; apt.conf.d/
  is still read) with no retries: offline `apt-get update` fails in 0.3 s instead of 7 s of back-off and
  keeps the lists it had; `apt-get install` of what preparation installed is then a no-op.
- UV_OFFLINE: uv (`uv pip`, `uv run`, `uvx`, `uv python`) uses only its cache and installed Pythons, so
  `uvx -w pytest==8.4.1 pytest` runs from the warm cache.
- PIP_NO_INDEX: pip never asks an index; what is installed already satisfies `pip install pytest`.
- PIP_DISABLE_PIP_VERSION_CHECK: pip's check for a newer pip is one more request.
- npm_config_offline: npm and npx answer from their cache (npm's `--offline`)."""

_CA_ENV = ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "PIP_CERT", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS")
"""Set to the host's CA bundle during preparation: registries are reached here through an intercepting
proxy whose CA only the host trusts (OpenSSL and uv read SSL_CERT_FILE, requests REQUESTS_CA_BUNDLE, pip
PIP_CERT, curl CURL_CA_BUNDLE, node NODE_EXTRA_CA_CERTS). Given to the exec only, never committed."""

_SANDBOX_IDENTITY = (labels.RUN, labels.ROLE, labels.OWNER, labels.CREATED)
"""The preparing container's labels the engine would copy onto the committed image: emptied there, so a
container someone starts from it is not taken for a leftover of our (dead) process."""


class PreparedVerifier(BaseModel):
    """What one preparation did. The tests' exit code and output are for the log: they were expected to
    fail (no solution was applied)."""

    image: str
    image_id: str
    duration_sec: float
    exit_code: int | None
    timed_out: bool = False
    output_tail: str = ""


def _client(client: docker.DockerClient | None) -> docker.DockerClient:
    return client if client is not None else docker_client()


def _verifier_environment(task: Task) -> EnvironmentSection:
    """The environment the verification runs in: `[verifier.environment]` for a separate verifier that
    has one, else `[environment]` (Harbor copies it)."""
    own = task.config.verifier.environment
    return own if task.separate_verifier and own is not None else task.config.environment


def separate_verifier_image(task: Task, client: docker.DockerClient | None = None) -> str:
    """The separate verifier's image: `[verifier.environment].docker_image` as it is, else
    `openforge/verifier-<slug>:<hash of tests/>`, built unless that tag exists (envs.image_builder).
    Raises BuildError when the task has no separate verifier or its build fails."""
    if not task.separate_verifier:
        raise BuildError(task.name, "the task has no separate verifier environment")
    own = task.config.verifier.environment
    if own is not None and own.docker_image:
        return own.docker_image
    context = BuildContext(
        directory=task.verifier_context,
        repository=task.image_repository.replace("openforge/task-", VERIFIER_REPOSITORY_PREFIX, 1),
        build_timeout_sec=_verifier_environment(task).build_timeout_sec,
    )
    if not context.dockerfile.is_file():
        raise BuildError(task.name, f"the separate verifier needs {context.dockerfile} (or a docker_image)")
    result = build_image(_client(client), task, context=context)
    if not result.ok or result.tag is None:
        raise BuildError(task.name, f"the separate verifier's image did not build: {result.error}")
    return result.tag


def prepared_tag(image: str) -> str:
    """`<repo>:<tag>-verifier` (`:latest` when `image` names no tag)."""
    repo, at, digest = image.partition("@")
    if at:
        return f"{repo}:{digest.rsplit(':', 1)[-1][:16]}{PREPARED_SUFFIX}"
    name, colon, tag = image.rpartition(":")
    if not colon or "/" in tag:
        return f"{image}:latest{PREPARED_SUFFIX}"
    return f"{name}:{tag}{PREPARED_SUFFIX}"


def hash_of_tests(task: Task) -> str:
    """What the preparation depends on besides the image: tests/ and each step's tests/, and the
    [verifier] user and env of the task and of each step (as written, so no host value is hashed) that
    each test.sh ran with."""
    verifier = task.config.verifier
    extra = {f"env.{key}": value for key, value in verifier.env.items()} | {"user": verifier.user or ""}
    for step in task.steps:
        own = step.config.verifier
        prefix = f"step.{step.name}."
        extra |= {f"{prefix}env.{key}": value for key, value in own.env.items()}
        extra |= {f"{prefix}user": own.user or ""}
        extra |= {f"{prefix}tests": hash_directory(step.tests_dir) if step.tests_dir is not None else ""}
    return hash_directory(task.tests_dir, extra=extra)


def prepared_verifier_image(task: Task, image: str, client: docker.DockerClient | None = None) -> str | None:
    """The prepared image for `image`, when it exists and was made from this very image and these tests;
    None otherwise (then the verification runs on `image` itself)."""
    engine = _client(client)
    try:
        prepared = engine.images.get(prepared_tag(image))
        source = engine.images.get(image)
    except docker.errors.ImageNotFound:
        return None
    found = prepared.labels
    if found.get(labels.VERIFIER_TASK_IMAGE) != source.id or found.get(
        labels.VERIFIER_TESTS_HASH
    ) != hash_of_tests(task):
        return None
    return prepared_tag(image)


def _tail(stdout: str, stderr: str) -> str:
    text = stdout + (f"\n[stderr]\n{stderr}" if stderr else "")
    return text[-OUTPUT_TAIL:]


def prepare_verifier_image(
    task: Task, image: str, client: docker.DockerClient | None = None, timeout: float | None = None
) -> PreparedVerifier:
    """Run tests/test.sh once in a container of `image` with the host network, as root (or [verifier].user)
    in the verification's working directory, and commit what it installed as `prepared_tag(image)`. A
    multi-step task's tests run once per step, in order, each as that step's verification puts them
    together (the task's tests/ with the step's over them) and with the step's user, env and timeout.

    `timeout` defaults to `[verifier].timeout_sec`; a run that reaches it is still committed (what was
    installed by then is kept; the tests may have hung on the unsolved task). The container is removed
    whatever happens, Ctrl-C included. Raises BuildError when `image` is missing or the commit fails."""
    engine = _client(client)
    started = time.monotonic()
    try:
        source = engine.images.get(image)
    except docker.errors.ImageNotFound:
        raise BuildError(task.name, f"image {image} is not here to prepare the verifier on") from None
    verifier = task.config.verifier
    environment = _verifier_environment(task)
    digest = hash_of_tests(task)
    env = resolve_env(task, environment.env, "environment") | resolve_env(task, verifier.env, "verifier")
    spec = SandboxSpec(
        image=image,
        network=NetworkMode.HOST,
        allow_host_network=True,  # the opt-in of whoever runs `forge-env build --prepare-verifier`
        cpus=environment.cpus,
        memory_mb=environment.memory_mb,
        storage_mb=environment.storage_mb,
        workdir=None,  # the commit keeps the container's WORKDIR: it must stay the image's
        task=task.name,
        role="prepare-verifier",
    )
    with_ca = HOST_CA_BUNDLE.is_file()
    if with_ca:
        env |= dict.fromkeys(_CA_ENV, CA_TARGET)
    sandbox = DockerSandbox(spec, client=engine)
    with sandbox:
        if with_ca:
            sandbox.upload(HOST_CA_BUNDLE, CA_TARGET)
        baked = sandbox.exec(["test", "-e", f"{TESTS_DIR}/test.sh"]).exit_code == 0
        runs: list[ExecResult] = []
        steps: list[TaskStep | None] = [None] if baked else [*task.steps] or [None]
        for step in steps:
            if not baked:  # a separate verifier's image holds its own /tests (Harbor uploads none)
                _upload_tests(sandbox, task, step)
            sandbox.make_dir(VERIFIER_DIR, mode=0o777)
            own = step.config.verifier if step is not None else None
            runs.append(
                sandbox.exec(
                    ["/bin/bash", f"{TESTS_DIR}/test.sh"],
                    timeout=timeout if timeout is not None else (own or verifier).timeout_sec,
                    env=env | (resolve_env(task, own.env, "verifier") if own is not None else {}),
                    workdir=environment.workdir,
                    user=(own.user if own is not None else None) or verifier.user or "root",
                )
            )
            sandbox.kill_strays()  # no server the tests started may run (half-written) into the commit
        remove = [VERIFIER_DIR, CA_TARGET, RUN_DIR] + ([] if baked else [TESTS_DIR])  # init.sh remakes them
        cleaned = sandbox.exec(
            f"rm -rf {' '.join(remove)} && {{ cat /etc/apt/apt.conf 2>/dev/null; "
            f"echo 'Acquire::Retries \"0\";'; }} > {APT_OFFLINE_CONF}",
            user="root",
        )
        if not cleaned.ok:
            raise BuildError(
                task.name, f"could not clean {' '.join(remove)} up before the commit: {cleaned.stderr}"
            )
        tag = prepared_tag(image)
        committed = _commit(engine, sandbox, task, source, tag, digest)
    return PreparedVerifier(
        image=tag,
        image_id=committed,
        duration_sec=time.monotonic() - started,
        exit_code=runs[-1].exit_code,
        timed_out=any(run.timed_out for run in runs),
        output_tail="".join(_tail(run.stdout, run.stderr) for run in runs)[-OUTPUT_TAIL:],
    )


def _upload_tests(sandbox: DockerSandbox, task: Task, step: TaskStep | None) -> None:
    """/tests as the verification of `step` (or of the task) has it: the task's tests/, the step's over
    them; what an earlier step's tests brought is gone first."""
    sandbox.exec(["rm", "-rf", TESTS_DIR], user="root")
    sandbox.make_dir(TESTS_DIR)
    if task.tests_dir.is_dir():
        sandbox.upload(task.tests_dir, TESTS_DIR)
    if step is not None and step.tests_dir is not None:
        sandbox.upload(step.tests_dir, TESTS_DIR)


def _commit(
    engine: docker.DockerClient, sandbox: DockerSandbox, task: Task, source: Image, tag: str, digest: str
) -> str:
    """Commit the container with the image's own CMD and labels plus ours; the previous prepared image,
    if no other tag holds it, is removed (it can never be used again).

    The engine also keeps the container's `Volumes`, which docker-py fills with every bind's target: the
    image declares VOLUME /opt/forge/sandbox, where every sandbox binds our files anyway."""
    config = source.attrs.get("Config") or {}
    previous = None
    with contextlib.suppress(docker.errors.ImageNotFound):
        previous = engine.images.get(tag).id
    conf: dict[str, object] = {
        "Labels": {
            **(config.get("Labels") or {}),
            **dict.fromkeys(_SANDBOX_IDENTITY, ""),
            labels.MANAGED: "true",
            labels.TASK: task.name,
            labels.VERIFIER_TASK_IMAGE: str(source.id),
            labels.VERIFIER_TESTS_HASH: digest,
        }
    }
    if config.get("Cmd"):
        conf["Cmd"] = config["Cmd"]  # else the engine keeps the container's (our init), as `docker commit`
    repository, _, name = tag.rpartition(":")
    container = sandbox.container
    if container is None:
        raise BuildError(task.name, f"the sandbox preparing {tag} has no container (it was stopped)")
    try:
        image = container.commit(repository=repository, tag=name, conf=conf)
    except docker.errors.DockerException as exc:
        raise BuildError(task.name, f"could not commit the prepared verifier image {tag}: {exc}") from exc
    if previous is not None and previous != image.id:
        with contextlib.suppress(docker.errors.DockerException):
            engine.images.remove(previous)  # refused (kept) while a tag or a container still uses it
    return str(image.id)


def verify_options(
    task: Task, image: str, network: bool = False, client: docker.DockerClient | None = None
) -> VerifyOptions:
    """How to verify `task` whose agent ran on `image`: on the separate verifier's image (built here if
    need be) or `image`, either one's prepared layer standing in when it is current. The layer's offline
    switches (PREPARED_ENV) come with it only when the tests get no network (`network` is the
    `--verifier-network` opt-in; the options say whether the task's declared network is given).
    Tests that run in the agent's own sandbox get neither."""
    networked = network and verifier_network_declared(task.config) == "public"
    if not task.separate_verifier and task.config.verifier.sandbox is VerifierSandbox.AGENT:
        return VerifyOptions(network=networked)
    base = separate_verifier_image(task, client) if task.separate_verifier else image
    prepared = prepared_verifier_image(task, base, client)
    return VerifyOptions(
        network=networked,
        image=prepared or (base if task.separate_verifier else None),
        extra_env=dict(PREPARED_ENV) if prepared and not networked else {},
    )
