"""The oracle and nop policies: which task a rollout is for, the harness's own shell tool, the plan."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import httpx
import pytest

from envs.task import Task, load_task
from proxy.conversation import GenerationRequest, Message, Tool, ToolCall
from proxy.engines.oracle import (
    FINAL_MESSAGE,
    HEREDOC_END,
    INLINE_MAX_BYTES,
    NOP_MESSAGE,
    NopEngine,
    OracleEngine,
    solution_command,
)
from proxy.errors import BadRequest
from proxy.records import WireApi
from proxy.session import ProxySession
from proxy.wire import WIRE_ADAPTERS
from tests.conftest import write_task

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog" / "claw"
FIXTURES = Path(__file__).parent / "fixtures" / "harness_requests"
SHELL = Tool(name="bash", parameters={"type": "object", "properties": {"command": {"type": "string"}}})


def _request(
    task: str | None, user: str = "do the task", tools: list[Tool] | None = None, rollout: str = "r-0001"
) -> GenerationRequest:
    """A call of rollout `rollout`, whose per-rollout config names `task` (None: names none)."""
    return GenerationRequest(
        model="m",
        messages=[Message(role="system", content="sys"), Message(role="user", content=user)],
        tools=[SHELL] if tools is None else tools,
        rollout_id=rollout,
        task=task,
    )


def _generate(engine: OracleEngine | NopEngine, request: GenerationRequest):  # type: ignore[no-untyped-def]
    return asyncio.run(engine.generate(request))


def test_the_rollout_config_names_the_task() -> None:
    engine = OracleEngine(CATALOG)
    generation = _generate(engine, _request("csv-sales-summary"))
    assert generation.finish_reason == "tool_calls"
    command = json.loads(generation.tool_calls[0].arguments)["command"]
    assert command == solution_command(load_task(CATALOG / "csv-sales-summary"))


def test_the_rollout_id_is_never_read_for_the_task() -> None:
    """An id that looks like another task's (the old `<task>--<suffix>` form) changes nothing."""
    request = _request("csv-sales-summary", rollout="rotate-backups--codex-1234")
    command = json.loads(_generate(OracleEngine(CATALOG), request).tool_calls[0].arguments)["command"]
    assert command == solution_command(load_task(CATALOG / "csv-sales-summary"))
    with pytest.raises(BadRequest, match="has no task in its config"):
        _generate(OracleEngine(CATALOG), _request(None, rollout="rotate-backups--codex-1234"))


def test_the_instruction_names_the_task_when_the_config_does_not() -> None:
    engine = OracleEngine(CATALOG)
    instruction = load_task(CATALOG / "rotate-backups").instruction
    wrapped = f"<environment>cwd: /app</environment>\n\n{instruction}\n\nBe careful."
    generation = _generate(engine, _request(None, user=wrapped))
    command = json.loads(generation.tool_calls[0].arguments)["command"]
    assert command == solution_command(load_task(CATALOG / "rotate-backups"))


def test_an_unknown_task_is_a_clear_error() -> None:
    with pytest.raises(BadRequest, match="has no task in its config"):
        _generate(OracleEngine(CATALOG), _request(None))
    with pytest.raises(
        BadRequest, match="configured for task 'nothing-like-it', which is not in the catalog"
    ):
        _generate(OracleEngine(CATALOG), _request("nothing-like-it"))


def test_a_harbor_org_name_task_is_named_by_its_config(tmp_path: Path) -> None:
    toml = '[task]\nname = "acme/make-done"\n[environment]\nworkdir = "/app"\n'
    task = load_task(write_task(tmp_path, "make-done", toml=toml))
    engine = OracleEngine(tmp_path)
    generation = _generate(engine, _request("acme/make-done", rollout="acme__make-done--codex-0-0001"))
    assert json.loads(generation.tool_calls[0].arguments)["command"] == solution_command(task)
    with pytest.raises(BadRequest, match="not in the catalog"):
        _generate(engine, _request("acme/other"))


def test_the_task_travels_from_the_control_app_to_the_oracle(tmp_path: Path) -> None:
    """`PUT /rollouts/{id}/config {"task": ...}` on the control socket is what the oracle answers by; a
    rollout without one gets the instruction's task, and a bad config is refused there."""
    body = {"model": "m", "messages": [{"role": "user", "content": "do it"}], "tools": [
        {"type": "function", "function": {"name": "bash", "parameters": SHELL.parameters}},
    ]}  # fmt: skip
    with ProxySession(OracleEngine(CATALOG), tmp_path / "run") as proxy:
        control = httpx.Client(
            transport=httpx.HTTPTransport(uds=str(proxy.control_socket)), base_url="http://p"
        )
        model = httpx.Client(transport=httpx.HTTPTransport(uds=str(proxy.socket)), base_url="http://p")
        with control, model:
            assert control.put("/rollouts/r1/config", json={"task": "rotate-backups"}).status_code == 200
            assert control.put("/rollouts/r2/config", json={"task": ""}).status_code == 422
            answer = model.post("/rollouts/r1/v1/chat/completions", json=body)
            unnamed = model.post("/rollouts/r2/v1/chat/completions", json=body)
    (call,) = answer.json()["choices"][0]["message"]["tool_calls"]
    expected = solution_command(load_task(CATALOG / "rotate-backups"))
    assert json.loads(call["function"]["arguments"])["command"] == expected
    assert unnamed.status_code == 400 and "has no task in its config" in unnamed.text


def test_after_the_solution_ran_the_oracle_is_done() -> None:
    request = _request("organize-downloads")
    request.messages += [
        Message(role="assistant", tool_calls=[ToolCall(id="c1", name="bash", arguments="{}")]),
        Message(role="tool", tool_call_id="c1", content="oracle: solve.sh exited 0"),
    ]
    generation = _generate(OracleEngine(CATALOG), request)
    assert (generation.text, generation.tool_calls) == (FINAL_MESSAGE, [])


def test_a_call_without_tools_gets_text() -> None:
    generation = _generate(OracleEngine(CATALOG), _request("organize-downloads", tools=[]))
    assert generation.text == FINAL_MESSAGE and not generation.tool_calls


def test_nop_answers_at_once_and_submits_when_asked() -> None:
    assert _generate(NopEngine(), _request(None)).text == NOP_MESSAGE
    asking = _request(None, user="When done, run `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`.")
    generation = _generate(NopEngine(), asking)
    assert json.loads(generation.tool_calls[0].arguments) == {
        "command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"
    }


def test_the_oracle_submits_after_the_solution_when_asked() -> None:
    request = _request("organize-downloads", user="Submit with echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")
    request.messages += [
        Message(role="assistant", tool_calls=[ToolCall(id="c1", name="bash", arguments="{}")]),
        Message(role="tool", tool_call_id="c1", content="ok"),
    ]
    generation = _generate(OracleEngine(CATALOG), request)
    assert "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" in generation.tool_calls[0].arguments


@pytest.mark.parametrize(
    ("fixture", "api", "shell", "key"),
    [
        ("codex", WireApi.RESPONSES, "exec_command", "cmd"),
        ("claude", WireApi.MESSAGES, "Bash", "command"),
        ("qwen", WireApi.CHAT, "run_shell_command", "command"),
    ],
)
def test_each_real_harness_request_gets_a_call_of_its_own_shell_tool(
    fixture: str, api: WireApi, shell: str, key: str
) -> None:
    body = json.loads((FIXTURES / f"{fixture}.json").read_text())["request"]["body"]
    request, _ = WIRE_ADAPTERS[api].parse(body, None)
    request.task = "git-release-chore"
    generation = _generate(OracleEngine(CATALOG), request)
    (call,) = generation.tool_calls
    assert call.name == shell
    arguments = json.loads(call.arguments)
    assert arguments[key] == solution_command(load_task(CATALOG / "git-release-chore"))


def _solution_task(tmp_path: Path, solve_sh: str, files: dict[str, str] | None = None) -> tuple[Task, Path]:
    workdir = tmp_path / "work"
    workdir.mkdir()
    toml = f"""
        [task]
        name = "t"
        [environment]
        workdir = "{workdir}"
        [solution.env]
        GREETING = "hello"
    """
    return load_task(write_task(tmp_path, "t", toml=toml, solve_sh=solve_sh, files=files)), workdir


def test_a_short_solution_is_sent_as_its_own_text(tmp_path: Path) -> None:
    task, workdir = _solution_task(tmp_path, 'echo "$GREETING from $(pwd)" > out.txt\n')
    command = solution_command(task)
    assert command == f'cd {workdir} && export GREETING=hello; echo "$GREETING from $(pwd)" > out.txt'
    assert subprocess.run(["bash", "-c", command]).returncode == 0
    assert (workdir / "out.txt").read_text() == f"hello from {workdir}\n"


def test_a_longer_script_goes_as_readable_text_and_runs_in_the_workdir(tmp_path: Path) -> None:
    lines = "".join(f"echo line {i} >> lines.txt  # {'padding ' * 6}\n" for i in range(12))
    solve = f"cat > note.txt <<'EOF'\n$GREETING stays literal\nEOF\n{lines}exit 4\n"
    task, workdir = _solution_task(tmp_path, solve)
    assert (task.solution_dir / "solve.sh").stat().st_size > INLINE_MAX_BYTES
    command = solution_command(task)
    assert "base64" not in command and "echo line 11 >> lines.txt" in command  # the script, as written
    before = set(Path("/tmp").glob("forge-oracle.*"))
    proc = subprocess.run(["bash", "-c", command], capture_output=True, text=True)
    assert proc.returncode == 4 and "oracle: solve.sh exited 4" in proc.stdout
    assert (workdir / "note.txt").read_text() == "$GREETING stays literal\n"  # its own heredoc intact
    assert len((workdir / "lines.txt").read_text().splitlines()) == 12
    assert set(Path("/tmp").glob("forge-oracle.*")) <= before


def test_a_script_holding_the_heredoc_end_is_packed_instead(tmp_path: Path) -> None:
    solve = f"cat > out.txt <<'{HEREDOC_END}'\nx\n{HEREDOC_END}\n" + "# padding\n" * 60
    task, workdir = _solution_task(tmp_path, solve)
    command = solution_command(task)
    assert "base64 -d" in command
    assert subprocess.run(["bash", "-c", command], capture_output=True).returncode == 0
    assert (workdir / "out.txt").read_text() == "x\n"


def test_a_bigger_solution_is_packed_and_run_in_the_workdir(tmp_path: Path) -> None:
    solve = 'echo "$GREETING from $(pwd) with $(cat "$(dirname "$0")/data.txt")" > out.txt\nexit 3\n'
    task, workdir = _solution_task(tmp_path, solve, files={"solution/data.txt": "extra"})
    before = set(Path("/tmp").glob("forge-oracle.*"))
    proc = subprocess.run(["bash", "-c", solution_command(task)], capture_output=True, text=True)
    assert proc.returncode == 3  # solve.sh's own exit code comes back
    assert "oracle: solve.sh exited 3" in proc.stdout
    assert (workdir / "out.txt").read_text() == f"hello from {workdir} with extra\n"
    assert set(Path("/tmp").glob("forge-oracle.*")) <= before  # its temporary folder is gone


def test_the_oracle_runs_on_the_token_path(tiny_model_dir: Path) -> None:
    engine = OracleEngine(CATALOG, tokenizer=tiny_model_dir)
    generation = _generate(engine, _request("organize-downloads"))
    assert generation.tool_calls and generation.tool_calls[0].name == "bash"
    assert generation.prompt_ids and generation.completion_ids
    assert generation.logprobs == [0.0] * len(generation.completion_ids)
