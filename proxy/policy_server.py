"""The policy being trained, served on this machine: our CPU engine in-process on a loopback port (engine
"local"), or a real vLLM server the policy server starts and stops (engine "vllm", `proxy.vllm_server`),
behind a recording proxy on a Unix socket that the sandboxes reach.

Rollouts sample at temperature 1 (forced by the proxy), so the log-probs the engine records are the
policy's own and the trainer can use them as the old policy's. `sync` pushes new weights the way a GPU
deployment does: pause the proxy, drain calls in flight, reload the engine, resume with the new policy
version (every later call is recorded with it). Those `/admin/*` calls go to the proxy's control socket,
which sandboxes never reach. The reload is the engine's own: our engine's `/reload`, or vLLM's in-place
`reload_weights` (`VLLMServer.reload_weights`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx

from proxy.config import ProxyConfig, SamplingOverrides
from proxy.cpu_engine.app import create_app as create_engine_app
from proxy.cpu_engine.engine import CpuEngine
from proxy.engines.base import Engine
from proxy.engines.sglang import LocalEngine
from proxy.engines.vllm import VLLMEngine
from proxy.serving import BackgroundServer
from proxy.session import ProxySession, RunningProxy
from proxy.vllm_server import VLLMServer

SYNC_TIMEOUT_SEC = 600.0
"""How long a drain may wait for calls in flight (the proxy allows up to 3600 s), and an engine reload."""
VLLM_FOLDER = "vllm"
"""Under the run directory: the vLLM server's log (`server.log`) and the checkpoints it reads."""


class RunningPolicy:
    """A started `PolicyServer`: its recording proxy, the engine's URL, and `sync`."""

    def __init__(
        self,
        proxy: RunningProxy,
        engine_url: str,
        reload: Callable[[Path, int], None] | None = None,
        vllm: VLLMServer | None = None,
    ) -> None:
        self.proxy = proxy
        self.engine_url = engine_url
        self.vllm = vllm
        """The vLLM server behind the proxy (engine "vllm"), else None."""
        self._reload = reload or self._reload_local
        self.policy_version = 0
        """The version every call is recorded with; `sync` raises it."""

    def _admin(
        self, path: str, body: dict[str, Any] | None = None, params: dict[str, float] | None = None
    ) -> dict[str, Any]:
        transport = httpx.HTTPTransport(uds=str(self.proxy.control_socket))
        timeout = SYNC_TIMEOUT_SEC + 30  # the drain answers by SYNC_TIMEOUT_SEC
        with httpx.Client(transport=transport, base_url="http://proxy", timeout=timeout) as client:
            response = client.post(path, json=body, params=params)
            response.raise_for_status()
            result: dict[str, Any] = response.json()
            return result

    def sync(self, weights_dir: Path, version: int) -> None:
        """Serve the weights in `weights_dir` from now on, as policy `version`."""
        self._admin("/admin/pause")
        try:
            self._admin("/admin/drain", params={"timeout": SYNC_TIMEOUT_SEC})
            self._reload(weights_dir, version)
        finally:
            self._admin("/admin/resume", {"policy_version": version})
        self.policy_version = version

    def _reload_local(self, weights_dir: Path, version: int) -> None:
        with httpx.Client(base_url=self.engine_url, timeout=SYNC_TIMEOUT_SEC) as client:
            response = client.post("/reload", json={"path": str(weights_dir), "weight_version": version})
            if response.status_code != 200:
                raise RuntimeError(f"the engine refused the weights in {weights_dir}: {response.text}")


class PolicyServer:
    """`with PolicyServer(model_dir, run_dir) as policy:` serves `policy.proxy` until the block ends;
    `policy` is the RunningPolicy. `engine="vllm"` serves it from a vLLM server (start-up about a minute;
    its log in `<run_dir>/vllm/server.log`) with a context of `max_model_len` tokens."""

    def __init__(
        self,
        model_dir: Path,
        run_dir: Path,
        *,
        max_tokens: int = 512,
        max_batch_size: int = 8,
        temperature: float = 1.0,
        engine: str = "local",
        max_model_len: int = 4096,
    ) -> None:
        if engine not in ("local", "vllm"):
            raise ValueError(f"engine must be 'local' or 'vllm', not {engine!r}")
        self.engine = engine
        self.model_dir = Path(model_dir)
        self.run_dir = Path(run_dir)
        self.max_tokens = max_tokens
        self.max_batch_size = max_batch_size
        self.temperature = temperature
        self.max_model_len = max_model_len
        """vLLM's context (capped to the model's positions); the local engine uses the model's own."""
        self._engine_server: BackgroundServer | None = None
        self._vllm: VLLMServer | None = None
        self._proxy: ProxySession | None = None

    def start(self) -> RunningPolicy:
        """Start the engine, then the proxy in front of it; `stop` ends both (also after a failed start)."""
        try:
            if self.engine == "vllm":
                vllm = self._vllm = VLLMServer(
                    self.model_dir,
                    max_model_len=self.max_model_len,
                    serve_dir=self.run_dir / VLLM_FOLDER,
                    log_file=self.run_dir / VLLM_FOLDER / "server.log",
                )
                vllm.start()
                client: Engine = VLLMEngine(
                    base_url=f"{vllm.url}/v1",
                    tokenizer=self.model_dir,
                    model=vllm.served_model_name,
                    context_window=vllm.context_window,
                )
                engine_url = vllm.url
            else:
                engine = CpuEngine(self.model_dir, max_batch_size=self.max_batch_size)
                engine_server = self._engine_server = BackgroundServer(create_engine_app(engine)).start()
                client = LocalEngine(base_url=engine_server.url, tokenizer=self.model_dir)
                engine_url = engine_server.url
            overrides = SamplingOverrides(temperature=self.temperature, max_tokens=self.max_tokens)
            config = ProxyConfig(accept_any_model=True, overrides=overrides)
            self._proxy = ProxySession(client, self.run_dir, config)
            proxy = self._proxy.start()
        except BaseException:
            self.stop()
            raise
        if self._vllm is not None:
            vllm_server = self._vllm
            return RunningPolicy(
                proxy, engine_url, reload=lambda path, _: vllm_server.reload_weights(path), vllm=vllm_server
            )
        return RunningPolicy(proxy, engine_url)

    def stop(self) -> None:
        if self._proxy is not None:
            self._proxy.stop()
            self._proxy = None
        if self._engine_server is not None:
            self._engine_server.stop()
            self._engine_server = None
        if self._vllm is not None:
            self._vllm.stop()
            self._vllm = None

    def __enter__(self) -> RunningPolicy:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
