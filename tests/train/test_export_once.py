"""The warm start's model is written all at once: an export cut short leaves nothing that looks done."""

from __future__ import annotations

from pathlib import Path

import pytest

from train.embedded import export_once


def _export(out: Path, *, cut_short: bool = False) -> Path:
    out.mkdir(parents=True)
    (out / "config.json").write_text("{}")  # save_pretrained writes the config before the weights
    if cut_short:
        raise KeyboardInterrupt
    (out / "model.safetensors").write_bytes(b"weights")
    return out


def test_an_export_cut_short_leaves_no_config_behind(tmp_path: Path) -> None:
    dest = tmp_path / "sft-model"
    with pytest.raises(KeyboardInterrupt):
        export_once(lambda out: _export(out, cut_short=True), dest)
    assert not (dest / "config.json").exists()
    assert export_once(_export, dest) == dest  # the rerun exports again, over the remains
    assert (dest / "model.safetensors").read_bytes() == b"weights"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sft-model"]
