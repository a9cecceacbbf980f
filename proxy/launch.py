"""Building an engine from command-line options, and serving the proxy (`forge-proxy serve`)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

from envs.plugins import PluginError
from proxy.config import ProxyConfig
from proxy.engine_options import EngineOptions
from proxy.engines.base import Engine, engine_class
from proxy.errors import EngineConfigError

CONTROL_SOCKET_NAME = "control.sock"
"""The control app's Unix socket in the run directory, unless `--control-uds` or `--control-port`."""
CONTROL_HOST = "127.0.0.1"


def build_engine(options: EngineOptions) -> Engine:
    """The engine `options` name, built from them. Raises EngineConfigError, saying which flag, for an engine
    that does not resolve (or needs a package not installed here) or an option it cannot do without."""
    name = options.engine
    try:
        cls = engine_class(name)
    except PluginError as exc:
        raise EngineConfigError(str(exc)) from exc
    if cls.needs_upstream and not options.upstream:
        raise EngineConfigError(f"engine {name!r} needs --upstream URL")
    if cls.needs_tokenizer:
        options.tokenizer_dir()
    options.api_key()  # a named key that is not set is refused whatever the engine
    return cls.from_options(options)


def serve(
    options: EngineOptions,
    config: ProxyConfig,
    run_dir: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    uds: Path | None = None,
    *,
    control_uds: Path | None = None,
    control_port: int | None = None,
    announce: Callable[[str, str], None] | None = None,
) -> None:
    """Serve until interrupted; every call is recorded under `run_dir`.

    The model app listens on `uds` or host:port (what harnesses and sandbox relays reach), the control
    app on `control_uds` (default `<run_dir>/control.sock`, mode 0600) or on 127.0.0.1:`control_port`;
    both in this process's one event loop. `announce(what, where)` is told each address once bound."""
    from proxy.app import create_apps
    from proxy.serving import listen_socket, serve_together
    from proxy.store import CallStore

    if control_uds is not None and control_port is not None:
        raise EngineConfigError("give --control-uds PATH or --control-port N, not both")
    engine = build_engine(options)
    run_dir.mkdir(parents=True, exist_ok=True)
    control_path = None if control_port is not None else (control_uds or run_dir / CONTROL_SOCKET_NAME)
    store = CallStore.for_run(run_dir)
    sockets: list[socket.socket] = []
    try:
        if uds is not None:
            uds.parent.mkdir(parents=True, exist_ok=True)
        if control_path is not None:
            control_path.parent.mkdir(parents=True, exist_ok=True)
        try:
            sockets.append(listen_socket(uds, host, port))
            sockets.append(listen_socket(control_path, CONTROL_HOST, control_port or 0, mode=0o600))
        except OSError as exc:
            raise EngineConfigError(str(exc)) from exc
        apps = create_apps(engine, store, config)
        if announce is not None:
            announce("model", _where(sockets[0], uds))
            announce("control", _where(sockets[1], control_path))
        serve_together([(apps.model, sockets[0]), (apps.control, sockets[1])])
    finally:
        for sock, path in zip(sockets, (uds, control_path), strict=False):
            sock.close()
            if path is not None:  # only the sockets bound here
                path.unlink(missing_ok=True)
        store.close()


def _where(sock: socket.socket, path: Path | None) -> str:
    if path is not None:
        return f"unix:{path}"
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}"
