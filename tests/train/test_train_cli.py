"""`forge-train` as a user types it: bad input gets clear errors; rollout → eval round trip."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from envs import sandbox
from proxy.cpu_engine.model_init import init_model
from proxy.store import CallStore
from train.cli.train import app

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]


def _forge_train(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "forge-train"), *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "COLUMNS": "200"},
        timeout=900,
    )


def _in_process(*argv: str) -> tuple[int, str]:
    """`forge-train ARGV` run here, as the console script runs it: its exit code and its stderr."""
    result = CliRunner().invoke(app, list(argv), env={"COLUMNS": "200"})
    return result.exit_code, result.stderr


@pytest.fixture
def from_the_repo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """In the repository, as `_forge_train` runs (the default catalog is relative to it); the sandbox
    backend, which a command makes the process's default (`--backend`), is put back after. (The libraries'
    progress bars, which `rl` and `sft` turn off for the process, stay off: no test reads them.)"""
    monkeypatch.chdir(REPO)
    backend = sandbox.default_backend()
    yield
    sandbox.set_default_backend(backend)


BAD_INPUT: list[tuple[list[str], str]] = [
    (["rl", "--group-size", "1"], "group_size: Input should be greater than or equal to 2"),
    (["rl", "--lr", "-1"], "lr: Input should be greater than 0"),
    (["rl", "--clip-low", "1.5"], "clip_low: Input should be less than 1"),
    (["rl", "--task", "no-such-task"], "no task 'no-such-task' in catalog/claw"),
    (["rl", "--catalog", "nowhere"], "catalog nowhere does not exist"),
    (["rl", "--model", "nowhere"], "--model nowhere: not a model directory"),
    (["rl", "--model", "nowhere", "--sft-epochs", "2"], "--sft-epochs warm-starts an embedded model"),
    (["rl", "--catalog", "catalog/browser", "--model", "tiny"], "--model tiny reads text only"),
    (["rl", "--catalog", "catalog/browser", "--harness", "forge-react"], "cannot do browser tasks"),
    (["rl", "--harness", "forge-web"], "--harness forge-web cannot do claw tasks"),
    (["rl", "--temperature", "0"], "temperature: Input should be greater than 0"),
    (["rl", "--train-layers", "0"], "train_layers: Input should be greater than or equal to 1"),
    (["rl", "--harness", "forge-react,nope"], "unknown harness 'nope'"),
    (["rl", "--harness", "forge-react,forge-react"], "a harness is named twice"),
    (["rl", "--engine", "sglang"], "engine: Input should be 'local' or 'vllm'"),
    (["rollout", "--model", "gpt-9"], "neither an engine"),
    (
        ["rollout", "--temperature", "0.6"],
        "--temperature: applies to a policy served here, not to --model",
    ),
    (
        ["rollout", "--model", "smollm2", "--temperature", "11"],
        "--temperature': Input should be less than or equal to 10",
    ),
    (["eval", "/nonexistent-run"], "has no rollout results"),
    (["sft", "/nonexistent-data", "--model", "m", "--out", "o"], "not a dataset"),
]
"""Each refused the same way in-process (`_in_process`, the app `forge-train` runs): seconds of imports
saved per case. The console script itself refuses the first in a process of its own, in
test_the_console_script_refuses_bad_input_with_exit_code_2 (and runs whole in the docker tests below)."""


@pytest.mark.parametrize(("argv", "message"), BAD_INPUT)
@pytest.mark.usefixtures("from_the_repo")
def test_bad_input_gets_a_clear_error(argv: list[str], message: str) -> None:
    code, stderr = _in_process(*argv)
    assert code == 2, stderr
    assert message in " ".join(stderr.split()), stderr


def test_the_console_script_refuses_bad_input_with_exit_code_2() -> None:
    argv, message = BAD_INPUT[0]
    out = _forge_train(*argv)
    assert out.returncode == 2, out.stdout + out.stderr
    assert message in " ".join(out.stderr.split()), out.stderr


@pytest.mark.usefixtures("from_the_repo")
def test_a_model_directory_that_is_not_a_causal_lm_is_refused(tmp_path: Path) -> None:
    encoder = tmp_path / "encoder"
    encoder.mkdir()
    (encoder / "config.json").write_text(json.dumps({"model_type": "bert", "architectures": ["BertModel"]}))
    (encoder / "tokenizer.json").write_text("{}")
    for command in ("rl", "rollout"):
        code, stderr = _in_process(command, "--model", str(encoder))
        assert code == 2, stderr
        assert "describes BertModel, not a causal language model" in " ".join(stderr.split())


def _first_completions(run: Path) -> list[list[int] | None]:
    with CallStore.for_run(run) as store:
        return [store.calls(rollout_id)[0].completion_ids for rollout_id in sorted(store.rollout_ids())]


@pytest.mark.docker
def test_a_policy_directory_is_evaluated_with_a_harness_given_at_rollout(
    tmp_path: Path, base_image: str
) -> None:
    """`forge-train rollout --model DIR` serves a policy (a checkpoint, say) here, at temperature 1 as
    training samples it unless --temperature says otherwise, with any harness: how a policy is evaluated on
    a harness it never trained with."""
    # mini-swe-agent's first prompt is about 2,000 tokens: the shared tiny model's context (512) is too short
    model = init_model(
        tmp_path / "model", vocab_size=2048, hidden_size=64, layers=2, max_position_embeddings=4096
    )
    runs = {}
    for temperature in (None, 0.0):
        run = runs[temperature] = tmp_path / f"run-{temperature}"
        argv = [
            "rollout", "--task", "organize-downloads", "--harness", "mini-swe-agent", "-n", "2",
            "--model", str(model), "--max-tokens", "8", "--max-turns", "1", "--concurrency", "1",
            "--run-dir", str(run),
        ]  # fmt: skip
        out = _forge_train(*argv, *([] if temperature is None else ["--temperature", str(temperature)]))
        assert out.returncode == 0, out.stdout + out.stderr
        results = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
        assert [(r["harness"], r["status"]) for r in results] == [("mini-swe-agent", "scored")] * 2
        assert all(r["calls"] >= 1 for r in results)
        ran = json.loads((run / "run.json").read_text())
        assert (ran["engine"], ran["temperature"]) == ("local", temperature)
    sampled, greedy = _first_completions(runs[None]), _first_completions(runs[0.0])
    assert sampled[0] != sampled[1]  # 8 tokens drawn at T=1 from the random model's 2,048: never alike
    assert greedy[0] == greedy[1] and greedy[0]  # greedy, one at a time: the same prompt decodes alike
    evaluated = _forge_train("eval", str(runs[None]), "--plot", str(tmp_path / "eval.png"))
    assert evaluated.returncode == 0, evaluated.stderr
    assert (tmp_path / "eval.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.docker
def test_rollout_then_eval(tmp_path: Path, base_image: str) -> None:
    run = tmp_path / "run"
    argv = [
        "rollout",
        "--task",
        "organize-downloads",
        "--task",
        "rotate-backups",
        "-n",
        "2",
        "--run-dir",
        str(run),
    ]
    first = _forge_train(*argv)
    assert first.returncode == 0, first.stdout + first.stderr
    assert len((run / "results.jsonl").read_text().splitlines()) == 4
    again = _forge_train(*argv)  # resumed: nothing finished is redone
    assert again.returncode == 0 and len((run / "results.jsonl").read_text().splitlines()) == 4
    out = _forge_train("eval", str(run), "-k", "1", "-k", "2", "--json", str(tmp_path / "e.json"))
    assert out.returncode == 0, out.stderr
    evaluation = json.loads((tmp_path / "e.json").read_text())
    assert evaluation["overall"]["pass_at"]["1"]["value"] == 1.0
    assert [t["task"] for t in evaluation["tasks"]] == ["organize-downloads", "rotate-backups"]


@pytest.mark.docker
def test_rl_on_the_embedded_default_then_a_resume_with_other_settings_is_refused(
    tmp_path: Path, base_image: str
) -> None:
    """The main command's whole path, shrunk: tiny model, oracle warm start, GRPO steps, summary."""
    run = tmp_path / "run"
    argv = [
        "rl", "--model", "tiny", "--catalog", "catalog/claw", "--task", "organize-downloads",
        "--task", "rotate-backups", "--steps", "1", "--group-size", "2", "--max-tokens", "16",
        "--max-turns", "1",
        "--sft-epochs", "1", "--eval-samples", "1", "--concurrency", "2", "--run-dir", str(run),
    ]  # fmt: skip
    out = _forge_train(*argv)
    said = " ".join((out.stdout + out.stderr).split())
    assert out.returncode == 0, said
    for made in ("init-model/config.json", "sft-model/config.json", "sft-data/dataset", "run.json"):
        assert (run / made).exists(), made
    assert json.loads((run / "run.json").read_text())["model"] == "sft-model"  # the run dir can move
    step = json.loads((run / "metrics.jsonl").read_text())
    assert step["rollouts"] == 4 and step["infra_errors"] == 0
    assert "pass rate 0.000 (step 0) -> 0.000 (step 0)" in said
    assert "no step updated the policy" in said  # a 1-epoch warm start solves nothing: no signal
    # held evaluations of the model before its warm start, of the policy GRPO starts from, and after
    evals = [json.loads(line) for line in (run / "eval.jsonl").read_text().splitlines()]
    assert [e["policy_version"] for e in evals] == [-1, 0, 1]
    assert all(e["rollouts"] == 2 for e in evals)
    assert (run / "eval" / "base" / "results.jsonl").is_file()
    assert "held evaluation: pass rate 0.000 ± 0.000 (base) -> 0.000 ± 0.000 (v1)" in said
    refused = _forge_train(*argv[:-2], "--lr", "1e-3", "--run-dir", str(run))
    assert refused.returncode == 2
    assert "config.local.lr: 0.0003 -> 0.001" in " ".join(refused.stderr.split()), refused.stderr
