"""Running a harness headless in a started sandbox: write its config, launch it under the agent timeout,
collect its logs and final message. The caller owns the sandbox and the model endpoint (`train.rollout`
puts the proxy behind it); this module knows only envs' sandbox interface.

A crash or a timeout is a result here, never an exception: the verifier still runs afterwards.
"""

from __future__ import annotations

import shlex
import tempfile
import time
import uuid
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from envs.connect_trace import STRACE_ARGV, Connect, parse_strace
from envs.errors import SandboxError
from envs.sandbox import Sandbox
from harnesses.bundle import Bundle
from harnesses.harness import HARNESS_MOUNT, Harness, LaunchContext

HOME_ROOT = "/tmp/forge-home"
AGENT_LOGS = "/logs/agent"
STRACE_LOG = "strace.log"
MAX_TEXT_FILE = 1_000_000
ANSWER_FILE = "answer.txt"
"""Where a browser task's answer goes, in the working directory (its checker reads it)."""
MAX_ANSWER = 64_000

HarnessStatus = Literal["completed", "failed", "timeout", "not-started"]


class HarnessRun(BaseModel):
    """What one headless run of a harness did."""

    harness: str
    version: str
    status: HarnessStatus
    """completed: exit 0; failed: any other exit; timeout: killed at the agent timeout;
    not-started: the launch could not be prepared (an infrastructure error, see error)."""
    exit_code: int | None = None
    duration_sec: float = 0.0
    final_message: str | None = None
    harness_error: str | None = None
    """The harness's own error report, read from its output."""
    error: str | None = None
    """Why it could not be started (not-started only)."""
    stdout_tail: str = ""
    stderr_tail: str = ""
    logs_dir: Path | None = None
    connects: list[Connect] | None = None
    """Every address the harness tried to reach (when traced)."""
    argv: list[str] = Field(default_factory=list)


def _write_files(sandbox: Sandbox, files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory(prefix="forge-harness-files-") as tmp:
        for i, (target, text) in enumerate(files.items()):
            source = Path(tmp) / str(i)
            source.write_text(text)
            source.chmod(0o644)
            sandbox.upload(source, target)


def _read_texts(folder: Path) -> dict[str, str]:
    texts: dict[str, str] = {}
    for path in folder.rglob("*"):
        if path.is_file() and path.stat().st_size <= MAX_TEXT_FILE:
            try:
                texts[path.relative_to(folder).as_posix()] = path.read_text()
            except UnicodeDecodeError:
                continue
    return texts


def run_headless(
    sandbox: Sandbox,
    harness: Harness,
    bundle: Bundle,
    *,
    instruction: str,
    model: str,
    base_url: str,
    api_key: str,
    timeout: float,
    workdir: str,
    user: str | None = None,
    logs_dir: Path | None = None,
    max_turns: int | None = None,
    trace: bool = False,
    browser: bool = False,
) -> HarnessRun:
    """Run `harness` (mounted from `bundle`) in `sandbox` on `instruction` and collect what it left.

    `trace` runs it under strace (the base image has it) and reports every address it tried to reach.
    `browser` says the task is a browser task (LaunchContext.browser).
    """
    home = f"{HOME_ROOT}/{harness.name}"
    ctx = LaunchContext(
        instruction=instruction,
        model=model,
        base_url=base_url,
        api_key=api_key,
        workdir=workdir,
        home=home,
        bundle=f"{HARNESS_MOUNT}/{harness.name}",
        logs=AGENT_LOGS,
        max_turns=max_turns,
        browser=browser,
    )
    run = HarnessRun(harness=harness.name, version=harness.version, status="not-started", logs_dir=logs_dir)
    started = time.monotonic()
    try:
        launch = harness.launch(ctx)
        run.argv = launch.argv
        prepare = f"mkdir -p {shlex.quote(home)}/tmp {AGENT_LOGS}"
        checked = sandbox.exec(["/bin/sh", "-c", prepare], timeout=60, user="root")
        if not checked.ok:
            raise SandboxError(f"could not prepare {home}: {checked.stderr.strip()}")
        _write_files(sandbox, launch.files)
        if user not in (None, "", "root", "0"):
            owner = shlex.quote(str(user))
            sandbox.exec(
                ["/bin/sh", "-c", f"chown -R {owner} {shlex.quote(home)} {AGENT_LOGS}"], 60, user="root"
            )
        argv = launch.argv
        if launch.stdin:
            argv = ["/bin/sh", "-c", 'f="$1"; shift; exec "$@" < "$f"', "forge-stdin", launch.stdin, *argv]
        if trace:
            argv = [*STRACE_ARGV, "-o", f"{AGENT_LOGS}/{STRACE_LOG}", "--", *argv]
    except SandboxError as exc:
        run.error = f"{type(exc).__name__}: {exc}"
        run.duration_sec = time.monotonic() - started
        return run
    try:
        result = sandbox.exec(argv, timeout=timeout, env=launch.env, workdir=workdir, user=user)
    except SandboxError as exc:  # the harness had started: what broke the sandbox is the agent's doing
        run.status, run.harness_error = "failed", f"the sandbox failed under the harness: {exc}"
        run.duration_sec = time.monotonic() - started
        return run
    try:
        sandbox.kill_strays()  # the harness is done: nothing it started outlives it, or touches its logs
    except SandboxError as exc:
        run.harness_error = f"its processes could not be stopped: {exc}"
    run.duration_sec = result.duration_sec
    run.exit_code = result.exit_code
    run.status = "timeout" if result.timed_out else "completed" if result.exit_code == 0 else "failed"
    run.stdout_tail, run.stderr_tail = result.stdout[-20_000:], result.stderr[-20_000:]
    texts: dict[str, str] = {}
    if logs_dir is not None:
        logs_dir.mkdir(parents=True, exist_ok=True)
        (logs_dir / "stdout.txt").write_text(result.stdout)
        (logs_dir / "stderr.txt").write_text(result.stderr)
        try:
            sandbox.download(AGENT_LOGS, logs_dir / "agent")
            for rel in harness.collect:
                probe = sandbox.exec(["test", "-e", f"{home}/{rel}"], timeout=30, user="root")
                if probe.ok:
                    sandbox.download(f"{home}/{rel}", logs_dir / "home" / rel)
        except SandboxError as exc:
            run.harness_error = run.harness_error or f"could not collect logs: {exc}"
        texts = _read_texts(logs_dir / "agent") if (logs_dir / "agent").is_dir() else {}
        if trace:  # read whole: a browser's trace easily outgrows MAX_TEXT_FILE
            texts.pop(STRACE_LOG, None)
            strace = logs_dir / "agent" / STRACE_LOG
            run.connects = parse_strace(strace.read_text(errors="replace") if strace.is_file() else "")
    elif trace:
        log = sandbox.exec(["cat", f"{AGENT_LOGS}/{STRACE_LOG}"], timeout=60, user="root")
        run.connects = parse_strace(log.stdout)
    output = harness.read_output(result.stdout, texts)
    run.final_message = output.final_message
    run.harness_error = run.harness_error or output.error
    if browser and not harness.writes_answer and run.final_message is not None:
        try:
            write_answer(sandbox, run.final_message, workdir, user)
        except SandboxError as exc:
            run.harness_error = run.harness_error or f"could not write its answer: {exc}"
    return run


def write_answer(sandbox: Sandbox, answer: str, workdir: str, user: str | None) -> None:
    """A browser task's answer is the harness's final message (its instruction says so): written to
    `<workdir>/ANSWER_FILE` as the agent, after the harness has stopped, so what the checker reads is what
    the harness answered, and the agent's own rights bound what the write can touch."""
    staged = f"/tmp/forge-answer-{uuid.uuid4().hex}"
    _write_files(sandbox, {staged: answer[:MAX_ANSWER] + "\n"})
    target = f"{workdir.rstrip('/')}/{ANSWER_FILE}"
    quoted = shlex.quote(target)  # a link or a FIFO the agent left there is replaced, not followed
    try:
        done = sandbox.exec(["/bin/sh", "-c", f"rm -f -- {quoted}; cat {staged} > {quoted}"], 60, user=user)
    finally:
        sandbox.exec(["rm", "-f", staged], timeout=30, user="root")  # root's, in sticky /tmp
    if not done.ok:
        raise SandboxError(f"{target}: {done.stderr.strip() or 'exit ' + str(done.exit_code)}")
