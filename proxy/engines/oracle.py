"""The oracle and nop policies: answer any harness, in its own wire API, without a model.

For a rollout of task T the oracle calls the harness's own shell tool (found in the request's tool list
and filled in from that tool's schema) with a command that unpacks T's reference solution and runs it in
T's working directory, then gives a final message. It proves that harness, proxy, container and hidden
tests work together, for any task and any harness, and it is the offline teacher for SFT. `nop` gives
the final message at once: the harness ran, nothing was done, and the tests must score 0.

Which task a rollout is for: the task its per-rollout config names (`GenerationRequest.task`, set with
`PUT /rollouts/{id}/config {"task": NAME}` on the control app, as every rollout of `forge-env run` and
the training loop does), else the catalog task whose instruction appears in the conversation. The
rollout id is never read for it.

Harnesses that only stop when the model runs a submit command (mini-swe-agent's
`echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`) get that command as the last step when their prompt asks
for it. The browser harnesses have no tools: the oracle answers them with the next step of the task's
solution/actions.json in their own action format (forge-web: one JSON action, proxy.engines.web_actions;
browser-use: its AgentOutput with the element's index, proxy.engines.browser_use_actions), nop with
`done`; a text harness on a browser task, whose request lists Playwright MCP's tools, gets the script as
calls of those tools (proxy.engines.mcp_browser_actions), not its shell. Given a
tokenizer, both engines answer through the token path (Qwen3's native format, tokenized), so their
rollouts are recorded token-exactly and become trajectories; a vision-language model's directory as the
tokenizer lets them take images too (forge-web's screenshots), each expanded to its pads in the record.
"""

from __future__ import annotations

import base64
import io
import logging
import re
import shlex
import tarfile
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from envs.task import Task, TaskStep, find_task_dirs, inspect_task, load_task, resolve_env
from proxy.conversation import Generation, GenerationRequest, Message, ToolCall, Usage
from proxy.engines.base import Engine
from proxy.engines.browser_use_actions import (
    browser_use_reply,
    is_browser_use_request,
    next_browser_use_reply,
)
from proxy.engines.mcp_browser_actions import has_playwright_tools, next_mcp_turn
from proxy.engines.scripted import Policy, ScriptedTokens
from proxy.engines.shell_tool import find_shell_tool, shell_arguments
from proxy.engines.tokens import TokenEngine, load_tokenizer
from proxy.engines.web_actions import is_web_request, next_web_reply, web_reply
from proxy.errors import BadRequest, EngineConfigError
from proxy.vision_prompt import VisionPrompt

if TYPE_CHECKING:
    from proxy.engine_options import EngineOptions

log = logging.getLogger("forge.proxy")

SUBMIT_SENTINELS = ("COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",)
"""Words some harnesses wait for as the output of a shell command before they stop."""
FINAL_MESSAGE = "Done: the task is complete."
NOP_MESSAGE = "I will not do anything."


INLINE_MAX_BYTES = 400
"""A solution that is one solve.sh at most this big is sent as its own text, after a `cd`: what a model
would write."""
SCRIPT_MAX_BYTES = 16_384
"""A bigger single solve.sh that is text goes as a here-document written to a temporary script, still
readable shell (a learnable teacher trajectory, about half the tokens of the packed form)."""
HEREDOC_END = "FORGE_SOLUTION_EOF"


def solution_command(task: Task, solution_dir: Path | None = None) -> str:
    """A shell command that runs the task's reference solution in its working directory.

    The working directory is `[environment] workdir` when set (a `cd` first), else the harness's own,
    which is the image's WORKDIR. A short solve.sh goes as it is. A longer one goes as a here-document
    into a temporary folder; a solution of several files, or not text, is packed (tar.gz, base64) and
    unpacked there. The script runs in the working directory and the folder is removed with
    `find -delete` (Codex refuses commands with `rm -rf`). `solution_dir` is a step's own solution."""
    solution_dir = solution_dir or task.solution_dir
    files = [p for p in solution_dir.rglob("*") if p.is_file()]
    env = resolve_env(task, task.config.solution.env, "solution")
    exports = "".join(f"export {k}={shlex.quote(v)}; " for k, v in env.items())
    workdir = task.config.environment.workdir
    cd = f"cd {shlex.quote(workdir)} && " if workdir else ""
    solve = solution_dir / "solve.sh"
    if files == [solve] and solve.stat().st_size <= INLINE_MAX_BYTES:
        body = [line for line in solve.read_text().splitlines() if line.strip() and not line.startswith("#!")]
        return f"{cd}{exports}" + "\n".join(body)
    run = (
        f'({cd}{exports}bash "$d/solve.sh"); rc=$?; find "$d" -delete; '
        'echo "oracle: solve.sh exited $rc"; exit $rc'
    )
    script = _script_text(solve) if files == [solve] else None
    if script is not None:
        return (
            f"d=$(mktemp -d /tmp/forge-oracle.XXXXXX) && cat > \"$d/solve.sh\" <<'{HEREDOC_END}'\n"
            f"{script}{HEREDOC_END}\n{run}"
        )
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(str(solution_dir), arcname=".")
    payload = base64.b64encode(buf.getvalue()).decode()
    return f'd=$(mktemp -d /tmp/forge-oracle.XXXXXX) && echo {payload} | base64 -d | tar -xz -C "$d" && {run}'


def _script_text(solve: Path) -> str | None:
    """solve.sh as here-document text (ending in a newline), or None when it cannot be one."""
    if solve.stat().st_size > SCRIPT_MAX_BYTES:
        return None
    try:
        text = solve.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return None
    if "\r" in text or any(line == HEREDOC_END for line in text.splitlines()):
        return None
    return text if text.endswith("\n") else text + "\n"


def submit_command(messages: Sequence[Message]) -> str | None:
    """The submit command the harness's prompt asks for, if it asks for one."""
    for message in messages:
        if message.role in ("system", "user"):
            for sentinel in SUBMIT_SENTINELS:
                if sentinel in message.content:
                    return f"echo {sentinel}"
    return None


class NopPolicy:
    """Does nothing: a final message at once (or just the submit command where the harness needs it)."""

    final = NOP_MESSAGE

    def commands(self, request: GenerationRequest) -> list[str]:
        submit = submit_command(request.messages)
        return [submit] if submit else []

    def workdir(self, request: GenerationRequest) -> str | None:
        return None

    def next_turn(self, request: GenerationRequest) -> Generation:
        if is_web_request(request):  # forge-web: no tools, one JSON action a reply
            return Generation(text=self.web_step(request))
        if is_browser_use_request(request):  # browser-use: no tools, its AgentOutput JSON
            return Generation(text=self.browser_use_step(request))
        if has_playwright_tools(request) and (turn := self.mcp_turn(request)) is not None:
            return turn
        shell = find_shell_tool(request.tools)
        if shell is None:  # a side call with no tools (titles, summaries): just text
            return Generation(text=self.final)
        done = sum(1 for m in request.messages if m.role == "assistant" and m.tool_calls)
        commands = self.commands(request)
        if done < len(commands):
            arguments = shell_arguments(shell, commands[done], self.workdir(request))
            call = ToolCall(id=f"call_{uuid.uuid4().hex[:20]}", name=shell.name, arguments=arguments)
            return Generation(tool_calls=[call], finish_reason="tool_calls")
        return Generation(text=self.final)

    def web_step(self, request: GenerationRequest) -> str:
        return web_reply({"action": "done"})

    def mcp_turn(self, request: GenerationRequest) -> Generation | None:
        """A text harness with Playwright MCP's tools: None here (nop browses nothing, then stops)."""
        return None

    def browser_use_step(self, request: GenerationRequest) -> str:
        return browser_use_reply(request, [{"action": "done"}])


class OraclePolicy(NopPolicy):
    """Runs the task's reference solution through the harness's own shell tool, then says it is done."""

    final = FINAL_MESSAGE

    def __init__(self, catalog: Path | str | Sequence[Path | str]) -> None:
        roots = [catalog] if isinstance(catalog, str | Path) else list(catalog)
        self.tasks: dict[str, Task] = {}
        self.skipped: dict[str, str] = {}
        """Tasks of the catalog that do not load (a refused Harbor feature, say): the first error of each."""
        for root in roots:
            single = (Path(root) / "task.toml").is_file()
            for path in [Path(root)] if single else find_task_dirs(root):
                if single:
                    task = load_task(path)  # the one task asked for: its error is the caller's
                else:
                    found, problems = inspect_task(path)
                    if found is None:
                        self.skipped[str(path)] = str(next(p for p in problems if p.severity == "error"))
                        log.warning("oracle: skipping %s", self.skipped[str(path)])
                        continue
                    task = found
                self.tasks[task.name] = task
        if not self.tasks:
            where = ", ".join(map(str, roots)) or "(nothing)"
            raise EngineConfigError(f"the oracle found no tasks in {where}")
        self._solutions: dict[str, str] = {}

    def task_for(self, request: GenerationRequest) -> Task:
        """The task the rollout's config names, else the one whose instruction the conversation holds."""
        if request.task is not None:
            named = self.tasks.get(request.task)
            if named is None:
                raise BadRequest(
                    f"oracle: rollout {request.rollout_id!r} is configured for task {request.task!r}, which "
                    f"is not in the catalog (it has: {', '.join(sorted(self.tasks))})"
                )
            return named
        text = re.sub(r"\s+", " ", "\n".join(m.content for m in request.messages if m.role == "user"))
        matches = [
            task
            for task in self.tasks.values()
            if (instruction := re.sub(r"\s+", " ", task.instruction).strip()) and instruction in text
        ]
        if not matches:
            raise BadRequest(
                f"oracle: rollout {request.rollout_id!r} has no task in its config (PUT "
                '/rollouts/{id}/config with {"task": NAME}) and no task\'s instruction is in the '
                "conversation"
            )
        return max(matches, key=lambda task: len(task.instruction))

    def commands(self, request: GenerationRequest) -> list[str]:
        task = self.task_for(request)
        step = self._step_for(task, request)
        own = step.solution_dir if step is not None else None
        if own is None and not task.has_solution:
            raise BadRequest(f"oracle: task {task.name!r} has no solution/solve.sh")
        key = f"{task.name}/{step.name}" if own is not None and step is not None else task.name
        if key not in self._solutions:
            self._solutions[key] = solution_command(task, own)
        return [self._solutions[key], *super().commands(request)]

    @staticmethod
    def _step_for(task: Task, request: GenerationRequest) -> TaskStep | None:
        """The step of a multi-step task whose instruction the harness was given (each step is a run of
        its own, so its conversation holds that step's instruction)."""
        text = re.sub(r"\s+", " ", "\n".join(m.content for m in request.messages if m.role == "user"))
        found = [s for s in task.steps if (i := re.sub(r"\s+", " ", s.instruction).strip()) and i in text]
        return max(found, key=lambda s: len(s.instruction)) if found else None

    def workdir(self, request: GenerationRequest) -> str | None:
        return self.task_for(request).config.environment.workdir

    def web_step(self, request: GenerationRequest) -> str:
        """forge-web's next action: the next step of the task's solution/actions.json."""
        return next_web_reply(self.task_for(request).solution_dir / "actions.json", request)

    def mcp_turn(self, request: GenerationRequest) -> Generation | None:
        """The script's next step as a Playwright MCP call, for a task whose solution is an action script
        (a claw task's text harness with MCP attached keeps its shell)."""
        actions = self.task_for(request).solution_dir / "actions.json"
        return next_mcp_turn(actions, request) if actions.is_file() else None

    def browser_use_step(self, request: GenerationRequest) -> str:
        """browser-use's next action: the script's next step, its element found by id in browser-use's
        own element list."""
        return next_browser_use_reply(self.task_for(request).solution_dir / "actions.json", request)


class PolicyEngine(Engine):
    """A policy as an engine: plain (usage estimated), or through the token path given a tokenizer."""

    def __init__(self, policy: Policy, tokenizer: str | Path | Any | None = None) -> None:
        self.policy = policy
        self._tokens: TokenEngine | None = None
        if tokenizer is not None:
            tok = load_tokenizer(tokenizer) if isinstance(tokenizer, str | Path) else tokenizer
            vision = (
                VisionPrompt(Path(tokenizer))
                if isinstance(tokenizer, str | Path) and VisionPrompt.found_in(tokenizer)
                else None
            )
            self._tokens = TokenEngine(ScriptedTokens(tok, policy), tok, vision=vision)
        # the policy ignores images; through the token path they need a vision-language model's processor
        # (the directory of one as the tokenizer), which expands each image's pads in the recorded prompt
        self.accepts_images = self._tokens is None or self._tokens.accepts_images

    async def generate(self, request: GenerationRequest) -> Generation:
        if self._tokens is not None:
            generation = await self._tokens.generate(request)
            generation.upstream = self.name
            return generation
        generation = self.policy.next_turn(request)
        completion = len(generation.text) + sum(len(c.arguments) for c in generation.tool_calls)
        generation.usage = Usage(
            prompt_tokens=await self.count_tokens(request), completion_tokens=max(1, completion // 4)
        )
        generation.model, generation.upstream = request.model, self.name
        return generation

    async def count_tokens(self, request: GenerationRequest) -> int:
        if self._tokens is not None:
            return await self._tokens.count_tokens(request)
        return await super().count_tokens(request)


class NopEngine(PolicyEngine):
    """`--engine nop`: the harness runs, nothing is done."""

    name = "nop"

    def __init__(self, tokenizer: str | Path | Any | None = None) -> None:
        super().__init__(NopPolicy(), tokenizer)

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        return cls(tokenizer=options.tokenizer)


class OracleEngine(PolicyEngine):
    """`--engine oracle --catalog DIR`: every rollout runs its task's reference solution."""

    name = "oracle"

    def __init__(
        self, catalog: Path | str | Sequence[Path | str], tokenizer: str | Path | Any | None = None
    ) -> None:
        super().__init__(OraclePolicy(catalog), tokenizer)

    @classmethod
    def from_options(cls, options: EngineOptions) -> Self:
        if not options.catalog:
            raise EngineConfigError("engine 'oracle' needs --catalog DIR (the tasks whose solutions it runs)")
        return cls(catalog=options.catalog, tokenizer=options.tokenizer)
