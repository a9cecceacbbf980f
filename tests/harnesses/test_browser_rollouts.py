"""Every browser harness on catalog/browser tasks, in real task containers with network `model-only`:
the oracle answers it from the task's action script in its own action format (reward 1), doing nothing
scores 0, and nothing is reached beyond the container's loopback (the model's forwarder, the task's own
site, the browser's own port). The text harnesses browse through Playwright MCP: the oracle calls its
tools, never their shell, and a lookup's answer is their final message."""

from __future__ import annotations

import json
from pathlib import Path

import docker
import pytest

from envs.connect_trace import Connect, outside_connects
from envs.image_builder import build_image
from envs.task import Task, load_task
from harnesses.bundle import Bundle
from harnesses.harness import Harness
from harnesses.registry import HARNESSES, get_harness
from proxy.engines.mcp_browser_actions import playwright_tools
from proxy.engines.oracle import NopEngine, OracleEngine
from proxy.engines.shell_tool import find_shell_tool
from proxy.images import ImageBudget
from proxy.session import ProxySession, RunningProxy
from proxy.wire import WIRE_ADAPTERS
from tests.conftest import harness_bundle
from train.rollout import RolloutResult, run_rollout

pytestmark = pytest.mark.docker

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog" / "browser"
TASKS = ("shop-express-skillets", "mail-lookup-invoice-amount", "calendar-cancel-customer-call")
"""A write through a multi-page flow, a lookup with an answer, a change among look-alikes."""
EVERY_TASK = "forge-web"
"""The oracle, traced, and doing nothing on every task: what a task's site makes the browser reach (nothing
beyond the loopback) and that doing nothing scores 0 on it are the task's, and this harness is their
witness (tests/envs/test_browser_env.py's gate runs a nop on the first task too). The others run the oracle
on ORACLE_TASKS, traced on the first (what their own browser and channel reach: the harness's, not the
task's), and do nothing on NOP_TASK only."""
ORACLE_TASKS = ("shop-express-skillets", "mail-lookup-invoice-amount")
"""The tasks the other harnesses run the oracle on: between them every kind of step a script has (goto,
type, key, click, answer, done; the calendar task's are goto, click and done, every selector an `#id`, as
in these), so each harness's own action format meets each kind of step, the answer included."""
NOP_TASK = "mail-lookup-invoice-amount"
"""The one task the other harnesses do nothing on: the lookup, where their nop's final message becomes the
answer, and is scored 0."""
BROWSER_ONLY = [n for n in HARNESSES if get_harness(n).domains == ("browser",)]
"""The harnesses made for the browser."""
WITH_MCP = [n for n in HARNESSES if get_harness(n).domains == ("claw", "browser")]
"""The text harnesses that browse through Playwright MCP (Codex, Claude Code, Qwen Code)."""
ALLOWED = {"127.0.0.1:8000", "127.0.0.1:8080"}
IPV6_PROBE = "[2001:4860:4860::8888]:443"
"""Chromium's IPv6 reachability probe: a UDP socket connect()ed to a public address, which sends
nothing; in the sandbox it fails at once (EADDRNOTAVAIL: no address to send from). No switch of ours
turns it off."""


@pytest.fixture(scope="module")
def tasks(client: docker.DockerClient, base_image: str) -> list[tuple[Task, str]]:
    built = []
    for name in TASKS:
        task = load_task(CATALOG / name)
        result = build_image(client, task)
        assert result.ok and result.tag, result.error
        built.append((task, result.tag))
    return built


def _explain(result: RolloutResult) -> str:
    run = result.harness_run
    if run is None:
        return f"{result.error_class}: {result.error}"
    verifier = result.verifier.stdout[-1500:] if result.verifier else ""
    return (
        f"{result.status} reward={result.reward} harness={run.status} exit={run.exit_code} "
        f"error={run.error or run.harness_error}\nstderr: {run.stderr_tail[-1500:]}\n"
        f"verifier: {verifier}\nlogs: {result.logs_dir}"
    )


def _reached_outside(connects: list[Connect]) -> list[Connect]:
    """What was tried beyond the container's loopback (the model's forwarder, the site, the harness's
    own channel to Chromium: browser-use drives it over CDP on a loopback port), but Chromium's probe
    when it could not leave."""
    return [
        c
        for c in outside_connects(connects, ALLOWED)
        if c.host not in ("127.0.0.1", "::1") and not (c.address == IPV6_PROBE and c.result.startswith("-1 "))
    ]


@pytest.mark.parametrize("name", BROWSER_ONLY)
def test_a_browser_harness_scores_one_with_the_oracle_and_zero_doing_nothing(
    name: str, tasks: list[tuple[Task, str]], tmp_path: Path
) -> None:
    """The oracle on ORACLE_TASKS, traced on the first (EVERY_TASK's: every task, each traced); the nop on
    NOP_TASK (EVERY_TASK's: on all)."""
    harness = get_harness(name)
    bundle = harness_bundle(harness)
    with ProxySession(OracleEngine(CATALOG), tmp_path / "oracle") as proxy:
        for index, (task, image) in enumerate(_oracle_tasks(name, tasks)):
            trace = _traced(name, index)
            result = run_rollout(
                task, image, harness, bundle, proxy, model="forge-policy", logs_root=tmp_path, trace=trace
            )
            assert result.status == "scored" and result.reward == 1.0, _explain(result)
            run = result.harness_run
            assert run is not None and run.status == "completed", _explain(result)
            assert result.calls >= 3, "one call a browser action"
            if trace:
                _check_reached_the_site_only(name, result)
            assert (result.logs_dir / "agent" / "screenshots").is_dir(), "its screenshots are kept"
    _check_doing_nothing_scores_zero(harness, bundle, tasks, tmp_path)


def _oracle_tasks(name: str, tasks: list[tuple[Task, str]]) -> list[tuple[Task, str]]:
    """Every task for EVERY_TASK; ORACLE_TASKS, in that order, for the others."""
    if name == EVERY_TASK:
        return tasks
    chosen = [t for t in tasks if t[0].path.name in ORACLE_TASKS]
    assert len(chosen) == len(ORACLE_TASKS), ORACLE_TASKS
    return sorted(chosen, key=lambda t: ORACLE_TASKS.index(t[0].path.name))


def _traced(name: str, index: int) -> bool:
    """Whether the harness's rollout of the index-th task runs under strace (see EVERY_TASK)."""
    return index == 0 or name == EVERY_TASK


def _check_reached_the_site_only(name: str, result: RolloutResult) -> None:
    """The traced rollout's browser reached the site, and nothing beyond the container's loopback."""
    run = result.harness_run
    assert run is not None and run.connects, _explain(result)
    assert any(c.address == "127.0.0.1:8080" for c in run.connects), "the browser reached the site"
    outside = _reached_outside(run.connects)
    assert not outside, f"{name} tried to reach {outside}"


def _check_doing_nothing_scores_zero(
    harness: Harness, bundle: Bundle, tasks: list[tuple[Task, str]], tmp_path: Path
) -> None:
    """Doing nothing scores 0: on every task with EVERY_TASK, on NOP_TASK with the others."""
    nop_tasks = tasks if harness.name == EVERY_TASK else [t for t in tasks if t[0].path.name == NOP_TASK]
    assert nop_tasks, NOP_TASK
    with ProxySession(NopEngine(), tmp_path / "nop") as proxy:
        for task, image in nop_tasks:
            result = run_rollout(
                task, image, harness, bundle, proxy, model="forge-policy", logs_root=tmp_path
            )
            assert result.status == "scored" and result.reward == 0.0, _explain(result)


def _tool_calls(proxy: RunningProxy, rollout_id: str) -> tuple[list[str], set[str], set[str]]:
    """The tool calls the model made in a rollout (by name, in order, from its last request's history)
    and the names of its Playwright and shell tools."""
    calls = proxy.store.calls(rollout_id)
    assert calls, "the harness called the model"
    requests = [
        WIRE_ADAPTERS[c.wire_api].parse(c.request, ImageBudget())[0]
        for c in calls
        if isinstance(c.request, dict)
    ]
    main = max(requests, key=lambda r: len(r.messages))
    made = [t.name for m in main.messages if m.role == "assistant" for t in m.tool_calls]
    shell = find_shell_tool(main.tools)
    return made, {t.name for t in playwright_tools(main.tools).values()}, {shell.name} if shell else set()


@pytest.mark.parametrize("name", WITH_MCP)
def test_a_text_harness_browses_through_playwright_mcp(
    name: str, tasks: list[tuple[Task, str]], tmp_path: Path
) -> None:
    """The oracle on ORACLE_TASKS, traced on the first; the nop on NOP_TASK."""
    harness = get_harness(name)
    bundle = harness_bundle(harness)
    with ProxySession(OracleEngine(CATALOG), tmp_path / "oracle") as proxy:
        for index, (task, image) in enumerate(_oracle_tasks(name, tasks)):
            trace = _traced(name, index)
            result = run_rollout(
                task, image, harness, bundle, proxy, model="forge-policy", logs_root=tmp_path, trace=trace
            )
            assert result.status == "scored" and result.reward == 1.0, _explain(result)
            made, browser_tools, shell = _tool_calls(proxy, result.rollout_id)
            assert browser_tools and shell, "the harness lists Playwright's tools beside its shell"
            script = json.loads((task.solution_dir / "actions.json").read_text())
            browsing = [s for s in script if s["action"] not in ("answer", "done")]
            assert len(made) == len(browsing), f"one Playwright call a scripted step: {made}"
            assert set(made) <= browser_tools and not set(made) & shell, made
            if trace:
                _check_reached_the_site_only(name, result)
    _check_doing_nothing_scores_zero(harness, bundle, tasks, tmp_path)
