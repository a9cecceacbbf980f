"""A rollout's identity (RolloutKey: its id, built in one place) and its one outcome (status, reward,
passed), and results.jsonl read back by them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from train.errors import ResultsFileInvalid
from train.rollout import RolloutResult
from train.rollout_key import RolloutKey
from train.rollout_set import RESULTS_FILE, ResultWriter, latest_by_sample, load_results

SAFE = re.compile(r"^[A-Za-z0-9._-]+$")


def _result(sample: int, reward: float | None, status: str = "scored", **extra: object) -> RolloutResult:
    return RolloutResult.model_validate(
        {
            "rollout_id": f"t--h-{sample}-0000",
            "task": "acme/t",
            "harness": "h",
            "harness_version": "1",
            "model": "m",
            "status": status,
            "sample": sample,
            "reward": reward,
            "logs_dir": "/tmp",
            **extra,
        }
    )


def test_the_id_names_the_task_and_is_one_safe_component() -> None:
    key = RolloutKey(task="acme/make-done", harness="forge-react", sample=3, policy_version=7)
    rollout_id = key.new_rollout_id()
    assert re.fullmatch(r"acme__make-done--forge-react-v7-3-[0-9a-f]{8}", rollout_id), rollout_id
    fixed = RolloutKey(task="t", harness="my:Harness", sample=0).new_rollout_id()
    assert fixed.startswith("t--my_Harness-0-") and SAFE.match(fixed), fixed


def test_each_attempt_at_a_key_gets_its_own_id() -> None:
    """A rollout redone after an infrastructure failure must not add its calls to the failed one's."""
    key = RolloutKey(task="t", harness="h")
    assert len({key.new_rollout_id() for _ in range(20)}) == 20


def test_a_key_is_a_value() -> None:
    key = RolloutKey(task="t", harness="h", sample=1, policy_version=2)
    assert key == RolloutKey(task="t", harness="h", sample=1, policy_version=2)
    assert {key: 1}[RolloutKey(task="t", harness="h", sample=1, policy_version=2)] == 1
    with pytest.raises(ValidationError):
        key.sample = 2  # type: ignore[misc]
    with pytest.raises(ValidationError, match="sample"):
        RolloutKey(task="t", harness="h", sample=-1)


def test_a_result_has_one_outcome() -> None:
    assert _result(0, 1.0).passed and not _result(0, 0.5).passed
    assert not _result(0, None, status="infra-error").passed
    assert _result(2, 1.0, policy_version=4).key == RolloutKey(
        task="acme/t", harness="h", sample=2, policy_version=4
    )
    for reward, status in ((None, "scored"), (1.0, "verifier-error"), (0.0, "infra-error")):
        with pytest.raises(ValidationError, match="a reward comes with status 'scored'"):
            _result(0, reward, status=status)


def test_results_jsonl_reads_back_by_key(tmp_path: Path) -> None:
    writer = ResultWriter(tmp_path)
    for result in (_result(0, None, status="infra-error"), _result(1, 1.0), _result(0, 0.0)):
        writer.write(result)
    old = json.loads((tmp_path / RESULTS_FILE).read_text().splitlines()[1])
    del old["policy_version"]  # a line written before results carried the policy version
    with open(tmp_path / RESULTS_FILE, "a") as f:
        f.write(json.dumps(old | {"sample": 5}) + "\n" + '{"rollout_id": "torn')
    results = load_results(tmp_path)
    assert [r.sample for r in results] == [0, 1, 0, 5]  # the torn last line is skipped
    latest = latest_by_sample(results)
    assert latest[RolloutKey(task="acme/t", harness="h", sample=0)].reward == 0.0  # redone replaces
    assert latest[RolloutKey(task="acme/t", harness="h", sample=5)].policy_version is None


def test_a_result_written_after_a_crash_is_not_glued_onto_the_torn_line(tmp_path: Path) -> None:
    writer = ResultWriter(tmp_path)
    writer.write(_result(0, 1.0))
    with open(tmp_path / RESULTS_FILE, "a") as f:
        f.write('{"rollout_id": "torn')  # the crash: a result never finished
    ResultWriter(tmp_path).write(_result(1, 0.0))  # the resumed run
    assert [(r.sample, r.reward) for r in load_results(tmp_path)] == [(0, 1.0), (1, 0.0)]
    assert "torn" not in (tmp_path / RESULTS_FILE).read_text()


def test_a_bad_line_in_the_middle_names_the_file_and_line(tmp_path: Path) -> None:
    ResultWriter(tmp_path).write(_result(0, 1.0))
    path = tmp_path / RESULTS_FILE
    path.write_text('{"not": "a result"}\n' + path.read_text())
    with pytest.raises(ResultsFileInvalid, match=rf"{re.escape(str(path))}:1: not a RolloutResult"):
        load_results(tmp_path)
