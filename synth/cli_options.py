"""`forge-synth`'s options, and the run settings they make: which domain, pools and proposer (the offline
families, or an LLM given by --model or set in the environment), and where the run directory goes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from envs.browser_image import SITES_DIR
from envs.cli_support import console, fail
from synth.errors import SynthError
from synth.pools import SHIPPED_POOLS, load_pools
from synth.run_dir import RunSettings
from train.cli.common import USAGE, default_run_dir

if TYPE_CHECKING:
    from synth.proposer import Proposer

DEFAULT_POOLS = {"claw": SHIPPED_POOLS / "claw", "browser": SITES_DIR / "seeds"}
"""A domain's pool when none is given: the shipped claw pool; for browser, the sites' default seeds."""
PLANNED_DOMAINS = ("computer",)
LLM_DOMAINS = ("claw", "browser")
"""The domains the LLM proposer has prompts for: shell tasks, and browser tasks on the local sites."""
MODEL_URL_ENV = ("FORGE_SYNTH_MODEL_URL", "OPENAI_BASE_URL")
"""Where an endpoint set in the environment is read, first found wins, when neither --offline nor --model
is given; its model name from FORGE_SYNTH_MODEL_NAME (or --model-name)."""
MODEL_NAME_ENV = "FORGE_SYNTH_MODEL_NAME"
RunArg = Annotated[Path, typer.Argument(help="The run directory (made by propose or run).")]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", help="The run directory (resumed if it exists; default: a new one in runs/)."
    ),
]
DomainOpt = Annotated[str, typer.Option("--domain", "-d", help="The domain (claw, browser).")]
PoolOpt = Annotated[
    list[str],
    typer.Option("--pool", "-p", help="An asset pool: a directory, or hf:PATH|NAME (datasets); repeatable."),
]
NOpt = Annotated[int, typer.Option("--n", "-n", min=1, help="Proposals to make (first attempts in the run).")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="The run's seed.")]
ModelOpt = Annotated[str | None, typer.Option("--model", help="The LLM: an OpenAI-compatible base URL.")]
ModelNameOpt = Annotated[str | None, typer.Option("--model-name", help="The model name sent to it.")]
KeyOpt = Annotated[str, typer.Option("--api-key-env", help="Env var holding the endpoint's key.")]
OfflineOpt = Annotated[
    bool,
    typer.Option(
        "--offline",
        help="Procedural families, no model (the default when no --model is given and no endpoint is set "
        "in FORGE_SYNTH_MODEL_URL or OPENAI_BASE_URL).",
    ),
]
FamiliesOpt = Annotated[list[str], typer.Option("--family", help="Only these offline families; repeatable.")]
PersonasOpt = Annotated[
    Path | None, typer.Option("--personas", help="Personas, one per line (or a JSON list).")
]
JobsOpt = Annotated[int, typer.Option("--jobs", "-j", min=1, help="Builds / gate runs in parallel.")]
PolicyOpt = Annotated[
    str | None,
    typer.Option(
        "--policy",
        help="Also roll out a policy on each verified task: an engine (oracle, nop, local, ...), an "
        "OpenAI-compatible URL, or a model directory / smollm2 served here. Without it only the gate runs.",
    ),
]
HarnessOpt = Annotated[str, typer.Option("--harness", "-H", help="The harness the policy runs in.")]
KOpt = Annotated[int, typer.Option("-k", min=1, help="Rollouts per task.")]
BandOpt = Annotated[
    str, typer.Option("--band", help="Pass rates kept: LO,HI (strict) or [LO,HI] (inclusive).")
]
MinhashOpt = Annotated[float, typer.Option(help="Near-duplicate: estimated Jaccard at least.")]
SemanticOpt = Annotated[
    float | None, typer.Option(help="Semantic duplicate: cosine at least (default: PruneConfig's).")
]
NoSemanticOpt = Annotated[bool, typer.Option("--no-semantic", help="Skip the embedding check.")]
NoForgeryOpt = Annotated[
    bool, typer.Option("--no-forgery", help="Skip the gate's forgery stage (the export names the tasks).")
]
RoundsOpt = Annotated[
    int, typer.Option("--max-rounds", min=0, help="Refined versions per proposal, at most.")
]


def personas_from(path: Path | None) -> list[str]:
    if path is None:
        return []
    try:
        text = path.read_text()
    except OSError as exc:
        raise fail(f"--personas {path}: {exc}", USAGE) from exc
    if text.lstrip().startswith("["):
        try:
            found = json.loads(text)
        except ValueError as exc:
            raise fail(f"--personas {path}: not a JSON list: {exc}", USAGE) from exc
        if not isinstance(found, list) or not all(isinstance(x, str) for x in found):
            raise fail(f"--personas {path}: must be a JSON list of strings", USAGE)
        return [x.strip() for x in found if x.strip()]
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def run_settings(
    domain: str, pools: list[str], seed: int, offline: bool, model: str | None, model_name: str | None,
    families: list[str],
) -> RunSettings:  # fmt: skip
    from synth.families import domains

    if domain not in domains():
        planned = " (planned: its families come with that domain)" if domain in PLANNED_DOMAINS else ""
        raise fail(f"no generator for domain {domain!r}{planned}; domains: {', '.join(domains())}", USAGE)
    if offline and model is not None:
        raise fail("give either --offline or --model URL (with --model-name), not both", USAGE)
    if model_name and model is None:
        raise fail("--model-name names the model of --model URL: give --model too", USAGE)
    offline, model, model_name = choose_model(domain, offline, model, model_name)
    if not offline and domain not in LLM_DOMAINS:
        raise fail(
            f"the LLM proposer writes {', '.join(LLM_DOMAINS)} tasks; use --offline for {domain}", USAGE
        )
    if model is not None and not model_name:
        raise fail(
            f"--model needs --model-name (or {MODEL_NAME_ENV}): the model name the endpoint serves", USAGE
        )
    if families and not offline:
        raise fail("--family chooses offline families: it needs --offline", USAGE)
    pools = pools or ([str(DEFAULT_POOLS[domain])] if domain in DEFAULT_POOLS else [])
    return RunSettings(
        domain=domain,
        proposer="offline" if offline else "llm",
        seed=seed,
        pools=[p if p.startswith("hf:") else str(Path(p).resolve()) for p in pools],
        model_url=model,
        model_name=model_name,
        families=families,
    )


def choose_model(
    domain: str, offline: bool, model: str | None, model_name: str | None
) -> tuple[bool, str | None, str | None]:
    """--offline or --model as given; with neither, the endpoint set in the environment (an LLM domain
    only), else the offline families. Says which it chose."""
    if offline or model is not None:
        return offline, model, model_name
    found = next((v for v in MODEL_URL_ENV if os.environ.get(v)), None)
    if found is not None and domain in LLM_DOMAINS:
        url = os.environ[found]
        name = model_name or os.environ.get(MODEL_NAME_ENV) or None
        if not name:
            raise fail(
                f"{found} sets an endpoint ({url}) but no model name: set {MODEL_NAME_ENV} or pass "
                "--model-name, or --offline for the offline families",
                USAGE,
            )
        console.print(f"proposing with the LLM at {escape(url)} ({found}), model {escape(name)}")
        return False, url, name
    console.print(
        f"proposing with the offline {escape(domain)} families: no --model given and no endpoint set in "
        f"{' or '.join(MODEL_URL_ENV)}"
    )
    return True, None, None


def new_run_dir(out: Path | None, domain: str) -> Path:
    if out is not None:
        return out
    made = default_run_dir(f"synth-{domain}")
    console.print(f"run directory: {made}")
    return made


def make_proposer(settings: RunSettings, api_key_env: str = "OPENAI_API_KEY") -> Proposer:
    """The run's proposer, made again from its settings (the key from the environment)."""
    try:
        pools = load_pools(list(settings.pools))
        if settings.proposer == "offline":
            from synth.offline import OfflineProposer

            return OfflineProposer(settings.domain, pools, settings.families or None)
        from synth.llm import LLMConfig, LLMProposer

        config = LLMConfig(
            base_url=settings.model_url or "",
            model=settings.model_name or "",
            api_key=os.environ.get(api_key_env, "none"),
        )
        return LLMProposer(settings.domain, pools, config)
    except SynthError as exc:
        raise fail(str(exc), USAGE) from exc
