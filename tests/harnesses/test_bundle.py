"""Bundles are built once: a second build finds the first, a failed build leaves nothing behind."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from harnesses.bundle import MANIFEST, build_bundle, bundle_dir, find_bundle
from harnesses.forge_react import ForgeReact
from harnesses.installers import Installer, InstallError
from harnesses.registry import all_harnesses


class SlowInstaller(Installer):
    seconds: float = 1.0

    def install(self, target: Path) -> None:
        time.sleep(self.seconds)
        (target / "bin").mkdir()
        (target / "bin" / "tool").write_text("#!/bin/sh\necho hi\n")


class BrokenInstaller(Installer):
    def install(self, target: Path) -> None:
        (target / "half-written").write_text("x")
        raise InstallError("the registry went away")


class SlowHarness(ForgeReact):
    name = "slow-test"
    installer = SlowInstaller()


class BrokenHarness(ForgeReact):
    name = "broken-test"
    installer = BrokenInstaller()


@pytest.fixture
def bundles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FORGE_BUNDLES", str(tmp_path / "bundles"))
    return tmp_path / "bundles"


def test_second_build_is_found_not_redone(bundles: Path) -> None:
    started = time.monotonic()
    first = build_bundle(SlowHarness())
    first_sec = time.monotonic() - started
    started = time.monotonic()
    second = build_bundle(SlowHarness())
    second_sec = time.monotonic() - started
    assert not first.cached and second.cached
    assert first.path == second.path == bundles / "slow-test-0.1.0"
    assert (second.path / MANIFEST).is_file() and (second.path / "bin" / "tool").is_file()
    assert first_sec >= 1.0 and second_sec < first_sec / 10
    assert build_bundle(SlowHarness(), force=True).cached is False


def test_a_failed_build_leaves_no_bundle(bundles: Path) -> None:
    with pytest.raises(InstallError, match="registry went away"):
        build_bundle(BrokenHarness())
    assert find_bundle(BrokenHarness()) is None
    assert not [p for p in bundles.iterdir() if not p.name.endswith(".lock")]


def test_forge_react_bundle_is_keyed_by_its_content(bundles: Path) -> None:
    bundle = build_bundle(ForgeReact())
    assert bundle.path == bundle_dir(ForgeReact())
    assert bundle.path.name.startswith("forge-react-0.1.0-")
    assert (bundle.path / "agent.py").read_bytes() == ForgeReact.installer.files["agent.py"].read_bytes()


def test_every_built_bundle_is_found_again_fast() -> None:
    """The real bundles (built by .ci/setup): building them again is a lookup."""
    harnesses = [h for h in all_harnesses() if find_bundle(h) is not None]
    if not harnesses:
        pytest.skip("no harness bundle is built here (forge-env harness build --all)")
    started = time.monotonic()
    again = [build_bundle(h) for h in harnesses]
    assert all(b.cached for b in again)
    assert time.monotonic() - started < 1.0
