"""The browser image: our base plus Debian's Chromium, Playwright and the local web sites.

Browser tasks build FROM it (`ARG FORGE_BROWSER=openforge/browser:latest` / `FROM ${FORGE_BROWSER}`;
the builder passes its exact id, as it does FORGE_BASE). Chromium and fonts come from Debian packages
(apt works through `--network host` builds here); Python packages cannot be installed by pip inside a
build here (the registries sit behind an intercepting proxy whose CA only the host trusts), so they are
installed on the host with `pip --target` for the image's Python and copied in. The tag is a hash of the
recipe, the base image's id and every file copied in, so a changed site or replayer makes a new image.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docker
import docker.errors
from pydantic import BaseModel, Field

from envs import labels
from envs.base_image import current_base_id
from envs.content_hash import hash_directory
from envs.docker_client import forge_home
from envs.errors import BaseImageError

BROWSER_REPOSITORY = "openforge/browser"
RECIPE_VERSION = 1
BROWSER_DIR = Path(__file__).with_name("browser")
SITES_DIR = BROWSER_DIR / "forge_sites"
RUNTIME_DIR = BROWSER_DIR / "runtime"
CHROMIUM_CONFIG_FILE = "/opt/forge/browser/chromium.json"
"""How every browser of the domain runs Chromium (executable, switches, viewport), in the image; its
source is envs/browser/runtime/chromium.json, read by the replayer and the browser harnesses alike, so a
switch that stops a phone-home is written once."""


def chromium_config() -> dict[str, Any]:
    """envs/browser/runtime/chromium.json: {"executable", "viewport", "args"}."""
    config: dict[str, Any] = json.loads((RUNTIME_DIR / "chromium.json").read_text())
    return config


DEBIAN_SOURCES = (
    "deb http://deb.debian.org/debian bookworm main\n"
    "deb http://deb.debian.org/debian bookworm-updates main\n"
    "deb http://deb.debian.org/debian-security bookworm-security main\n"
)
"""Chromium is kept current only in bookworm-security (bookworm main alone gets an old one)."""

_lock = threading.Lock()


class BrowserRecipe(BaseModel):
    """What goes into the browser image; with the base id and the copied files, its hash is the tag."""

    packages: list[str] = Field(
        default_factory=lambda: ["chromium", "fonts-dejavu-core", "libatomic1", "sqlite3", "util-linux"]
    )
    python_packages: list[str] = Field(
        default_factory=lambda: [
            "playwright==1.65.2",
            "starlette==1.10.0",
            "uvicorn==0.55.0",
            "jinja2==3.1.6",
            "python-multipart==0.0.34",
        ]
    )
    python_version: str = "3.11"
    """The base image's python3 (Debian bookworm)."""

    def digest(self, base_id: str) -> str:
        payload = self.model_dump() | {"recipe_version": RECIPE_VERSION, "base": base_id}
        payload["sites"] = hash_directory(SITES_DIR) if SITES_DIR.is_dir() else ""
        payload["runtime"] = hash_directory(RUNTIME_DIR)
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:12]


DOCKERFILE = """\
ARG FORGE_BASE
FROM ${FORGE_BASE}
ENV DEBIAN_FRONTEND=noninteractive
COPY sources.list /etc/apt/sources.list
RUN apt-get update && apt-get install -y --no-install-recommends {packages} \\
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
RUN groupadd --system web \\
 && useradd --system --gid web --home-dir /nonexistent --shell /usr/sbin/nologin web \\
 && useradd --create-home --uid 1000 --shell /bin/bash agent \\
 && install -d -o agent -g agent -m 0755 /app
COPY site-packages /opt/forge/browser/site-packages
COPY forge_sites /opt/forge/browser/forge_sites
COPY runtime/replay.py runtime/chromium.json /opt/forge/browser/
COPY runtime/forge-site-install runtime/forge-site-ready runtime/forge-browser-replay /usr/local/bin/
RUN chmod -R a+rX /opt/forge/browser && chmod 755 /usr/local/bin/forge-*
WORKDIR /app
LABEL org.opencontainers.image.title=openforge-browser
"""


def _site_packages(recipe: BrowserRecipe, log: Callable[[str], None]) -> Path:
    """The recipe's Python packages for the image's Python, installed once on the host (cached)."""
    key = hashlib.sha256(json.dumps([recipe.python_packages, recipe.python_version]).encode()).hexdigest()
    target = forge_home() / "browser-site-packages" / key[:16]
    if (target / ".complete").is_file():
        return target
    staging = target.with_name(target.name + ".staging")
    shutil.rmtree(staging, ignore_errors=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-compile",
        "--target",
        str(staging),
        "--python-version",
        recipe.python_version,
        "--implementation",
        "cp",
        "--only-binary=:all:",
        *(
            f"--platform={p}"
            for p in ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64")
        ),
        *recipe.python_packages,
    ]
    log("$ " + " ".join(cmd))
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BaseImageError(f"installing the browser image's Python packages failed:\n{done.stderr[-2000:]}")
    (staging / ".complete").write_text("\n".join(recipe.python_packages) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    return target


def build_browser_image(
    client: docker.DockerClient,
    recipe: BrowserRecipe | None = None,
    force: bool = False,
    log: Callable[[str], None] = lambda line: None,
    base_id: str | None = None,
) -> tuple[str, bool]:
    """Build the browser image on the base (default: the current one) unless its tag exists. Returns
    (tag, built_now); the build's log is kept under $FORGE_HOME/build-logs/browser/."""
    recipe = recipe or BrowserRecipe()
    base_id = base_id or current_base_id(client)
    with _lock:
        tag = f"{BROWSER_REPOSITORY}:{recipe.digest(base_id)}"
        if not force:
            try:
                client.images.get(tag).tag(BROWSER_REPOSITORY, "latest")
                return tag, False
            except docker.errors.ImageNotFound:
                pass
        if not SITES_DIR.is_dir():
            raise BaseImageError(f"the browser sites are missing: {SITES_DIR}")
        packages = _site_packages(recipe, log)
        with tempfile.TemporaryDirectory(prefix="forge-browser-") as tmp:
            context = Path(tmp)
            (context / "Dockerfile").write_text(DOCKERFILE.replace("{packages}", " ".join(recipe.packages)))
            (context / "sources.list").write_text(DEBIAN_SOURCES)
            shutil.copytree(packages, context / "site-packages", ignore=shutil.ignore_patterns(".complete"))
            shutil.copytree(SITES_DIR, context / "forge_sites", ignore=shutil.ignore_patterns("__pycache__"))
            shutil.copytree(RUNTIME_DIR, context / "runtime", ignore=shutil.ignore_patterns("__pycache__"))
            log_dir = forge_home() / "build-logs" / "browser"
            log_dir.mkdir(parents=True, exist_ok=True)
            with (log_dir / f"{tag.rsplit(':', 1)[1]}.log").open("w", encoding="utf-8") as kept:

                def emit(line: str) -> None:
                    kept.write(line + "\n")
                    log(line)

                _build(client, context, tag, base_id, emit)
        client.images.get(tag).tag(BROWSER_REPOSITORY, "latest")
        return tag, True


def _build(
    client: docker.DockerClient, context: Path, tag: str, base_id: str, log: Callable[[str], None]
) -> None:
    try:
        for chunk in client.api.build(
            path=str(context),
            tag=tag,
            network_mode="host",
            rm=True,
            forcerm=True,
            buildargs={"FORGE_BASE": base_id},
            decode=True,
            labels={labels.MANAGED: "true"},
        ):
            if "stream" in chunk:
                for line in chunk["stream"].splitlines():
                    log(line)
            if "error" in chunk:
                raise BaseImageError(f"building the browser image failed: {chunk['error'].strip()}")
    except docker.errors.APIError as exc:
        raise BaseImageError(f"building the browser image failed: {exc.explanation or exc}") from exc
