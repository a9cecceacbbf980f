"""The browser families (shop-order, shop-lookup, mail-compose, calendar-book, wiki-edit, forum-reply).

Fast tests: each family is deterministic by seed and varied across seeds; its instruction names the site
and every value its checker compares (a lookup's answer never); its action script uses `#id` selectors
of ids the site's templates can render; its seed.json seeds the site; and its checker, run in-process on
the untouched seeded database, fails (doing nothing scores 0). The docker test
(test_browser_pipeline.py) runs the whole pipeline, the gate included.
"""

from __future__ import annotations

import itertools
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from envs.browser.forge_sites import calendar, forum, mail, shop, wiki
from envs.browser.forge_sites.common import create_db
from envs.browser_image import SITES_DIR
from synth.families import families
from synth.families.web import WEB_POOL
from synth.offline import make_proposal
from synth.pools import Pools, load_pools
from synth.prune import PruneConfig, quality_failures
from synth.spec import Proposal

NAMES = ["calendar-book", "forum-reply", "mail-compose", "shop-lookup", "shop-order", "wiki-edit"]
SITES = {"shop": shop, "forum": forum, "wiki": wiki, "mail": mail, "calendar": calendar}
SEEDS = range(8)
DB_PATH = "/var/lib/forge-web/site.db"
ROW_IDS = r"#(?:product-link|remove|thread-link|msg-link|upvote)-(\d+)"
"""Selectors naming a row of the seeded database by its id."""
NUMBER_FIELDS = ("#quantity-input", "#attendees")
"""The `<input type="number">` fields the families type into."""


@pytest.fixture(scope="module")
def pools() -> Pools:
    return load_pools([WEB_POOL])


@pytest.fixture(scope="module")
def drafts(pools: Pools) -> list[Proposal]:
    return [
        make_proposal(family, pools, seed, index=0, difficulty=difficulty)
        for family in families("browser")
        for difficulty in (1, 2, 3)
        for seed in SEEDS
    ]


def files(p: Proposal) -> dict[str, str]:
    assert p.files is not None
    return p.files.files


def test_the_browser_domain_has_one_family_per_site_at_least() -> None:
    made = families("browser")
    assert sorted(f.name for f in made) == NAMES
    assert {f.site for f in made} == set(SITES)  # type: ignore[attr-defined]
    assert all(f.domain == "browser" for f in made)


def test_the_same_seed_gives_the_same_task_and_other_seeds_other_tasks(pools: Pools) -> None:
    for family in families("browser"):
        for difficulty in (1, 2, 3):
            made = [make_proposal(family, pools, s, 0, difficulty) for s in SEEDS]
            again = make_proposal(family, pools, SEEDS[0], 0, difficulty)
            assert again.model_dump() == made[0].model_dump(), family.name
            hashes = {p.content_sha256 for p in made}
            assert len(hashes) >= len(SEEDS) - 1, (family.name, difficulty, len(hashes))


def test_the_instruction_names_the_site_and_every_value_the_checker_compares(drafts: list[Proposal]) -> None:
    for p in drafts:
        assert "http://127.0.0.1:8080/" in p.instruction, p.id
        expects: dict[str, Any] = p.provenance.params["expects"]
        assert expects, p.id
        for name, value in expects.items():
            assert str(value) in p.instruction, (p.id, name, value, p.instruction)
        steps = json.loads(files(p)["solution/actions.json"])
        if steps[-1]["action"] == "answer":  # a lookup: the answer is found, never given
            assert p.instruction.rstrip().endswith("Give the answer as your final answer."), p.id
            assert steps[-1]["text"].casefold() not in p.instruction.casefold(), p.id
        assert not quality_failures(p, PruneConfig()), (p.id, quality_failures(p, PruneConfig()))


def _id_patterns(site: str) -> list[re.Pattern[str]]:
    """Every element id the site can render: its templates' ids (a `{{ ... }}` part matches any value)
    and the top bar's, from the site module's `nav`."""
    texts = [path.read_text() for path in (SITES_DIR / "templates" / site).glob("*.html")]
    raw = [m for text in texts for m in re.findall(r'\bid="([^"]+)"', text)]
    raw += re.findall(r'\("(nav-[\w-]+)"', (SITES_DIR / f"{site}.py").read_text())
    patterns = []
    for ident in raw:
        parts = re.split(r"\{\{.*?\}\}", ident)
        patterns.append(re.compile('[^"]+'.join(re.escape(part) for part in parts) + r"\Z"))
    return patterns


def test_the_action_script_uses_id_selectors_the_site_renders(drafts: list[Proposal]) -> None:
    patterns = {site: _id_patterns(site) for site in SITES}
    for p in drafts:
        site = p.provenance.params["site"]
        steps = json.loads(files(p)["solution/actions.json"])
        assert steps[0] == {"action": "goto", "url": "http://127.0.0.1:8080/"}, p.id
        assert steps[-1]["action"] in ("done", "answer"), p.id
        for before, after in itertools.pairwise(steps):  # a wheel over a focused number field steps it
            assert not (after["action"] == "scroll" and before.get("selector") in NUMBER_FIELDS), p.id
        for step in steps:
            assert "x" not in step and "y" not in step  # the build stage records them
            if "selector" not in step:
                continue
            selector = step["selector"]
            assert re.fullmatch(r"#[A-Za-z][\w-]*", selector), (p.id, selector)
            assert any(pat.match(selector[1:]) for pat in patterns[site]), (p.id, selector)


def _seeded(p: Proposal, tmp_path: Path) -> Path:
    site = p.provenance.params["site"]
    db = tmp_path / f"{p.id}-{p.difficulty}-{p.provenance.seed}.db"
    module = SITES[site]
    create_db(str(db), module.SCHEMA, module.seed, json.loads(files(p)["environment/seed.json"]))
    return db


def test_the_seed_seeds_the_site_and_the_ids_in_the_script_exist_in_it(
    drafts: list[Proposal], tmp_path: Path
) -> None:
    tables = {"shop": "products", "forum": "threads", "mail": "messages", "calendar": "rooms"}
    for p in drafts:
        db = sqlite3.connect(_seeded(p, tmp_path))
        site = p.provenance.params["site"]
        for step in json.loads(files(p)["solution/actions.json"]):
            found = re.fullmatch(ROW_IDS, step.get("selector", ""))
            if found:
                table = "posts" if "upvote" in step["selector"] else tables[site]
                assert db.execute(f"SELECT 1 FROM {table} WHERE id = ?", (int(found[1]),)).fetchone(), (
                    p.id,
                    step,
                )
        db.close()


def test_doing_nothing_fails_the_checker(drafts: list[Proposal], tmp_path: Path) -> None:
    for p in drafts[:: len(SEEDS) // 2]:  # two seeds of each family and difficulty
        db = _seeded(p, tmp_path)
        check = files(p)["tests/check.py"].replace(DB_PATH, str(db))
        check = check.replace('"/app/answer.txt"', repr(str(tmp_path / "no-answer.txt")))
        script = tmp_path / "check.py"
        script.write_text(check)
        out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
        assert out.returncode == 1 and out.stdout.strip(), (p.id, out.stdout, out.stderr)
        assert "Traceback" not in out.stderr, (p.id, out.stderr)


def test_browser_tasks_get_the_browser_task_settings(drafts: list[Proposal], tmp_path: Path) -> None:
    from envs.task import inspect_task
    from synth.task_writer import write_task

    p = drafts[0]
    task, problems = inspect_task(write_task(p, p.files, tmp_path / p.id))  # type: ignore[arg-type]
    assert task is not None and not [x for x in problems if x.severity == "error"], problems
    config = task.config
    assert config.metadata.domain == "browser" and config.agent.user == "agent"
    assert config.verifier.artifacts == ["/var/lib/forge-web", "/app"]
    assert config.environment.healthcheck is not None
    assert config.environment.healthcheck.command == "forge-site-ready"
    assert "FROM ${FORGE_BROWSER}" in (task.environment_dir / "Dockerfile").read_text()
