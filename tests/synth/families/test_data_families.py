"""The data families: csv-aggregate, json-records, sqlite-report, log-report, and their pools.

Fast tests: each family is deterministic, diverse (60 proposals as a run draws them, difficulties
mixed), writes valid task files, and its reference solution passes its own checker while the untouched
starting state fails it. That last check runs each task in-process under a temporary root standing in
for `/` (the task's `/app/`, `/var/log/` and `/srv/` paths are rewritten into it), with the host's bash
and python3, so the family's own expected values (computed in Python) are checked against an
independent reference solution (plain scripts, SQL for sqlite-report). The docker tests run the real
gate on one task per difficulty of each family.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import docker
import pytest

from envs.gate import verify_tasks
from envs.task import load_task
from synth.families import families
from synth.families.csv_aggregate import profile, toml_safe
from synth.families.json_records import find_joins, usable_files
from synth.families.log_report import detect, nearest_rank
from synth.offline import DIFFICULTY_WEIGHTS, make_proposal
from synth.pools import SHIPPED_POOLS, Pools, load_pools
from synth.similarity import shingles
from synth.spec import Proposal, TaskFiles
from synth.task_writer import write_task

NAMES = ["csv-aggregate", "json-records", "sqlite-report", "log-report"]
VARIANT_KEY = {"log-report": "format"}
"""The param that names a proposal's sub-variant (`variant` for the others)."""
VARIANTS = {
    "csv-aggregate": {
        "group_json",
        "group_csv",
        "filter_totals",
        "pivot_csv",
        "top_n",
        "monthly",
        "clean_csv",
    },
    "json-records": {"filter_select", "flatten_csv", "join", "merge", "validate", "group_count"},
    "sqlite-report": {"join_group", "top_rows", "monthly", "coverage", "update"},
    "log-report": {"timed", "combined", "common", "app", "syslog", "logfmt"},
}
ROOTS = ("/app/", "/var/log/", "/srv/")
POOL_DIRS = ("tables", "records", "logs")


@pytest.fixture(scope="module")
def pools() -> Pools:
    return load_pools([SHIPPED_POOLS / "claw"])


def run_of(name: str, pools: Pools, seed: int = 1, n: int = 60) -> list[Proposal]:
    """Proposals 0..n-1 of the family as a run with this seed makes them (difficulty drawn per index)."""
    family = families("claw", [name])[0]
    out = []
    for index in range(n):
        rng = random.Random(f"{seed}:difficulty:{index}")
        difficulty = rng.choices(list(DIFFICULTY_WEIGHTS), weights=list(DIFFICULTY_WEIGHTS.values()))[0]
        out.append(make_proposal(family, pools, seed, index, difficulty))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_proposal(name: str, pools: Pools) -> None:
    family = families("claw", [name])[0]
    for difficulty in (1, 2, 3):
        first = make_proposal(family, pools, 5, difficulty, difficulty)
        again = make_proposal(family, pools, 5, difficulty, difficulty)
        assert first.model_dump() == again.model_dump()
    other = make_proposal(family, pools, 6, 1, 1)
    assert other.content_sha256 != make_proposal(family, pools, 5, 1, 1).content_sha256


@pytest.mark.parametrize("name", NAMES)
def test_sixty_proposals_are_diverse(name: str, pools: Pools) -> None:
    proposals = run_of(name, pools)
    instructions = [p.instruction for p in proposals]
    assert len(set(instructions)) >= 40
    # greedy near-duplicate filter on word 3-gram shingles (exact Jaccard), as the prune stage's MinHash
    kept: list[set[str]] = []
    for text in instructions:
        grams = shingles(text)
        if all(len(grams & other) / len(grams | other) < 0.8 for other in kept):
            kept.append(grams)
    assert len(kept) >= 40, f"only {len(kept)} of 60 instructions are not near-duplicates"
    key = VARIANT_KEY.get(name, "variant")
    seen = {p.provenance.params[key] for p in proposals}
    assert seen == VARIANTS[name], f"sub-variants drawn in 60 proposals: {sorted(seen)}"
    assert len({p.title for p in proposals}) >= 20
    assert len({item.path for p in proposals for item in p.provenance.pool_items}) >= 5


@pytest.mark.parametrize("name", NAMES)
def test_task_files_are_valid_and_small(name: str, pools: Pools) -> None:
    for proposal in run_of(name, pools, seed=3, n=12):
        assert proposal.files is not None
        files = TaskFiles(files=proposal.files.files).files
        assert {"environment/Dockerfile", "tests/test.sh", "tests/check.py", "solution/solve.sh"} <= set(
            files
        )
        size = sum(len(text.encode()) for path, text in files.items() if path.startswith("environment/"))
        assert size < 200_000, f"{proposal.id}: environment of {size} bytes"
        assert "/app/" in proposal.instruction
        assert "\n" not in proposal.title.strip()
        assert proposal.provenance.pool_items, f"{proposal.id} is grounded in no pool item"
        assert "None" not in repr(proposal.provenance.params.values())
        compile(files["tests/check.py"], "check.py", "exec")
        # what the hidden files hold must not be in the image: no test or solution file is copied
        assert not any(
            p.startswith("environment/") and text == files["tests/check.py"] for p, text in files.items()
        )


def run_here(files: dict[str, str], root: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    """Build the starting state under root (the Dockerfile's COPY, then setup.sh), then check (nop),
    solve, check again (oracle)."""

    def local(text: str) -> str:
        for prefix in ROOTS:
            text = text.replace(prefix, f"{root}{prefix}")
        return text

    app = root / "app"
    app.mkdir()
    for rel, text in files.items():
        if rel.startswith("environment/") and rel not in ("environment/Dockerfile", "environment/setup.sh"):
            target = app / rel.removeprefix("environment/")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    scripts = {}
    for rel in ("environment/setup.sh", "solution/solve.sh", "tests/check.py"):
        if rel in files:
            scripts[rel] = root / rel.replace("/", "_")
            scripts[rel].write_text(local(files[rel]), encoding="utf-8")

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(argv, cwd=app, capture_output=True, text=True, timeout=120)

    out = {}
    if "environment/setup.sh" in scripts:
        out["setup"] = run("bash", str(scripts["environment/setup.sh"]))
    out["nop"] = run(sys.executable, str(scripts["tests/check.py"]))
    out["solve"] = run("bash", str(scripts["solution/solve.sh"]))
    out["oracle"] = run(sys.executable, str(scripts["tests/check.py"]))
    return out


@pytest.mark.parametrize("difficulty", [1, 2, 3])
@pytest.mark.parametrize("name", NAMES)
def test_solution_passes_and_doing_nothing_fails(
    name: str, difficulty: int, pools: Pools, tmp_path: Path
) -> None:
    family = families("claw", [name])[0]
    for seed in range(4):
        draft = family.draft(random.Random(f"{seed}:{difficulty}"), pools, difficulty)
        root = tmp_path / f"s{seed}"
        root.mkdir()
        result = run_here(draft.files, root)
        assert result.get("setup") is None or result["setup"].returncode == 0, result["setup"].stderr
        assert result["nop"].returncode != 0, f"the starting state passes:\n{result['nop'].stdout}"
        assert "FAIL" in result["nop"].stdout
        assert result["solve"].returncode == 0, f"{draft.params}\n{result['solve'].stderr}"
        assert result["oracle"].returncode == 0, f"{draft.params}\n{result['oracle'].stdout}"


def test_a_wrong_answer_fails_the_checker(pools: Pools, tmp_path: Path) -> None:
    """Off by one cent, a row dropped, a value as a string: each is caught (csv-aggregate, JSON output)."""
    family = families("claw", ["csv-aggregate"])[0]
    seed = next(
        s for s in range(100) if family.draft(random.Random(s), pools, 2).params["variant"] == "group_json"
    )
    draft = family.draft(random.Random(seed), pools, 2)
    root = tmp_path / "t"
    root.mkdir()
    assert run_here(draft.files, root)["oracle"].returncode == 0
    out = root / draft.params["out"].lstrip("/")
    good = out.read_text()
    data = json.loads(good)
    top = next(k for k in data if k.startswith("by_"))
    group = sorted(data[top])[0]
    check = root / "tests_check.py"
    for mutate in ("cent", "drop", "string"):
        bad = json.loads(good)
        entry = bad[top][group]
        metric = (
            next(k for k in entry if k != "count" and not k.startswith("distinct_"))
            if len(entry) > 1
            else "count"
        )
        if mutate == "cent":
            entry[metric] = entry[metric] + (0.01 if metric != "count" else 1)
        elif mutate == "drop":
            del bad[top][group]
        else:
            entry[metric] = str(entry[metric])
        out.write_text(json.dumps(bad))
        result = subprocess.run([sys.executable, str(check)], capture_output=True, text=True)
        assert result.returncode != 0, f"{mutate}: {result.stdout}"


def test_columns_records_and_log_formats_are_recognised(pools: Pools) -> None:
    tables = {
        item.name: profile(item.read_text()) for item in pools.items("csv") if item.path.startswith("tables/")
    }
    assert len(tables) >= 8 and all(p is not None for p in tables.values())
    sales = tables["sales_orders.csv"]
    assert sales is not None
    kinds = {c.name: c.kind for c in sales.columns}
    assert kinds == {
        "order_id": "key",
        "order_date": "date",
        "region": "cat",
        "channel": "cat",
        "customer": "text",
        "product": "cat",
        "quantity": "num",
        "unit_price": "num",
    }
    files = {f.item.path: f for f in usable_files(pools)}
    assert {"records/users.json", "records/products.json", "records/orders.jsonl"} <= set(files)
    assert files["records/products.json"].wrapper == "products"
    assert all(not path.startswith("secrets/") for path in files)  # config objects are not records
    joins = {(a.item.path, field, b.item.path) for a, field, b in find_joins(list(files.values()))}
    assert ("records/orders.jsonl", "sku", "records/products.json") in joins
    formats = {
        item.name: detect(item.read_text()) for item in pools.items("log") if item.path.startswith("logs/")
    }
    assert formats == {
        "nginx_access.log": "combined",
        "nginx_timed_access.log": "timed",
        "apache_access.log": "common",
        "app.log": "app",
        "auth_syslog.log": "syslog",
        "api_gateway.log": "logfmt",
    }
    assert nearest_rank([5, 1, 4, 2, 3], 50, int) == 3
    assert nearest_rank([5, 1, 4, 2, 3], 90, int) == 5
    assert toml_safe({"a": None, "b": [1, None, {"c": None}]}) == {"b": [1, {}]}


def test_the_data_pools_are_what_the_generator_makes() -> None:
    sys.path.insert(0, str(SHIPPED_POOLS))
    try:
        import make_data_pools
    finally:
        sys.path.remove(str(SHIPPED_POOLS))
    made = {
        "tables": make_data_pools.tables(),
        "records": make_data_pools.records(),
        "logs": make_data_pools.logs(),
    }
    total = 0
    for folder, files in made.items():
        on_disk = sorted(p.name for p in (SHIPPED_POOLS / "claw" / folder).iterdir())
        assert on_disk == sorted(files)
        for name, text in files.items():
            data = (SHIPPED_POOLS / "claw" / folder / name).read_bytes()
            assert data == text.encode(), f"{folder}/{name} differs from what make_data_pools.py makes"
            assert len(data) <= 40_000
            total += len(data)
    assert total <= 400_000
    assert len(made["tables"]) >= 8 and len(made["records"]) >= 6 and len(made["logs"]) >= 5


@pytest.mark.parametrize("name", NAMES)
def test_the_gate_verifies_one_task_per_difficulty(
    name: str, pools: Pools, client: docker.DockerClient, base_image: str, tmp_path: Path
) -> None:
    family = families("claw", [name])[0]
    tasks = []
    for difficulty in (1, 2, 3):
        proposal = make_proposal(family, pools, 2024, difficulty, difficulty)
        assert proposal.files is not None
        tasks.append(load_task(write_task(proposal, proposal.files, tmp_path / proposal.id)))
    # The oracle once: the gate's every-run check is test_gate's (good runs twice); the families' tasks in
    # catalog/claw-synth passed the whole gate, oracle twice, when synthesized (docs/benchmarks.md).
    records = verify_tasks(client, tasks, runs=1, jobs=2, write=False, forgery=False)
    failed = {r.task: r.reasons for r in records if not r.verified}
    assert not failed, failed
