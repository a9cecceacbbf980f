"""The synthesis pipeline over a run directory: resumable stages, clear errors, the gate's verdicts
classified, refine, export. The docker tests run the real gate on tasks of a tiny test family."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from envs.task import inspect_task, load_catalog
from synth import families as registry
from synth.errors import PoolError, RunDirMismatch, RunDirVersionMismatch, UnknownDomain
from synth.offline import OfflineProposer, make_proposal
from synth.pipeline import PipelineOptions, run_pipeline
from synth.pools import load_pools
from synth.prune import PruneConfig
from synth.run_dir import RunDir, RunSettings
from synth.spec import Evidence, Proposal
from synth.stages.propose import propose_stage
from synth.status import run_status
from synth.task_writer import write_task
from tests.synth.tiny_family import SumNumbers
from train.errors import ResultsFileInvalid

TINY = {
    "sum-numbers": "tests.synth.tiny_family:SumNumbers",
    "wrong-oracle": "tests.synth.tiny_family:WrongOracle",
}
LOOSE = PruneConfig(minhash_threshold=0.99, semantic=False)
"""The tiny family's siblings differ only in names and numbers: real dedup would rightly drop them."""


@pytest.fixture
def pool(tmp_path: Path) -> Path:
    folder = tmp_path / "pool"
    folder.mkdir()
    (folder / "notes.md").write_text("# a note\n")
    return folder


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.FAMILIES, "claw", TINY)


def _run(tmp_path: Path, pool: Path, **changes: object) -> RunDir:
    settings = RunSettings(domain="claw", proposer="offline", seed=3, pools=[str(pool)])
    return RunDir.create(tmp_path / "run", settings.model_copy(update=changes))


def test_a_resume_with_other_settings_or_of_another_format_is_refused(tmp_path: Path, pool: Path) -> None:
    run = _run(tmp_path, pool)
    assert _run(tmp_path, pool).path == run.path  # same settings: resumed
    with pytest.raises(RunDirMismatch, match=r"seed: 3 -> 4"):
        _run(tmp_path, pool, seed=4)
    manifest = json.loads((run.path / "run.json").read_text())
    (run.path / "run.json").write_text(json.dumps({**manifest, "format_version": 99}))
    with pytest.raises(RunDirVersionMismatch, match="run format 99"):
        RunDir.open(run.path)


def test_propose_goes_on_where_it_stopped_and_records_provenance(
    tmp_path: Path, pool: Path, tiny: None
) -> None:
    run = _run(tmp_path, pool)
    proposer = OfflineProposer("claw", load_pools([pool]))
    assert propose_stage(run, proposer, 3).made == 3
    assert propose_stage(run, proposer, 3).made == 0  # the same command again: nothing new
    assert propose_stage(run, proposer, 5).made == 2  # a larger n: two more
    proposals = run.proposals()
    assert [p.id for p in proposals] == [
        "sum-numbers-3-0000", "wrong-oracle-3-0001", "sum-numbers-3-0002", "wrong-oracle-3-0003",
        "sum-numbers-3-0004",
    ]  # fmt: skip
    first = proposals[0].provenance
    assert (first.domain, first.proposer, first.family, first.version) == (
        "claw",
        "offline",
        "sum-numbers",
        1,
    )
    assert first.params["source"].endswith(".txt") and first.prompt_sha256
    again = OfflineProposer("claw", load_pools([pool]))
    assert propose_stage(_run(tmp_path / "b", pool), again, 5).made == 5
    assert RunDir(tmp_path / "b" / "run").proposals() == proposals  # same seed and pools: the same tasks
    assert len(run.ledger()) == 5


def test_a_torn_last_line_is_skipped_and_cut_before_the_next_append(
    tmp_path: Path, pool: Path, tiny: None
) -> None:
    run = _run(tmp_path, pool)
    proposer = OfflineProposer("claw", load_pools([pool]))
    propose_stage(run, proposer, 2)
    file = run.path / "proposals.jsonl"
    file.write_text(file.read_text() + '{"id": "torn', encoding="utf-8")  # a crash mid-append
    assert len(run.proposals()) == 2
    propose_stage(run, proposer, 3)
    assert [p.id for p in run.proposals()][-1] == "sum-numbers-3-0002"
    lines = file.read_text().splitlines()
    file.write_text("\n".join([lines[0], "not json", *lines[1:]]) + "\n")
    with pytest.raises(ResultsFileInvalid, match=r"proposals.jsonl:2"):
        run.proposals()


def test_pools_that_cannot_be_used_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(PoolError, match="does not exist"):
        load_pools([tmp_path / "missing"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(PoolError, match="holds no usable item"):
        load_pools([tmp_path / "empty"])
    (tmp_path / "file.csv").write_text("a,b\n1,2\n")
    with pytest.raises(PoolError, match="is not a directory"):
        load_pools([tmp_path / "file.csv"])
    (tmp_path / "binary").mkdir()
    (tmp_path / "binary" / "x.bin").write_bytes(b"\0" * 10)
    with pytest.raises(PoolError, match="holds no usable item"):
        load_pools([tmp_path / "binary"])
    with pytest.raises(UnknownDomain, match="domains: browser, claw"):
        registry.families("spreadsheets")


def test_pool_items_are_typed_and_hashed(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    (folder / "sub").mkdir(parents=True)
    (folder / "sales.csv").write_text("region,amount\nnorth,3\nsouth,4\n")
    (folder / "sub" / "users.jsonl").write_text('{"id": 1}\n{"id": 2}\n')
    (folder / ".env").write_text("A=1\n")
    (folder / "repo").mkdir()
    subprocess.run(["git", "init", "-q", str(folder / "repo")], check=True)
    (folder / "repo" / "README.md").write_text("hi\n")
    pools = load_pools([folder])
    assert pools.by_kind == {"csv": 1, "jsonl": 1, "config": 1, "git": 1}
    csv_item = pools.items("csv")[0]
    assert csv_item.records() == [{"region": "north", "amount": "3"}, {"region": "south", "amount": "4"}]
    assert len(csv_item.sha256) == 64 and csv_item.ref.path == "sales.csv"


def test_offline_refine_makes_an_agent_side_miss_harder_or_easier(pool: Path, tiny: None) -> None:
    proposer = OfflineProposer("claw", load_pools([pool]))
    proposal = make_proposal(SumNumbers(), load_pools([pool]), seed=1, index=7, difficulty=2)
    always = Evidence(stage="test", side="agent", reason="too easy", pass_rate=1.0)
    never = Evidence(stage="test", side="agent", reason="too hard", pass_rate=0.0)
    broken = Evidence(stage="test", side="task", reason="oracle run 0 scored 0")
    harder, _ = proposer.refine(proposal, always, 1)
    easier, _ = proposer.refine(proposal, never, 1)
    fixed, _ = proposer.refine(proposal, broken, 1)
    assert isinstance(harder, Proposal) and isinstance(easier, Proposal) and isinstance(fixed, Proposal)
    assert (harder.difficulty, easier.difficulty, fixed.difficulty) == (3, 1, 2)
    assert harder.id == "sum-numbers-1-0007-v2" and harder.provenance.parent == proposal.id
    assert fixed.provenance.seed != proposal.provenance.seed  # a fresh draw of the same family
    again, _ = proposer.refine(harder, always, 1)
    assert isinstance(again, Proposal) and again.id == "sum-numbers-1-0007-v3" and again.difficulty == 3


def test_a_written_task_loads_with_its_provenance(tmp_path: Path, pool: Path) -> None:
    proposal = make_proposal(SumNumbers(), load_pools([pool]), seed=1, index=0, difficulty=1)
    assert proposal.files is not None
    task, problems = inspect_task(write_task(proposal, proposal.files, tmp_path / proposal.id))
    assert task is not None and not [p for p in problems if p.severity == "error"], problems
    meta = task.config.metadata.model_dump()
    assert meta["domain"] == "claw" and meta["source"] == "openforge-synth"
    assert (
        meta["provenance"]["family"] == "sum-numbers"
        and meta["provenance"]["seed"] == proposal.provenance.seed
    )
    assert meta["proposal_sha256"] == proposal.content_sha256
    assert (tmp_path / proposal.id / "solution" / "solve.sh").stat().st_mode & 0o111


def _forge_synth(*argv: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from synth.cli import app; app()", *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["propose", "--out", "x", "--offline", "--domain", "spreadsheets"],
            "no generator for domain 'spreadsheets'",
        ),
        (["propose", "--out", "x", "--model-name", "m"], "--model-name names the model of --model URL"),
        (["propose", "--out", "x", "--offline", "--model", "http://127.0.0.1:9"], "give either --offline or"),
        (["propose", "--out", "x", "--model", "http://127.0.0.1:9"], "--model needs --model-name"),
        (
            ["propose", "--out", "x", "--offline", "--pool", "/nonexistent"],
            "pool /nonexistent: does not exist",
        ),
        (["status", "/nonexistent-run"], "not a synthesis run directory"),
        (["test", "/nonexistent-run", "--band", "0.9,0.1"], "not a synthesis run directory"),
    ],
)
def test_bad_input_gets_a_clear_error(argv: list[str], message: str) -> None:
    out = _forge_synth(*argv)
    assert out.returncode == 2, out.stdout + out.stderr
    assert message in " ".join(out.stderr.split()), out.stderr


def test_a_bad_band_is_a_clear_error(tmp_path: Path, pool: Path) -> None:
    _run(tmp_path, pool)
    out = _forge_synth("test", str(tmp_path / "run"), "--band", "0.9,0.1")
    assert out.returncode == 2 and "needs 0 <= LO <= HI <= 1" in out.stderr, out.stderr


@pytest.mark.docker
def test_the_pipeline_accepts_sound_tasks_and_sends_broken_ones_back(
    tmp_path: Path, pool: Path, tiny: None, base_image: str
) -> None:
    import docker

    run = _run(tmp_path, pool)
    proposer = OfflineProposer("claw", load_pools([pool]))
    options = PipelineOptions(n=2, max_proposals=3, max_rounds=1, forgery=False, prune=LOOSE)
    client = docker.from_env()
    accepted = run_pipeline(run, proposer, client, options)
    status = run_status(run)
    # 3 first attempts (sum, wrong, sum), the wrong oracle refined once (still wrong: a new seed of the
    # same family), so 2 accepted of 4 proposals.
    assert accepted == 2 and sorted(status.accepted) == ["sum-numbers-3-0000", "sum-numbers-3-0002"]
    tests = run.tests()
    wrong = tests["wrong-oracle-3-0001"]
    assert not wrong.verified and wrong.side == "task" and not wrong.infra
    assert "oracle run 1 scored 0" in wrong.reasons[0] and "got" in wrong.detail  # the checker's output
    [refined] = run.refinements()
    assert refined.id == "wrong-oracle-3-0001" and refined.new_id == "wrong-oracle-3-0001-v2"
    assert tests["wrong-oracle-3-0001-v2"].side == "task"
    assert status.test_failed["oracle fails"] == 2 and status.refined_versions == 1

    ledger = len(run.ledger())
    assert run_pipeline(run, proposer, client, options) == 2  # resumed: nothing done again
    assert len(run.ledger()) == ledger

    from synth.export import export_catalog

    names = export_catalog(run, tmp_path / "catalog")
    tasks = load_catalog(tmp_path / "catalog")
    assert [t.name for t in tasks] == names == status.accepted
    assert not (tmp_path / "catalog" / names[0] / "verified.json").exists()
    assert "sum-numbers" in (tmp_path / "catalog" / "README.md").read_text()


def test_a_local_hugging_face_dataset_is_a_pool(tmp_path: Path) -> None:
    import datasets

    rows = [{"user": f"u{i}", "plan": ["free", "pro"][i % 2], "seats": i} for i in range(5)]
    datasets.Dataset.from_list(rows).to_parquet(str(tmp_path / "accounts.parquet"))
    pools = load_pools([f"hf:{tmp_path / 'accounts.parquet'}"])
    [item] = pools.items("jsonl")
    assert item.pool == f"hf:{tmp_path / 'accounts.parquet'}" and item.path == "accounts.jsonl"
    assert item.records() == rows
    assert [json.loads(line) for line in item.read_text().splitlines()] == rows
    with pytest.raises(PoolError, match="no such file or directory"):
        load_pools([f"hf:{tmp_path / 'missing.parquet'}"])
    (tmp_path / "bad.parquet").write_text("not parquet")
    with pytest.raises(PoolError, match="cannot load it with datasets"):
        load_pools([f"hf:{tmp_path / 'bad.parquet'}"])


def test_none_in_a_familys_parameters_does_not_break_task_toml(tmp_path: Path, pool: Path) -> None:
    proposal = make_proposal(SumNumbers(), load_pools([pool]), seed=1, index=0, difficulty=1)
    assert proposal.files is not None
    params = {**proposal.provenance.params, "limit": None, "rules": [None, {"x": None, "y": 1}]}
    proposal = proposal.model_copy(
        update={"provenance": proposal.provenance.model_copy(update={"params": params})}
    )
    task = load_catalog(write_task(proposal, proposal.files, tmp_path / "t" / proposal.id).parent)[0]
    assert task.config.metadata.model_dump()["provenance"]["params"]["rules"] == [{"y": 1}]


def test_the_gate_verdict_is_classified_task_or_infrastructure() -> None:
    from envs.gate import RunRecord, VerificationRecord
    from synth.stages.test import classify_gate

    def record(*runs: RunRecord) -> VerificationRecord:
        return VerificationRecord(task="t", verified=False, runs=2, oracle=list(runs), reasons=["x"])

    wrong = RunRecord(kind="oracle", reward=0.0, verifier_stdout="got 3 want 4")
    side, infra, detail = classify_gate(record(wrong))
    assert (side, infra) == ("task", False) and "got 3 want 4" in detail
    frozen = RunRecord(kind="oracle", reward=0.0, error_class="SandboxBroken", error="cannot freeze")
    assert classify_gate(record(frozen))[:2] == ("none", True)
    no_start = RunRecord(kind="oracle", error_class="SandboxStartError", error="engine")
    assert classify_gate(record(no_start))[:2] == ("none", True)
    crashed = RunRecord(kind="oracle", error_class="RewardFileMissing", error="no reward")
    assert classify_gate(record(crashed))[:2] == ("task", False)
