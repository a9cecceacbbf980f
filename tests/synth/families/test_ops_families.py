"""The ops families: git-chore, config-edit, script-fix, cron-schedule, http-api.

Fast tests: determinism (across hash seeds too), diversity of the instructions, valid task files, and
each task's reference solution and checker run here, on this machine, with `/app` (and the service's
home) moved into a temporary folder: the checker fails before the solution and passes after it. The
docker tests run the real gate on one task per difficulty of each family."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import docker
import pytest

from envs.gate import verify_task, verify_tasks
from envs.parallel import run_parallel
from envs.task import load_task
from synth.families import families
from synth.families.base import Draft, Family
from synth.families.script_fix import SNIPPETS, ScriptFix
from synth.offline import make_proposal
from synth.pools import SHIPPED_POOLS, Pools, load_pools
from synth.similarity import shingles
from synth.task_writer import write_task

FAMILIES = ["git-chore", "config-edit", "script-fix", "cron-schedule", "http-api"]
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def pools() -> Pools:
    return load_pools([SHIPPED_POOLS / "claw"])


def family(name: str) -> Family:
    return families("claw", [name])[0]


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 1.0


# ---------------------------------------------------------------------------------------- fast tests


@pytest.mark.parametrize("name", FAMILIES)
def test_same_seed_same_proposal_in_another_process(name: str, pools: Pools) -> None:
    fam = family(name)
    here = [
        make_proposal(fam, pools, seed=11, index=i, difficulty=1 + i % 3).content_sha256 for i in range(6)
    ]
    again = [
        make_proposal(fam, pools, seed=11, index=i, difficulty=1 + i % 3).content_sha256 for i in range(6)
    ]
    assert here == again
    script = (
        "import json, sys\n"
        "from synth.families import families\n"
        "from synth.offline import make_proposal\n"
        "from synth.pools import SHIPPED_POOLS, load_pools\n"
        "pools = load_pools([SHIPPED_POOLS / 'claw'])\n"
        f"fam = families('claw', [{name!r}])[0]\n"
        "print(json.dumps([make_proposal(fam, pools, seed=11, index=i, difficulty=1 + i % 3).content_sha256"
        " for i in range(6)]))\n"
    )
    for hash_seed in ("1", "2"):  # set and dict-of-str iteration orders differ between these
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=REPO
        )
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == here


@pytest.mark.parametrize("name", FAMILIES)
def test_sixty_seeds_give_at_least_forty_distinct_instructions(name: str, pools: Pools) -> None:
    """Greedy, as the prune stage keeps them: an instruction is kept unless its word 3-gram shingles
    have a Jaccard similarity of 0.8 or more with one kept before."""
    fam = family(name)
    kept: list[set[str]] = []
    for i in range(60):
        draft = fam.draft(random.Random(f"diversity:{i}"), pools, 1 + i % 3)
        mine = shingles(draft.instruction)
        if all(jaccard(mine, other) < 0.8 for other in kept):
            kept.append(mine)
    assert len(kept) >= 40, f"{name}: only {len(kept)} distinct instructions out of 60"


@pytest.mark.parametrize("name", FAMILIES)
def test_proposals_are_valid_small_tasks(name: str, pools: Pools, tmp_path: Path) -> None:
    fam = family(name)
    for i in range(9):
        proposal = make_proposal(fam, pools, seed=5, index=i, difficulty=1 + i % 3)
        files = proposal.files.files if proposal.files else {}
        for required in ("environment/Dockerfile", "tests/test.sh", "tests/check.py", "solution/solve.sh"):
            assert required in files
        env_bytes = sum(len(t.encode()) for p, t in files.items() if p.startswith("environment/"))
        assert env_bytes < 200_000
        assert proposal.title and "\n" not in proposal.title
        assert "/app" in proposal.instruction
        json.dumps(proposal.provenance.params)
        assert len(json.dumps(proposal.provenance.params)) < 4000
        for path, text in files.items():
            if path.endswith(".py"):
                compile(text, path, "exec")
        task = write_task(proposal, proposal.files, tmp_path / proposal.id)  # type: ignore[arg-type]
        load_task(task)


def local_run(draft: Draft, root: Path, service_port: int | None = None) -> tuple[str, str, str]:
    """Set the task up under `root` (its /app and service home moved there), run the checker, the
    solution, the checker again; returns (first check, solve, second check) outputs, asserting the first
    check fails and the rest succeed."""
    app = str(root / "app")
    opt = str(root / "opt")

    def local(text: str) -> str:
        text = text.replace("/app", app)
        if service_port is not None:  # the service's home too
            text = text.replace("/opt/", opt + "/")
            text = text.replace(f"127.0.0.1:{draft.params['port']}", f"127.0.0.1:{service_port}")
        return text

    Path(app).mkdir(parents=True)
    home = root / "home"
    home.mkdir()
    env = dict(os.environ, HOME=str(home), GIT_CONFIG_NOSYSTEM="1")
    env.pop("PYTHONPATH", None)
    server = None
    if "COPY svc/" in draft.files.get("environment/Dockerfile", ""):  # the http-api layout
        service = draft.params["resource"]
        svc_home = next(
            line.split()[-1]
            for line in draft.files["environment/Dockerfile"].splitlines()
            if "seed.json" in line
        )
        target = Path(local(svc_home))
        target.mkdir(parents=True)
        for name in ("server.py", "config.json", "seed.json"):
            text = draft.files[f"environment/svc/{name}"]
            if name == "config.json":
                config = json.loads(text)
                config["port"] = service_port
                text = json.dumps(config)
            (target / name).write_text(local(text))
        for line in draft.files["environment/Dockerfile"].splitlines():
            parts = line.split()
            if (parts[:1] == ["COPY"] and parts[1] in ("svc/credentials",)) or (
                parts[:1] == ["COPY"] and parts[-1].startswith("/app/")
            ):
                dest = Path(local(parts[-1]))
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_text(draft.files[f"environment/{parts[1]}"])
        state_dir = [
            line for line in draft.files["environment/Dockerfile"].splitlines() if "mkdir -p" in line
        ]
        Path(local(state_dir[0].rsplit("mkdir -p ", 1)[1])).mkdir(parents=True, exist_ok=True)
        server = subprocess.Popen([sys.executable, str(target / "server.py")], env=env)
        assert service
    try:
        for rel, text in draft.files.items():
            if rel.startswith("environment/") and rel not in (
                "environment/Dockerfile",
                "environment/setup.sh",
            ):
                if rel.startswith("environment/svc/"):
                    continue
                path = Path(app) / rel.removeprefix("environment/")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
        if (
            "environment/setup.sh" in draft.files and draft.workdir != "/app"
        ):  # git-chore builds its repository
            (root / "setup.sh").write_text(local(draft.files["environment/setup.sh"]))
            built = subprocess.run(["bash", str(root / "setup.sh")], capture_output=True, text=True, env=env)
            assert built.returncode == 0, built.stderr
        if server is not None:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                with socket.socket() as probe:
                    if probe.connect_ex(("127.0.0.1", service_port or 0)) == 0:
                        break
                time.sleep(0.1)
        (root / "check.py").write_text(local(draft.files["tests/check.py"]))
        (root / "solve.sh").write_text(local(draft.files["solution/solve.sh"]))

        def check() -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, str(root / "check.py")], capture_output=True, text=True, env=env
            )

        before = check()
        assert before.returncode != 0, f"doing nothing passes:\n{before.stdout}"
        solved = subprocess.run(
            ["bash", str(root / "solve.sh")],
            capture_output=True,
            text=True,
            env=env,
            cwd=local(draft.workdir),
        )
        assert solved.returncode == 0, f"solve.sh failed:\n{solved.stdout}\n{solved.stderr}"
        after = check()
        assert after.returncode == 0, f"the solution does not pass:\n{after.stdout}\n{after.stderr}"
        return before.stdout, solved.stdout, after.stdout
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("name", ["config-edit", "cron-schedule", "script-fix", "http-api"])
def test_solution_passes_and_nothing_fails_locally(name: str, pools: Pools, tmp_path: Path) -> None:
    fam = family(name)
    for i in range(6):
        draft = fam.draft(random.Random(f"local:{i}"), pools, 1 + i % 3)
        root = tmp_path / str(i)
        local_run(draft, root, free_port() if name == "http-api" else None)
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_chores_locally(pools: Pools, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import synth.families.git_chore as git_chore

    fam = family("git-chore")
    for variant in git_chore.VARIANTS:
        monkeypatch.setattr(git_chore, "VARIANTS", [variant])
        for difficulty in (1, 3):
            draft = fam.draft(random.Random(f"git:{variant}:{difficulty}"), pools, difficulty)
            assert draft.params["variant"] == variant
            local_run(draft, tmp_path / f"{variant}-{difficulty}")
        monkeypatch.undo()


@pytest.mark.parametrize("program", sorted(SNIPPETS))
def test_every_injected_bug_is_caught_and_fixed(program: str, tmp_path: Path) -> None:
    """Each bug alone makes the checker fail; the reference fix makes it pass."""
    for bug in sorted(SNIPPETS[program]):
        draft = ScriptFix().build(random.Random(f"{program}:{bug}"), program, [bug], 1)
        before, _, _ = local_run(draft, tmp_path / bug)
        assert "FAIL" in before


def test_script_fix_bugs_are_drawn_by_difficulty(pools: Pools) -> None:
    fam = family("script-fix")
    for difficulty in (1, 2, 3):
        draft = fam.draft(random.Random(difficulty), pools, difficulty)
        assert len(draft.params["bugs"]) == difficulty


def test_pool_generator_output_is_kept(tmp_path: Path) -> None:
    """synth/pools/make_ops_pools.py writes exactly the shipped services/ and projects/ files."""
    script = REPO / "synth" / "pools" / "make_ops_pools.py"
    source = script.read_text().replace(
        'HERE = Path(__file__).parent / "claw"', f"HERE = Path({str(tmp_path)!r})"
    )
    out = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, cwd=REPO)
    assert out.returncode == 0, out.stderr
    for sub in ("services", "projects"):
        made = {p.name: p.read_bytes() for p in (tmp_path / sub).iterdir()}
        shipped = {p.name: p.read_bytes() for p in (SHIPPED_POOLS / "claw" / sub).iterdir()}
        assert made == shipped


# ---------------------------------------------------------------------------------------- the gate


@pytest.mark.parametrize("name", FAMILIES)
def test_gate_verifies_one_task_per_difficulty(
    name: str, client: docker.DockerClient, base_image: str, pools: Pools, tmp_path: Path, forge_home: Path
) -> None:
    """The oracle and doing nothing on one task per difficulty (oracle twice and the forgeries: the test
    below)."""
    fam = family(name)
    dirs = []
    for difficulty in (1, 2, 3):
        proposal = make_proposal(fam, pools, seed=3, index=difficulty, difficulty=difficulty)
        dirs.append(write_task(proposal, proposal.files, tmp_path / proposal.id))  # type: ignore[arg-type]
    records = verify_tasks(client, [load_task(d) for d in dirs], runs=1, jobs=2, write=False, forgery=False)
    failed = {r.task: r.reasons for r in records if not r.verified}
    assert not failed, failed


def test_full_gate_with_forgeries_on_one_task_of_each_family(
    client: docker.DockerClient, base_image: str, pools: Pools, tmp_path: Path, forge_home: Path
) -> None:
    """The oracle twice and doing nothing on one task of each family; the forgeries on the service
    family's (http-api): they attack the verifier's sandbox, which every claw task shares, not the task
    (the forgery stage on a sound and a forgeable task: tests/redteam/test_forgery_stage.py)."""
    tasks = []
    for name in FAMILIES:
        proposal = make_proposal(family(name), pools, seed=4, index=0, difficulty=2)
        tasks.append(load_task(write_task(proposal, proposal.files, tmp_path / proposal.id)))  # type: ignore[arg-type]
    attacked = tasks[FAMILIES.index("http-api")]
    records = run_parallel(
        lambda task: verify_task(client, task, runs=2, write=False, forgery=task is attacked), tasks, 2
    )
    failed = {r.task: r.reasons for r in records if not r.verified}
    assert not failed, failed
    assert [len(r.forgeries) for r in records] == [6 if t is attacked else 0 for t in tasks]
