"""The `forge-env` console script: envs' own commands (check, base, build, verify, gc) plus the two that
compose the other packages, `harness list|build` and `run`. envs imports neither harnesses nor the proxy,
so the app is put together here, at the one level allowed to use all three, from a new Typer app (envs'
own app is not changed).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from envs import cli as envs_cli
from envs.cli import VerifierNetworkOpt
from envs.cli_support import (
    BackendOpt,
    KubeconfigOpt,
    NamespaceOpt,
    RegistryOpt,
    console,
    fail,
    interruptible,
    use_backend,
)
from envs.docker_client import docker_client
from envs.errors import EnvsError
from envs.image_builder import build_image
from envs.task import Task, is_task_dir, load_task
from harnesses.bundle import build_bundle, find_bundle
from harnesses.cli import harness_app
from harnesses.errors import InstallError
from harnesses.registry import DEFAULT_HARNESS
from proxy.session import ProxySession
from train.cli.common import (
    DEFAULT_CATALOG,
    USAGE,
    JudgeModelOpt,
    JudgeUrlOpt,
    default_run_dir,
    engine_or_fail,
    harness_or_fail,
    judge_config_or_fail,
)
from train.rollout import run_rollout

app = typer.Typer(
    help="Task environments: check, build, verify, clean up; harness bundles; single rollouts.",
    no_args_is_help=True,
    add_completion=False,
)
app.registered_commands.extend(envs_cli.app.registered_commands)  # check, base, build, verify, gc
app.add_typer(harness_app, name="harness")


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _resolve_task(task: str, catalog: Path) -> Task:
    path = Path(task)
    if not is_task_dir(path):
        path = catalog / task
    if not is_task_dir(path):
        raise fail(f"{task!r} is neither a task directory nor a task of {catalog}", USAGE)
    try:
        return load_task(path)
    except EnvsError as exc:
        raise fail(str(exc), USAGE) from exc


@app.command()
def run(
    task: Annotated[str, typer.Argument(help="A task directory, or a task name in --catalog.")],
    harness: Annotated[str, typer.Option("--harness", "-H", help="Harness name.")] = DEFAULT_HARNESS,
    model: Annotated[
        str, typer.Option(help="An engine (oracle, nop, local, vllm, ...) or an OpenAI-compatible URL.")
    ] = "oracle",
    engine: Annotated[str | None, typer.Option(help="Engine name, when --model is not one.")] = None,
    catalog: Annotated[Path, typer.Option("--catalog", "-c", help="Where task names are looked up.")] = (
        DEFAULT_CATALOG
    ),
    model_name: Annotated[str, typer.Option(help="The model name the harness asks for.")] = "forge-policy",
    upstream: Annotated[list[str], typer.Option(help="Engine URL (local, sglang, vllm, ...).")] = [],  # noqa: B006
    upstream_model: Annotated[str | None, typer.Option(help="Model name sent upstream.")] = None,
    tokenizer: Annotated[Path | None, typer.Option(help="Model directory (tokenizer, template).")] = None,
    api_key_env: Annotated[str | None, typer.Option(help="Env var holding the upstream key.")] = None,
    timeout: Annotated[float | None, typer.Option(help="Agent timeout (default: the task's).")] = None,
    max_turns: Annotated[int | None, typer.Option(help="Turn limit, where the harness has one.")] = None,
    trace: Annotated[bool, typer.Option(help="Run the harness under strace; list what it reached.")] = False,
    run_dir: Annotated[Path | None, typer.Option(help="Where records and logs go.")] = None,
    verifier_network: VerifierNetworkOpt = False,
    judge_url: JudgeUrlOpt = None,
    judge_model: JudgeModelOpt = None,
    backend: BackendOpt = "docker",
    namespace: NamespaceOpt = None,
    kubeconfig: KubeconfigOpt = None,
    registry: RegistryOpt = None,
) -> None:
    """One rollout: TASK's sandbox, HARNESS headless in it through the proxy, then the hidden tests (and
    the judge, for an open-ended task)."""
    use_backend(backend, namespace, kubeconfig, registry)
    from train.judge import WebJudge

    loaded = _resolve_task(task, catalog)
    chosen = harness_or_fail(harness)
    judge_config = judge_config_or_fail(judge_url, judge_model)
    if loaded.config.verifier.judge and judge_config is None:
        raise fail(
            f"{loaded.name} is open-ended ([verifier] judge = true): give a judge (--judge-url)", USAGE
        )
    run_dir = run_dir or default_run_dir("env-run")
    with interruptible():
        engine_name, proxy_engine = engine_or_fail(
            model,
            engine,
            [catalog, loaded.path],
            upstream=upstream,
            upstream_model=upstream_model,
            tokenizer=tokenizer,
            api_key_env=api_key_env,
        )
        started = time.monotonic()
        try:
            client = docker_client()
            with console.status(f"building the image of {loaded.name}"):
                built = build_image(client, loaded)
            if not built.ok or built.tag is None:
                raise fail(f"task {loaded.name}: {built.error}")
            image = built.tag
            bundle = find_bundle(chosen)
            if bundle is None:
                with console.status(f"installing {chosen.name} {chosen.version} into its bundle (once)"):
                    bundle = build_bundle(chosen)
        except (EnvsError, InstallError) as exc:
            raise fail(str(exc)) from exc
        doing = f"{chosen.name} on {loaded.name} through engine {engine_name}"
        with ProxySession(proxy_engine, run_dir) as proxy, console.status(doing):
            result = run_rollout(
                loaded,
                image,
                chosen,
                bundle,
                proxy,
                model=model_name,
                logs_root=run_dir / "rollouts",
                run=run_dir.name,
                timeout=timeout,
                max_turns=max_turns,
                trace=trace,
                verifier_network=verifier_network,
                judge=WebJudge(judge_config) if judge_config else None,
            )
    table = Table(show_header=False, title=f"forge-env run: {loaded.name} with {chosen.name}")
    reward = "-" if result.reward is None else f"{result.reward:g}"
    table.add_row("reward", f"[bold]{reward}[/bold] ({result.status})")
    if result.harness_run is not None:
        h = result.harness_run
        exit_text = f"{h.status}, exit {h.exit_code}, {h.duration_sec:.1f}s"
        table.add_row("harness", f"{chosen.name} {chosen.version}: {exit_text}")
        if result.judge is not None:
            verdict = "success" if result.judge.success else "failure"
            table.add_row(
                "judge", f"{result.judge.model}: {verdict} ({len(result.judge.evidence)} screenshots)"
            )
        if h.final_message:
            table.add_row("final message", escape(h.final_message[:300]))
        if h.connects is not None:
            table.add_row(
                "addresses tried",
                escape(", ".join(sorted({c.address for c in h.connects if c.address})) or "none"),
            )
    for step in result.steps:
        table.add_row(
            f"step {step.name}", f"reward {_fmt(step.verifier.reward)}, harness {step.harness_run.status}"
        )
    if result.verifier is not None and result.verifier.exit_code is not None:
        where = result.logs_dir / ("steps/" + result.steps[-1].name if result.steps else "") / "verifier"
        table.add_row("tests", f"exit {result.verifier.exit_code}; output in {where}/")
    table.add_row("model calls", f"{result.calls} recorded, {result.chains} token chain(s)")
    table.add_row("records", str(run_dir / "calls.sqlite"))
    table.add_row("logs", str(result.logs_dir))
    table.add_row("time", f"{time.monotonic() - started:.1f}s")
    if result.error:
        table.add_row("error", f"[red]{escape(result.error_class or '')}: {escape(result.error)}[/red]")
    console.print(table)
    if result.status == "infra-error":
        raise typer.Exit(1)
