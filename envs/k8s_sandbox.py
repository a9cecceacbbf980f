"""The Kubernetes sandbox backend: one pod per sandbox, on any cluster, with the Docker backend's guarantees.

The pod (envs.k8s_manifests) has the task container and a warden sharing its PID namespace. Commands run
in the task container through the API's exec subresource; everything that must hold against the agent
runs in the warden with its own untouched copy of the image (envs.k8s_warden): killing the agent's
processes at a timeout and at the end of its phase (stopped sweep after sweep, then SIGKILLed), reading
and writing files through `/proc/<init>/root`, and the filesystem diff against the pristine image. Pods
are created under the run's bounded concurrency (envs.k8s_run), watched (not polled) until they run,
and fail fast with their own error class on image pull errors, unschedulable pods and crashes.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import shutil
import tarfile
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from kubernetes import client as k8s
from kubernetes import watch as k8s_watch
from urllib3.exceptions import HTTPError

from envs import cleanup, labels
from envs.errors import (
    ArchiveTooLarge,
    ClusterError,
    ImagePullFailed,
    NetworkModeError,
    PodCrashed,
    PodStartTimeout,
    PodUnschedulable,
    PreloadError,
    SandboxError,
    SandboxNotReady,
    SandboxStartError,
)
from envs.k8s_exec import ExecOutcome, run_exec
from envs.k8s_manifests import (
    PRELOAD_MARKER,
    SANDBOX_LABEL,
    TASK_CONTAINER,
    WARDEN_CONTAINER,
    label_value,
    object_name,
    pod_manifest,
)
from envs.k8s_run import KubernetesRun, call, current_run
from envs.k8s_tunnel import ModelTunnel
from envs.k8s_warden import (
    DEFAULTS,
    EXPORT,
    KILL,
    LISTING,
    MAKE_DIR,
    MARK_PRELOADED,
    PROCESSES,
    SH,
    UNPACK,
    WAIT_READY,
    init_pid,
)
from envs.model_relay import ModelRelay
from envs.sandbox import (
    ExecResult,
    OutputBuffer,
    PathChange,
    ProcessDefaults,
    Sandbox,
    SandboxSpec,
    pack_upload,
)
from envs.task_config import NetworkMode

log = logging.getLogger("forge.envs")

MAX_OUTPUT_BYTES = 4 * 1024 * 1024
READY_CHECKS = 300
"""The init's ready marker is checked this many times, 0.1 s apart, once the containers run."""
PULL_FAILURES = frozenset({"ErrImagePull", "ImagePullBackOff", "InvalidImageName", "ErrImageNeverPull"})
CRASHES = frozenset(
    {"CrashLoopBackOff", "CreateContainerConfigError", "CreateContainerError", "RunContainerError"}
)
UNSCHEDULABLE = ("PodScheduled", "False", "Unschedulable")
WARDEN_TIMEOUT_SEC = 120.0
LISTING_MAX_BYTES = 256 * 1024 * 1024


class KubernetesSandbox(Sandbox):
    """One pod on a Kubernetes cluster."""

    def __init__(self, spec: SandboxSpec, run: KubernetesRun | None = None) -> None:
        self.spec = spec
        self.warnings: list[str] = []
        self._run = run
        self.name = object_name("forge", (spec.task or "sandbox")[:40], uuid.uuid4().hex[:10])
        self._exec_api: k8s.CoreV1Api | None = None
        self._exec_lock = threading.Lock()
        self._lifecycle = threading.RLock()
        self._created = False
        self._stopped = False
        self._init: int | None = None
        self._init_start = 0
        """The init's start time: a recycled pid is not it."""
        self._baseline: set[tuple[int, int]] = set()
        self._tick_base: tuple[float, float, int] | None = None
        """(our monotonic clock, the pod's uptime, its clock ticks per second) at the last listing."""
        self._defaults: ProcessDefaults | None = None
        self.relay: ModelRelay | None = None
        self.relay_folder: Path | None = None
        self.tunnel: ModelTunnel | None = None

    @property
    def run(self) -> KubernetesRun:
        if self._run is None:
            self._run = current_run()
        return self._run

    @property
    def namespace(self) -> str:
        return self.run.namespace

    # -- lifecycle -----------------------------------------------------------------------------------------

    def start(self) -> None:
        spec = self.spec
        spec.check()
        if spec.network is NetworkMode.HOST:
            raise NetworkModeError("the k8s backend gives no sandbox the host's network")
        unmountable = [m for m in spec.mounts if m.image is None or not m.read_only]
        if unmountable:
            raise SandboxStartError(
                "the k8s backend cannot mount the driver's folders, only read-only folders that come as "
                "images (harness bundles: `forge-env harness build --push REGISTRY`): "
                + ", ".join(str(m.source) for m in unmountable)
            )
        if spec.pids_limit:
            self.warnings.append(
                f"task '{spec.task}': the pids limit ({spec.pids_limit}) is the node's on Kubernetes "
                "(kubelet podPidsLimit), not set per pod"
            )
        cleanup.register(self)
        try:
            env = dict(spec.env)
            if spec.network is NetworkMode.MODEL_ONLY:
                if not spec.model_endpoint:  # SandboxSpec.check refuses it; said again for the type
                    raise NetworkModeError("network 'model-only' needs model_endpoint")
                self.relay_folder = Path(tempfile.mkdtemp(prefix="forge-relay-"))
                self.relay = ModelRelay(self.relay_folder, spec.model_endpoint, spec.model_routes)
                self.relay.start()
                env.update(
                    FORGE_MODEL_PORT=str(spec.model_port),
                    FORGE_MODEL_URL=f"http://127.0.0.1:{spec.model_port}",
                )
            self.launch(self.manifest(env))
            self._find_init()
            if self.relay is not None:
                with self._lifecycle:
                    if self._stopped:
                        raise SandboxStartError(f"sandbox {self.name} was stopped while it started")
                self.tunnel = ModelTunnel(
                    self._api(),
                    self._exec_lock,
                    self.name,
                    self.namespace,
                    WARDEN_CONTAINER,
                    self.relay.socket_path,
                    spec.model_port,
                )
                self.tunnel.start()
            for preload in spec.preload:
                self._preload(preload.archive)
            if spec.preload:
                self._warden(MARK_PRELOADED, [str(self._init), PRELOAD_MARKER])
            self._wait_ready()
            self.mark_baseline()
            self._defaults = self._read_defaults()
        except BaseException:
            self.stop()
            raise

    def manifest(self, env: dict[str, str] | None = None) -> dict[str, Any]:
        """This sandbox's pod (creating the run's parent the first time: the pod is owned by it)."""
        spec, run = self.spec, self.run
        env = dict(spec.env) if env is None else env
        pod_labels = {
            **{label_value(k): label_value(v) for k, v in spec.labels.items()},
            labels.MANAGED: "true",
            labels.TASK: label_value(spec.task),
            labels.RUN: label_value(spec.run),
            labels.ROLE: label_value(spec.role),
            labels.OWNER: label_value(run.owner),
            labels.CREATED: str(int(time.time())),
            SANDBOX_LABEL: self.name,
            **run.labels,
        }
        return pod_manifest(
            name=self.name,
            namespace=self.namespace,
            image=run.image(spec.image),
            pod_labels=pod_labels,
            owner_ref=run.owner_ref(),
            env=env,
            workdir=spec.workdir,
            cpus=spec.cpus,
            memory_mb=spec.memory_mb,
            storage_mb=spec.storage_mb,
            deadline_sec=run.config.pod_deadline_sec,
            preload=bool(spec.preload),
            bundles=[(run.image(m.image or ""), m.target) for m in spec.mounts],
            image_volumes=run.config.image_volumes,
            runtime_class=run.config.runtime_class,
            image_pull_policy=run.config.image_pull_policy,
            annotations={labels.OWNER: run.owner, "openforge.task-name": spec.task},
            node_selector=run.config.node_selector,
        )

    def launch(self, manifest: dict[str, Any]) -> None:
        """Create the pod and watch it until its containers run, within the run's bounded start-ups (the
        control-plane half of `start`, which bench/k8s_scale.py drives alone)."""
        run = self.run
        with run.pressure:
            with self._lifecycle:
                if self._stopped or cleanup.shutting_down():
                    raise SandboxStartError(f"sandbox {self.name} was stopped before it started")
                created = self._create(manifest)
            self._await_running(time.monotonic() + run.config.start_timeout_sec, created)

    def _create(self, manifest: dict[str, Any]) -> str | None:
        """Create the pod; returns its resourceVersion, the watch's start (so nothing after it is missed)."""
        run = self.run
        try:
            pod = call(
                f"create pod {self.namespace}/{self.name}",
                lambda: run.core.create_namespaced_pod(self.namespace, manifest),  # type: ignore[arg-type]
                run.pressure,
            )
        except ClusterError as exc:
            if exc.status != 409:  # 409: a retried create whose first answer was lost; ours if labelled so
                raise SandboxStartError(f"could not create the sandbox's pod: {exc}") from exc
            pod = call("read pod", lambda: run.core.read_namespaced_pod(self.name, self.namespace))
            if pod.metadata is None or (pod.metadata.labels or {}).get(SANDBOX_LABEL) != self.name:
                raise SandboxStartError(f"pod {self.name} exists and is not ours") from exc
            resource_version = None  # ours, from a create whose answer was lost: watched from now
        else:
            resource_version = pod.metadata.resource_version if pod.metadata is not None else None
        self._created = True
        return resource_version

    def _await_running(self, deadline: float, resource_version: str | None = None) -> None:
        """Watch the pod (from `resource_version`) until both containers run; the first sign that it
        never will raises its class."""
        run = self.run
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise PodStartTimeout(
                    f"pod {self.namespace}/{self.name} ({self.spec.image}) was not running after "
                    f"{run.config.start_timeout_sec:g}s"
                )
            watcher = k8s_watch.Watch()
            kwargs: dict[str, Any] = {
                "field_selector": f"metadata.name={self.name}",
                "timeout_seconds": max(1, int(min(remaining, 60))),
                "_request_timeout": min(remaining, 60) + 10,
            }
            if resource_version:
                kwargs["resource_version"] = resource_version
            try:
                for event in watcher.stream(run.core.list_namespaced_pod, self.namespace, **kwargs):
                    pod = event["object"]
                    resource_version = pod.metadata.resource_version
                    if event["type"] == "DELETED":
                        raise PodCrashed(f"pod {self.namespace}/{self.name} was deleted while starting")
                    if self._started(pod):
                        watcher.stop()
                        return
            except k8s.exceptions.ApiException as exc:
                if exc.status == 410:  # the watch's resourceVersion is too old: start again from now
                    resource_version = None
                    continue
                if exc.status in (429, 500, 503):
                    if exc.status == 429:
                        run.pressure.throttle()
                    time.sleep(1.0)
                    continue
                what = f"watching pod {self.name}: {exc.status} {exc.reason}"
                raise ClusterError(what, exc.status) from exc
            except (OSError, ValueError, HTTPError) as exc:  # a watch cut mid-stream: watch again
                log.info("watch of pod %s ended (%s); watching again", self.name, exc)
                time.sleep(0.5)

    def _started(self, pod: Any) -> bool:
        """True when the task and warden containers run; raises when the pod never will."""
        status = pod.status
        if status is None:
            return False
        where = f"pod {self.namespace}/{self.name} (image {self.spec.image})"
        if status.phase in ("Failed", "Succeeded"):
            if status.reason == "DeadlineExceeded":
                raise PodStartTimeout(f"{where} reached its activeDeadlineSeconds while starting")
            why = f"{status.reason or status.phase} {status.message or ''}".strip()
            raise PodCrashed(f"{where} ended while starting: {why}")
        for condition in status.conditions or []:
            if (condition.type, condition.status, condition.reason) == UNSCHEDULABLE:
                why = condition.message or "no reason given"
                raise PodUnschedulable(f"{where} cannot be scheduled: {why}")
        for container in (status.init_container_statuses or []) + (status.container_statuses or []):
            state = container.state
            if state is None:
                continue
            if state.waiting is not None and state.waiting.reason in PULL_FAILURES:
                raise ImagePullFailed(
                    f"{where}: container {container.name} cannot pull {container.image}: "
                    f"{state.waiting.reason}: {state.waiting.message or ''}".rstrip()
                )
            if state.waiting is not None and state.waiting.reason in CRASHES:
                why = f"{state.waiting.reason}: {state.waiting.message or ''}"
                raise PodCrashed(f"{where}: container {container.name}: {why}")
            is_init = container in (status.init_container_statuses or [])
            if state.terminated is not None and not (is_init and state.terminated.exit_code == 0):
                raise PodCrashed(
                    f"{where}: container {container.name} exited with {state.terminated.exit_code} "
                    f"({state.terminated.reason or ''}) while starting"
                )
        running = {c.name for c in status.container_statuses or [] if c.state is not None and c.state.running}
        return status.phase == "Running" and {TASK_CONTAINER, WARDEN_CONTAINER} <= running

    def _find_init(self) -> None:
        processes = self._list_processes()
        found = init_pid(processes)
        if found is None:
            raise SandboxNotReady(f"sandbox {self.name}: the task container's init is not running")
        self._init = found
        self._init_start = next(start for pid, start, _ in processes if pid == found)

    def _preload(self, archive: Path) -> None:
        with open(archive, "rb") as data:
            outcome, err = self._unpack(data)
        if outcome.exit_code != 0:
            raise PreloadError(f"could not unpack {archive} in sandbox {self.name}: {err.strip()[-500:]}")

    def _unpack(self, archive: IO[bytes]) -> tuple[ExecOutcome, str]:
        """The warden's UNPACK of `archive` (a seekable tar) at `/`, with the names it needs first."""
        try:
            with tarfile.open(fileobj=archive, mode="r") as tar:
                members = tar.getmembers()
        except tarfile.TarError as exc:
            raise PreloadError(f"sandbox {self.name}: not a tar archive: {exc}") from exc
        links = {m.name.strip("/") for m in members if m.issym() or m.islnk()}
        for member in members:  # tar would follow an archive's own link to write beneath it
            parts = member.name.strip("/").split("/")
            if any("/".join(parts[:i]) in links for i in range(1, len(parts))):
                raise PreloadError(f"sandbox {self.name}: archive entry {member.name!r} lies beneath a link")
        names = [m.name.strip("/") for m in members if not m.isdir() and "\n" not in m.name]
        listed = b"".join(os.fsencode(name) + b"\n" for name in names if name)
        archive.seek(0)
        with tempfile.TemporaryFile() as stdin:
            stdin.write(listed)
            shutil.copyfileobj(archive, stdin)
            stdin.seek(0)
            outcome, _, err = self._warden_io(UNPACK, [str(self._init), str(len(listed))], stdin=stdin)
        return outcome, err

    def _wait_ready(self) -> None:
        outcome, _, err = self._warden_io(WAIT_READY, [str(self._init), str(READY_CHECKS)])
        if outcome.exit_code != 0:
            raise SandboxNotReady(f"sandbox {self.name} did not get ready: {err.strip()[-500:]}")

    def stop(self) -> None:
        with self._lifecycle:
            if self._stopped:
                return
            self._stopped = True
        try:
            self.cut_model()
            if self._created:
                run = self.run
                try:
                    call(
                        f"delete pod {self.namespace}/{self.name}",
                        lambda: run.core.delete_namespaced_pod(
                            self.name, self.namespace, grace_period_seconds=0
                        ),
                    )
                except ClusterError as exc:
                    if exc.status != 404:
                        log.warning(
                            "sandbox %s: its pod could not be deleted (%s); the run's parent "
                            "owns it and deletes it with the run",
                            self.name,
                            exc,
                        )
        finally:
            cleanup.unregister(self)
            if self._exec_api is not None:
                with contextlib.suppress(Exception):
                    self._exec_api.api_client.close()

    def cut_model(self) -> None:
        """Close the tunnel and the relay: from now on the sandbox reaches nothing."""
        if self.tunnel is not None:
            self.tunnel.close()
        if self.relay is not None:
            self.relay.close()
        if self.relay_folder is not None:
            shutil.rmtree(self.relay_folder, ignore_errors=True)

    def alive(self) -> bool:
        if self._stopped or not self._created or self._init is None:
            return False
        try:
            pod = call("read pod", lambda: self.run.core.read_namespaced_pod(self.name, self.namespace))
        except ClusterError:
            return False
        statuses = {c.name: c for c in (pod.status.container_statuses or [])} if pod.status else {}
        task = statuses.get(TASK_CONTAINER)
        if task is None or task.state is None or task.state.running is None:
            return False
        try:
            return any(
                (pid, start) == (self._init, self._init_start) for pid, start, _ in self._list_processes()
            )
        except SandboxError:
            return False

    def process_defaults(self) -> ProcessDefaults:
        if self._defaults is None:
            self._defaults = self._read_defaults()
        return self._defaults

    def _read_defaults(self) -> ProcessDefaults:
        _, out, _ = self._checked(DEFAULTS, [str(self._init)], "read the init's environment")
        env: dict[str, str] = {}
        cwd = "/"
        for line in out.splitlines():
            if line.startswith("cwd "):
                cwd = line[4:] or "/"
            elif "=" in line:
                key, _, value = line.partition("=")
                env[key] = value
        return ProcessDefaults(workdir=self.spec.workdir or cwd, env=env)

    # -- processes -----------------------------------------------------------------------------------------

    def _list_processes(self) -> list[tuple[int, int, str]]:
        _, out, _ = self._checked(PROCESSES, [], "list the sandbox's processes")
        processes: list[tuple[int, int, str]] = []
        uptime, tck = 0.0, 100
        for line in out.splitlines():
            parts = line.split(" ", 3)
            if parts[0] == "uptime" and len(parts) > 1:
                uptime = float(parts[1])
            elif parts[0] == "clk_tck" and len(parts) > 1 and parts[1].isdigit():
                tck = int(parts[1])
            elif parts[0] == "proc" and len(parts) >= 3:
                processes.append((int(parts[1]), int(parts[2]), parts[3] if len(parts) > 3 else ""))
        self._tick_base = (time.monotonic(), uptime, tck)
        return processes

    def mark_baseline(self) -> None:
        self._baseline = {(pid, start) for pid, start, _ in self._list_processes()}

    def kill_strays(self) -> int:
        return self._kill_since(0)

    def _ticks_now(self) -> int:
        if self._tick_base is None:
            return 0
        mono, uptime, tck = self._tick_base
        return int((uptime + time.monotonic() - mono) * tck)

    def _kill_since(self, ticks: int) -> int:
        spare = " ".join(f"{pid}:{start}" for pid, start in sorted(self._baseline))
        _, out, _ = self._checked(KILL, [spare, str(max(0, ticks))], "kill the sandbox's processes")
        try:
            return int(out.strip().splitlines()[-1])
        except (IndexError, ValueError) as exc:
            raise SandboxError(f"sandbox {self.name}: the warden's kill said {out!r}") from exc

    # -- exec ----------------------------------------------------------------------------------------------

    def _api(self) -> k8s.CoreV1Api:
        """This sandbox's own API client for exec (stream() is not safe on a shared one)."""
        if self._exec_api is None:
            self._exec_api = k8s.CoreV1Api(k8s.ApiClient(self.run.api.configuration))
        return self._exec_api

    def _exec(
        self,
        container: str,
        argv: Sequence[str],
        stdin: IO[bytes] | None = None,
        timeout: float | None = None,
        on_timeout: Any = None,
        stdout_sink: Any = None,
        cap: int = MAX_OUTPUT_BYTES,
    ) -> tuple[ExecOutcome, OutputBuffer, OutputBuffer]:
        if self._stopped or not self._created:
            raise SandboxError(f"sandbox {self.name} is not running")
        out, err = OutputBuffer(cap), OutputBuffer(MAX_OUTPUT_BYTES)
        with self._exec_lock:
            api = self._api()
        outcome = run_exec(
            api,
            self.name,
            self.namespace,
            container,
            argv,
            on_stdout=stdout_sink or out.add,
            on_stderr=err.add,
            stdin=stdin,
            timeout=timeout,
            on_timeout=on_timeout,
            lock=self._exec_lock,
        )
        return outcome, out, err

    def _warden_io(
        self,
        script: str,
        args: list[str],
        stdin: IO[bytes] | None = None,
        stdout_sink: Any = None,
        cap: int = MAX_OUTPUT_BYTES,
    ) -> tuple[ExecOutcome, str, str]:
        try:
            outcome, out, err = self._exec(
                WARDEN_CONTAINER,
                [SH, "-c", script, "warden", *args],
                stdin=stdin,
                timeout=WARDEN_TIMEOUT_SEC,
                stdout_sink=stdout_sink,
                cap=cap,
            )
        except ClusterError as exc:
            raise SandboxError(f"sandbox {self.name}: the warden cannot run: {exc}") from exc
        return outcome, out.text(), err.text()

    def _warden(self, script: str, args: list[str]) -> str:
        return self._checked(script, args, "run the warden")[1]

    def _checked(self, script: str, args: list[str], what: str) -> tuple[ExecOutcome, str, str]:
        outcome, out, err = self._warden_io(script, args)
        if outcome.exit_code != 0:
            raise SandboxError(
                f"sandbox {self.name}: could not {what} (exit {outcome.exit_code}): {err.strip()[-500:]}"
            )
        return outcome, out, err

    def exec(
        self,
        command: str | Sequence[str],
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        workdir: str | None = None,
        user: str | None = None,
    ) -> ExecResult:
        """Run a command in the task container; at the timeout the warden kills every process started
        since it began (its whole tree, reparented or not), and the sandbox lives on."""
        argv = ["bash", "-c", command] if isinstance(command, str) else list(command)
        argv = self._wrapped(argv, dict(env or {}), workdir, user)
        started = time.monotonic()
        since = self._ticks_now() - (self._tick_base[2] if self._tick_base else 100)  # a second's margin

        def kill() -> None:
            with contextlib.suppress(SandboxError):
                self._kill_since(since)

        try:
            outcome, out, err = self._exec(TASK_CONTAINER, argv, timeout=timeout, on_timeout=kill)
        except ClusterError as exc:
            if not self.alive():
                return ExecResult(
                    exit_code=None,
                    stderr=f"the sandbox stopped under the command: {exc}",
                    duration_sec=time.monotonic() - started,
                )
            raise SandboxError(f"exec in sandbox {self.name} failed: {exc}") from exc
        code = outcome.exit_code
        if code is None and not outcome.timed_out:
            status = outcome.status or {}
            if status.get("reason") != "InternalError" and not self.alive():
                err.add(b"\n[the sandbox stopped under the command]")
            else:
                message = str(status.get("message") or "no exit status came back")
                err.add(f"\n{message}".encode())
                code = 126 if "not found" not in message and "no such file" not in message.lower() else 127
        return ExecResult(
            exit_code=code,
            stdout=out.text(),
            stderr=err.text(),
            timed_out=outcome.timed_out,
            duration_sec=time.monotonic() - started,
        )

    def _wrapped(
        self, argv: list[str], env: dict[str, str], workdir: str | None, user: str | None
    ) -> list[str]:
        """The exec API has no user, environment or working directory: the task container's own setpriv,
        env and sh give them (its userland is the agent's own, or a fresh or checked one for tests)."""
        prefix: list[str] = []
        if user and user not in ("root", "0", "0:0"):
            uid, gid, home = self._user(user)
            prefix = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups"]
            env = {"HOME": home, **env} if home else env
        if env:
            prefix += ["env", *(f"{k}={v}" for k, v in env.items())]
        if workdir:
            prefix += ["/bin/sh", "-c", 'cd -- "$1" && shift && exec "$@"', "forge-exec", workdir]
        return prefix + argv

    def _user(self, user: str) -> tuple[int, int, str]:
        name, _, group = user.partition(":")
        passwd = (self.read_file("/etc/passwd", 4 * 1024 * 1024) or b"").decode(errors="replace")
        entry: list[str] | None = None
        for line in passwd.splitlines():
            fields = line.split(":")
            if len(fields) >= 7 and (fields[0] == name or fields[2] == name):
                entry = fields
                break
        if entry is None and not name.isdigit():
            raise SandboxError(f"sandbox {self.name}: no user {name!r} in /etc/passwd")
        uid = int(entry[2]) if entry else int(name)
        gid = int(entry[3]) if entry else uid
        if group:
            if group.isdigit():
                gid = int(group)
            else:
                groups = (self.read_file("/etc/group", 4 * 1024 * 1024) or b"").decode(errors="replace")
                found = [line.split(":")[2] for line in groups.splitlines() if line.split(":")[0] == group]
                if not found:
                    raise SandboxError(f"sandbox {self.name}: no group {group!r} in /etc/group")
                gid = int(found[0])
        return uid, gid, entry[5] if entry else ""

    # -- files ---------------------------------------------------------------------------------------------

    def upload(self, source: Path, target: str) -> None:
        """The archive every backend uploads (envs.sandbox.pack_upload), unpacked at `/` by the warden."""
        with tempfile.TemporaryFile() as buf:
            pack_upload(source, target, buf)
            buf.seek(0)
            outcome, err = self._unpack(buf)
        if outcome.exit_code != 0:
            raise SandboxError(f"upload of {source} to {target} in sandbox {self.name} failed: {err[-500:]}")

    def make_dir(self, path: str, uid: int = 0, gid: int = 0, mode: int = 0o755) -> None:
        name = os.path.normpath(path)
        if not name.startswith("/") or name == "/" or ".." in name.split("/"):
            raise SandboxError(f"cannot make a folder at {path!r}")
        self._checked(MAKE_DIR, [str(self._init), name, str(uid), str(gid), f"{mode:o}"], f"make {path}")

    def export(self, source: str, dest: IO[bytes], max_bytes: int) -> bool:
        """The warden's tar of `source`, read from the task container's root, at most `max_bytes`."""
        written = 0

        def sink(data: bytes) -> None:
            nonlocal written
            written += len(data)
            if written > max_bytes:
                raise ArchiveTooLarge(f"{source} is more than {max_bytes} bytes as an archive")
            dest.write(data)

        path = os.path.normpath(source)
        if not path.startswith("/"):
            raise SandboxError(f"cannot read {source!r}: not an absolute path")
        outcome, _, err = self._warden_io(EXPORT, [str(self._init), path], stdout_sink=sink)
        if outcome.exit_code == 3:
            return False
        if outcome.exit_code != 0:
            raise SandboxError(f"cannot read {source} from sandbox {self.name}: {err.strip()[-500:]}")
        return True

    def changed_paths(self) -> list[PathChange]:
        """The task container's root against the warden's own (the image as built)."""
        image = self._listing("/")
        now = self._listing(f"/proc/{self._init}/root/")
        changes: list[PathChange] = []
        for path, entry in now.items():
            before = image.get(path)
            if before is None:
                changes.append(PathChange(kind="added", path=path))
            elif before != entry:
                changes.append(PathChange(kind="changed", path=path))
        changes.extend(PathChange(kind="deleted", path=p) for p in image if p not in now)
        made = {m.target.rstrip("/") for m in self.spec.mounts}  # our mounts (bundles), as Docker's diff
        above = {"/".join(t.split("/")[:i]) or "/" for t in made for i in range(2, t.count("/") + 1)}
        return sorted(
            (c for c in changes if c.path not in made and not (c.path in above and c.kind != "deleted")),
            key=lambda c: c.path,
        )

    def _listing(self, root: str) -> dict[str, tuple[str, ...]]:
        buf = io.BytesIO()

        def sink(data: bytes) -> None:
            if buf.tell() + len(data) > LISTING_MAX_BYTES:
                raise ArchiveTooLarge(f"the file listing of sandbox {self.name} is too large")
            buf.write(data)

        outcome, _, err = self._warden_io(LISTING, [root], stdout_sink=sink)
        fields = buf.getvalue().split(b"\0")
        if outcome.exit_code != 0 or len(fields) < 4:
            raise SandboxError(
                f"cannot list the files of sandbox {self.name}: {err.strip()[-500:] or 'none'}"
            )
        entries: dict[str, tuple[str, ...]] = {}
        for i in range(0, len(fields) - 2, 3):
            head = fields[i].decode(errors="replace").split(" ")
            path = "/" + os.fsdecode(fields[i + 1])
            link = os.fsdecode(fields[i + 2])
            if len(head) != 7:
                raise SandboxError(f"sandbox {self.name}: a file listing entry is malformed: {head}")
            if head[0] == "d":  # a folder changes when anything below it does; that is counted below it
                entries[path] = (head[0], head[1], head[2], head[3])
            else:
                entries[path] = (*head, link)
        return entries
