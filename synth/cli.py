"""`forge-synth`: the task-synthesis pipeline, one command per stage, all of them resumable.

forge-synth propose --domain claw|browser [--pool DIR|hf:NAME ...] --n N --seed S
                    [--offline | --model URL --model-name M] [--personas FILE] [--dry-run] [--out RUN_DIR]
                    (neither --offline nor --model: the LLM at $FORGE_SYNTH_MODEL_URL or $OPENAI_BASE_URL
                    when one is set, else the offline families; no --out: a new runs/synth-DOMAIN-TIME)
forge-synth prune RUN_DIR        forge-synth build RUN_DIR        forge-synth refine RUN_DIR
forge-synth test RUN_DIR [--policy URL|ENGINE|DIR --harness NAME -k K --band LO,HI]
forge-synth run --domain claw|browser --offline --n 300 --out RUN_DIR    (all five, until n accepted)
forge-synth status RUN_DIR       forge-synth export RUN_DIR --catalog DIR
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.progress import TaskID
from rich.table import Table

from envs.cli_support import (
    BackendOpt,
    KubeconfigOpt,
    NamespaceOpt,
    RegistryOpt,
    console,
    err,
    fail,
    interruptible,
    progress_bar,
    use_backend,
)
from envs.docker_client import docker_client
from envs.errors import EnvsError
from synth.cli_options import (
    BandOpt,
    DomainOpt,
    FamiliesOpt,
    HarnessOpt,
    JobsOpt,
    KeyOpt,
    KOpt,
    MinhashOpt,
    ModelNameOpt,
    ModelOpt,
    NoForgeryOpt,
    NOpt,
    NoSemanticOpt,
    OfflineOpt,
    OutOpt,
    PersonasOpt,
    PolicyOpt,
    PoolOpt,
    RoundsOpt,
    RunArg,
    SeedOpt,
    SemanticOpt,
    make_proposer,
    new_run_dir,
    personas_from,
    run_settings,
)
from synth.errors import ModelUnavailable, SynthError
from synth.run_dir import RunDir
from synth.spec import Proposal, ProposeRequest
from train.cli.common import DEFAULT_HARNESS, USAGE

if TYPE_CHECKING:
    import docker

    from synth.proposer import FileWriter, Proposer
    from synth.prune import PruneConfig
    from synth.trial import Band, PolicyTrial

app = typer.Typer(
    help="Synthesize verified tasks: propose, prune, build, test, refine.",
    no_args_is_help=True,
    add_completion=False,
)


def _writer(proposer: Proposer) -> FileWriter | None:
    return proposer if hasattr(proposer, "write_files") else None  # type: ignore[return-value]


def _open(run_dir: Path) -> RunDir:
    try:
        return RunDir.open(run_dir)
    except SynthError as exc:
        raise fail(str(exc), USAGE) from exc


@contextmanager
def _docker() -> Iterator[docker.DockerClient]:
    with interruptible():
        try:
            yield docker_client()
        except ModelUnavailable as exc:
            raise fail(f"{exc} (rerun the same command to go on: nothing done is lost)", 1) from exc
        except (EnvsError, SynthError) as exc:
            raise fail(str(exc), 1) from exc


def _print_status(run: RunDir) -> None:
    from synth.status import run_status

    status = run_status(run)
    table = Table("stage", "in", "out", "dropped / failed (why)", title=f"forge-synth status {run.path}")
    why = lambda counts: ", ".join(f"{k}: {v}" for k, v in counts.most_common()) or "-"  # noqa: E731
    table.add_row("propose", str(status.first_attempts), str(status.proposals), why(status.rejected))
    judged = status.kept + sum(status.dropped.values())
    table.add_row("prune", str(judged), str(status.kept), why(status.dropped))
    table.add_row("build", str(status.built + sum(status.build_failed.values())), str(status.built),
                  why(status.build_failed))  # fmt: skip
    tested = status.verified + sum(v for k, v in status.test_failed.items() if k not in ("band",))
    table.add_row("test", str(tested), str(len(status.accepted)), why(status.test_failed))
    table.add_row("refine", str(status.refinements), str(status.refined_versions), "-")
    console.print(table)
    seconds, tokens = status.per_accepted()
    spent = ", ".join(f"{k} {v:.0f}s" for k, v in sorted(status.seconds.items()))
    console.print(f"accepted: {len(status.accepted)}; time spent: {spent or '-'}")
    if seconds is not None:
        tok = f", {tokens:.0f} model tokens" if status.prompt_tokens + status.completion_tokens else ""
        console.print(f"cost per accepted task: {seconds:.1f} s of stage time{tok}")
    if status.by_family:
        console.print(
            "accepted per family: " + ", ".join(f"{k} {v}" for k, v in sorted(status.by_family.items()))
        )


@app.command()
def propose(
    out: OutOpt = None,
    domain: DomainOpt = "claw",
    pool: PoolOpt = [],  # noqa: B006
    n: NOpt = 20,
    seed: SeedOpt = 0,
    model: ModelOpt = None,
    model_name: ModelNameOpt = None,
    api_key_env: KeyOpt = "OPENAI_API_KEY",
    offline: OfflineOpt = False,
    family: FamiliesOpt = [],  # noqa: B006
    personas: PersonasOpt = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print what would be asked; call nothing.")
    ] = False,
) -> None:
    """Proposals grounded in asset pools, from an LLM or the offline families; each with its provenance."""
    settings = run_settings(domain, pool, seed, offline, model, model_name, family)
    proposer = make_proposer(settings, api_key_env)
    chosen = personas_from(personas)
    if dry_run:
        request = ProposeRequest(domain=domain, n=n, seed=seed, personas=chosen)
        if hasattr(proposer, "prompts"):
            for i, messages in enumerate(proposer.prompts(request)):
                console.rule(f"proposal {i}")
                for message in messages:
                    console.print(f"[bold]{message['role']}[/bold]")
                    console.print(escape(str(message["content"])))
        else:
            for made, _ in proposer.propose(request):
                line = made.id + (f": {made.title}" if isinstance(made, Proposal) else f": {made.error}")
                console.print(escape(line))
        return
    from synth.stages.propose import propose_stage

    out = new_run_dir(out, domain)
    try:
        run = RunDir.create(out, settings)
    except SynthError as exc:
        raise fail(str(exc), USAGE) from exc
    with _docker(), progress_bar() as progress:
        bar = progress.add_task("proposing", total=n)
        summary = propose_stage(
            run,
            proposer,
            n,
            chosen,
            lambda made: progress.update(bar, advance=1, description=f"proposed {made.id}"),
        )
    console.print(
        f"{summary.total} first attempts in {out} ({summary.made} new proposals, {summary.rejected} rejected)"
    )
    console.print(
        f"next: forge-synth prune {out}, then build, test and refine it the same way "
        f"(or forge-synth run --out {out} with the same options for all four)"
    )


def _prune_config(
    minhash_threshold: float, semantic_threshold: float | None, no_semantic: bool
) -> PruneConfig:
    from synth.prune import PruneConfig

    updates: dict[str, object] = {"minhash_threshold": minhash_threshold, "semantic": not no_semantic}
    if semantic_threshold is not None:
        updates["semantic_threshold"] = semantic_threshold
    try:
        return PruneConfig.model_validate(PruneConfig().model_dump() | updates)
    except ValueError as exc:
        raise fail(f"prune thresholds: {exc}", USAGE) from exc


@app.command()
def prune(
    run_dir: RunArg,
    minhash_threshold: MinhashOpt = 0.8,
    semantic_threshold: SemanticOpt = None,
    no_semantic: NoSemanticOpt = False,
    blocklist: Annotated[
        list[Path],
        typer.Option(help="Catalogs no task may duplicate (default: catalog/<domain>); repeatable."),
    ] = [],  # noqa: B006
) -> None:
    """Drop duplicates (exact, MinHash, embeddings), tasks of the evaluation catalogs, weak proposals."""
    from synth.stages.prune import prune_stage

    run = _open(run_dir)
    config = _prune_config(minhash_threshold, semantic_threshold, no_semantic)
    with console.status("pruning"):
        made = prune_stage(run, config, blocklist or None)
    kept = sum(d.kept for d in made)
    console.print(
        f"{len(made)} judged: {kept} kept, {len(made) - kept} dropped; "
        f"reasons in {run_dir}/prune-report.jsonl"
    )


@app.command()
def build(run_dir: RunArg, jobs: JobsOpt = 2, api_key_env: KeyOpt = "OPENAI_API_KEY") -> None:
    """Each survivor becomes a task directory that loads, and its image builds (content-hash cached)."""
    from synth.stages.build import build_stage

    run = _open(run_dir)
    writer = _writer(make_proposer(run.settings, api_key_env))
    with _docker() as client, progress_bar() as progress:
        bar = progress.add_task("building", total=None)
        made = build_stage(
            run, client, writer, jobs, lambda r: progress.update(bar, advance=1, description=f"built {r.id}")
        )
    ok = sum(r.ok for r in made)
    console.print(f"{len(made)} built: {ok} ok, {len(made) - ok} failed; records in {run_dir}/build.jsonl")


@contextmanager
def _trial(
    run: RunDir, policy: str | None, harness: str, k: int, concurrency: int, max_turns: int | None
) -> Iterator[PolicyTrial | None]:
    """The policy's rollouts (served behind our proxy, in the harness's bundle), or None without one."""
    if policy is None:
        yield None
        return
    from synth.trial import PolicyTrial
    from train.cli.common import bundle_or_fail, harness_or_fail, model_serving

    chosen = harness_or_fail(harness)
    bundle = bundle_or_fail(chosen)
    rollouts = run.path / "rollouts"
    _, serving = model_serving(policy, None, [run.tasks], rollouts)
    with serving as proxy:
        yield PolicyTrial(
            chosen, bundle, proxy, "forge-policy", k, rollouts, concurrency=concurrency, max_turns=max_turns
        )


@app.command()
def test(
    run_dir: RunArg,
    policy: PolicyOpt = None,
    harness: HarnessOpt = DEFAULT_HARNESS,
    k: KOpt = 4,
    band: BandOpt = "0,1",
    jobs: JobsOpt = 2,
    runs: Annotated[int, typer.Option("--runs", min=1, help="Oracle runs per task; each must score 1.")] = 2,
    no_forgery: NoForgeryOpt = False,
    concurrency: Annotated[int, typer.Option(min=1, help="Rollouts at once.")] = 2,
    max_turns: Annotated[int | None, typer.Option(help="Turn limit, where the harness has one.")] = None,
    backend: BackendOpt = "docker",
    namespace: NamespaceOpt = None,
    kubeconfig: KubeconfigOpt = None,
    registry: RegistryOpt = None,
) -> None:
    """The gate on every built task, then (with --policy) K rollouts each, kept if the pass rate is in
    the band; every failure classified as task-side or agent-side."""
    use_backend(backend, namespace, kubeconfig, registry)
    from synth.stages.test import test_stage

    run = _open(run_dir)
    chosen = _band(band)
    with (
        _docker() as client,
        _trial(run, policy, harness, k, concurrency, max_turns) as trial,
        progress_bar() as progress,
    ):
        bar = progress.add_task("testing", total=None)
        made = test_stage(
            run,
            client,
            jobs=jobs,
            runs=runs,
            forgery=not no_forgery,
            trial=trial,
            band=chosen,
            on_done=lambda r: progress.update(bar, advance=1, description=f"tested {r.id}"),
        )
    accepted = sum(r.accepted for r in made)
    console.print(f"{len(made)} tested: {accepted} accepted; records in {run_dir}/test.jsonl")


def _band(text: str) -> Band:
    from synth.trial import Band

    try:
        return Band.parse(text)
    except ValueError as exc:
        raise fail(str(exc), USAGE) from exc


@app.command()
def refine(run_dir: RunArg, max_rounds: RoundsOpt = 1, api_key_env: KeyOpt = "OPENAI_API_KEY") -> None:
    """Failed proposals go back to the proposer with the evidence; the new versions then go through
    prune, build and test (rerun them, or use `run`)."""
    from synth.stages.refine import refine_stage

    run = _open(run_dir)
    proposer = make_proposer(run.settings, api_key_env)
    with _docker():
        made = refine_stage(run, proposer, max_rounds)
    new = sum(r.new_id is not None for r in made)
    console.print(f"{len(made)} sent back: {new} new versions; records in {run_dir}/refine.jsonl")


@app.command()
def run(
    out: OutOpt = None,
    domain: DomainOpt = "claw",
    pool: PoolOpt = [],  # noqa: B006
    n: Annotated[int, typer.Option("--n", "-n", min=1, help="Accepted tasks to reach.")] = 20,
    seed: SeedOpt = 0,
    model: ModelOpt = None,
    model_name: ModelNameOpt = None,
    api_key_env: KeyOpt = "OPENAI_API_KEY",
    offline: OfflineOpt = False,
    family: FamiliesOpt = [],  # noqa: B006
    personas: PersonasOpt = None,
    max_proposals: Annotated[int | None, typer.Option(help="First attempts at most (default 3 n).")] = None,
    max_rounds: RoundsOpt = 1,
    jobs: JobsOpt = 2,
    policy: PolicyOpt = None,
    harness: HarnessOpt = DEFAULT_HARNESS,
    k: KOpt = 4,
    band: BandOpt = "0,1",
    minhash_threshold: MinhashOpt = 0.8,
    semantic_threshold: SemanticOpt = None,
    no_semantic: NoSemanticOpt = False,
    no_forgery: NoForgeryOpt = False,
    backend: BackendOpt = "docker",
    namespace: NamespaceOpt = None,
    kubeconfig: KubeconfigOpt = None,
    registry: RegistryOpt = None,
) -> None:
    """All five stages until `n` tasks are accepted (or `--max-proposals` are spent); resumable."""
    use_backend(backend, namespace, kubeconfig, registry)
    from synth.pipeline import PipelineHooks, PipelineOptions, run_pipeline

    settings = run_settings(domain, pool, seed, offline, model, model_name, family)
    proposer = make_proposer(settings, api_key_env)
    options = PipelineOptions(
        n=n, max_proposals=max_proposals, max_rounds=max_rounds, jobs=jobs, personas=personas_from(personas),
        band=_band(band), prune=_prune_config(minhash_threshold, semantic_threshold, no_semantic),
        forgery=not no_forgery,
    )  # fmt: skip
    out = new_run_dir(out, domain)
    try:
        run_dir = RunDir.create(out, settings)
    except SynthError as exc:
        raise fail(str(exc), USAGE) from exc
    started = time.monotonic()
    with (
        _docker() as client,
        _trial(run_dir, policy, harness, k, 2, None) as trial,
        progress_bar() as progress,
    ):
        bars: dict[str, TaskID] = {}

        def stage(name: str, total: int) -> None:
            if name not in bars:
                bars[name] = progress.add_task(name, total=None)

        def item(name: str, message: str) -> None:
            if name in bars:
                progress.update(bars[name], advance=1, description=f"{name}: {message}")

        accepted = run_pipeline(
            run_dir, proposer, client, options, writer=_writer(proposer), trial=trial,
            hooks=PipelineHooks(stage=stage, item=item),
        )  # fmt: skip
    _print_status(run_dir)
    console.print(f"{accepted} accepted in {time.monotonic() - started:.0f}s (this invocation); export with "
                  f"forge-synth export {out} --catalog DIR")  # fmt: skip
    if accepted < n:
        err.print(f"[yellow]fewer than the {n} asked for: see the drop reasons above[/yellow]")
        raise typer.Exit(1)


@app.command()
def status(run_dir: RunArg) -> None:
    """Stage counts, drop reasons, time (and tokens) per accepted task."""
    _print_status(_open(run_dir))


@app.command()
def export(
    run_dir: RunArg,
    catalog: Annotated[Path, typer.Option("--catalog", "-c", help="The catalog directory to write.")],
    replace: Annotated[bool, typer.Option(help="Replace tasks of the same name already there.")] = False,
) -> None:
    """Write the accepted tasks as a catalog (`forge-train rl --catalog DIR`)."""
    from synth.export import export_catalog

    try:
        names = export_catalog(_open(run_dir), catalog, replace)
    except SynthError as exc:
        raise fail(str(exc), 1) from exc
    console.print(f"{len(names)} tasks written to {catalog}")
