"""Bad reward files written by the hidden tests: each is a named error on its own run, never an
exception that ends the set; numbers must be plain ASCII, inside `[verifier] reward_range`, in a file
of bounded size; the gate wants the oracle at the top of the range exactly."""

from __future__ import annotations

from pathlib import Path

import docker
import pytest

from envs.gate import verify_tasks
from envs.task import load_task
from tests.conftest import write_task

pytestmark = pytest.mark.docker

JSON = "/logs/verifier/reward.json"
TXT = "/logs/verifier/reward.txt"
PAD_10MB = "print('{\\\"reward\\\": 1, \\\"pad\\\": \\\"' + 'x' * 10_000_000 + '\\\"}')"
BAD_REWARDS = {
    "reward-400-digits": (
        f"python3 -c \"print('{{\\\"reward\\\": ' + '9' * 400 + '}}')\" > {JSON}",
        "finite",
    ),
    "reward-deep-json": (f"python3 -c \"print('[' * 30000 + ']' * 30000)\" > {JSON}", "nested"),
    "reward-1e308": (f"echo 1e308 > {TXT}", "reward_range"),
    "reward-negative": (f"echo -1 > {TXT}", "reward_range"),
    "reward-underscore": (f"echo 1_0 > {TXT}", "not a number"),
    "reward-arabic-digit": (f"printf '\\xd9\\xa1\\n' > {TXT}", "not a number"),
    "reward-nan-json": (f"echo '{{\"reward\": NaN}}' > {JSON}", "finite"),
    "reward-10mb-json": (f'python3 -c "{PAD_10MB}" > {JSON}', "too large"),
}


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    root = tmp_path / "catalog"
    for name, (script, _) in BAD_REWARDS.items():
        write_task(root, name, test_sh=f"mkdir -p /logs/verifier\n{script}\n")
    write_task(
        root,
        "crlf-test-sh",
        test_sh="set -e\r\nif [ -f /app/done ]; then\r\n    echo 1 > /logs/verifier/reward.txt\r\nfi\r\n",
    )
    write_task(
        root,
        "range-top-is-ten",
        test_sh=f"if [ -f /app/done ]; then echo 10; else echo 0; fi > {TXT}\n",
        verifier="reward_range = [0, 10]",
    )
    write_task(
        root,
        "oracle-below-the-top",
        test_sh=f"if [ -f /app/done ]; then echo 1; else echo 0; fi > {TXT}\n",
        verifier="reward_range = [0, 10]",
    )
    return root


def test_bad_reward_files_are_named_errors_and_never_end_the_set(
    client: docker.DockerClient, base_image: str, catalog: Path, forge_home: Path
) -> None:
    tasks = [load_task(p) for p in sorted(catalog.iterdir())]
    records = {r.task: r for r in verify_tasks(client, tasks, runs=1, jobs=2, forgery=False)}
    assert set(records) == {t.name for t in tasks}, "every task has its record"
    for name, (_, words) in BAD_REWARDS.items():
        (run,) = records[name].oracle
        expected = "RewardFileTooLarge" if words == "too large" else "RewardFileInvalid"
        assert run.reward is None and run.error_class == expected, (name, run)
        assert words in (run.error or ""), (name, run.error)
        assert not records[name].verified
    out_of_range = records["reward-negative"].oracle[0].error or ""
    assert "-1" in out_of_range and "[verifier] reward_range" in out_of_range

    crlf = records["crlf-test-sh"].oracle[0]
    assert crlf.error_class == "RewardFileMissing"
    assert crlf.verifier_exit_code not in (None, 0)
    assert "\\r" in crlf.verifier_stderr or "\r" in crlf.verifier_stderr, crlf.verifier_stderr

    top = records["range-top-is-ten"]
    assert top.verified, top.reasons
    assert [r.reward for r in top.oracle] == [10.0] and top.nop is not None and top.nop.reward == 0.0
    below = records["oracle-below-the-top"]
    assert not below.verified
    assert any("not the top of [verifier] reward_range" in reason for reason in below.reasons), below.reasons
