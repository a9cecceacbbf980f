"""`train.verl.backend`, the veRL path's entry point, on CPU: `prepare` writes the dataset and the config,
`launch` refuses without the GPUs the recipe names (pointing to the local trainer), and every command
says so when veRL's packages are missing."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from train.verl.backend import app, launch, prepare


def test_prepare_writes_dataset_and_config(catalog: Path, tmp_path: Path) -> None:
    path, config = prepare(catalog, tmp_path / "run", group_size=4)
    assert path == (tmp_path / "run" / "openforge_grpo.yaml").resolve() and path.is_file()
    assert (tmp_path / "run" / "tasks.parquet").is_file()
    assert config.actor_rollout_ref.rollout.n == 4
    with pytest.raises(ValueError, match="every step takes 8"):
        prepare(catalog, tmp_path / "run2", tasks=["task-0", "task-1"])
    with pytest.raises(RuntimeError, match=r"8 GPUs per node and this machine has 0; .*`forge-train rl`"):
        launch(config)


def test_cli(catalog: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["prepare", "--catalog", str(catalog), "--run-dir", str(tmp_path / "r")])
    assert ok.exit_code == 0, ok.output
    assert "python -m verl.trainer.main_ppo --config-path" in ok.output
    bad = runner.invoke(
        app, ["prepare", "--catalog", str(catalog), "--run-dir", str(tmp_path / "r"), "--group-size", "1"]
    )
    assert bad.exit_code == 2 and "at least 2" in bad.output
    unknown = runner.invoke(
        app, ["prepare", "-c", str(catalog), "--run-dir", str(tmp_path / "r"), "--harness", "nope"]
    )
    assert unknown.exit_code == 2 and "unknown harness" in unknown.output
    no_gpu = runner.invoke(app, ["launch", "-c", str(catalog), "--run-dir", str(tmp_path / "r")])
    assert no_gpu.exit_code == 1 and "this machine has 0" in no_gpu.output


def test_without_verls_packages_every_command_says_how_to_install_them(
    catalog: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every command composes veRL's own configs: where veRL is missing it says so (and how to install it)
    before writing anything, instead of failing on an import."""
    reason = "veRL's packages are not installed (verl missing)"
    monkeypatch.setattr("train.verl.backend.verl_unavailable_reason", lambda: reason)
    runner = CliRunner()
    run_dir = tmp_path / "r"
    for argv in (
        ["prepare", "-c", str(catalog), "--run-dir", str(run_dir)],
        ["launch", "-c", str(catalog), "--run-dir", str(run_dir)],
        ["sft-prepare", "--data", str(tmp_path / "data"), "--run-dir", str(run_dir)],
        ["sft-launch", "--data", str(tmp_path / "data"), "--run-dir", str(run_dir)],
    ):
        result = runner.invoke(app, argv)
        assert result.exit_code == 2, (argv, result.output)
        assert f"error: {reason} (see docs/training-verl.md)" in result.output, argv
    assert not run_dir.exists()
