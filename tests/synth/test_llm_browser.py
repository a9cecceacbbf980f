"""The LLM proposer's browser tasks: the site reference its prompts show (derived from the sites, so it
cannot drift), proposals grounded in one site's seed, the model's script, checker and seed checked into
a whole task, refine under the same rules, the CLI taking `--model` for browser, and (Docker) a scripted
model's browser task built, recorded and gated by the pipeline like an offline family's."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import pytest
from typer.testing import CliRunner

from envs.browser_image import SITES_DIR
from synth.cli import app
from synth.errors import PoolError, ProposalInvalid
from synth.families.web import LOOKUP_ENDING, SOLVE_SH, WEB_POOL
from synth.llm import LLMConfig, LLMProposer
from synth.pools import Pools, load_pools
from synth.spec import Evidence, Proposal, ProposeRequest, Rejected
from synth.web_sites import NOTES, SITES, control_ids, id_pattern, reference, selector_problem
from tests.synth.scripted_llm import Script, scripted_llm

CATALOG = Path(__file__).resolve().parents[2] / "catalog" / "browser"
INSTRUCTION = (
    "My colleague needs the stock code of a kettle from the web shop at http://127.0.0.1:8080/. Look "
    "up the product called Electric Kettle 1.7 L there and tell me its SKU, exactly as the shop shows it."
)
SKU = "KT-1004"
ACTIONS = [
    {"action": "goto", "url": "http://127.0.0.1:8080/"},
    {"action": "type", "selector": "#search-input", "text": "Electric Kettle"},
    {"action": "key", "key": "Enter"},
    {"action": "click", "selector": "#product-link-4"},
    {"action": "answer", "text": SKU},
]
CHECK = '''\
#!/usr/bin/env python3
"""The answer is the SKU of Electric Kettle 1.7 L (KT-1004); nothing was ordered or put in the cart."""
import sqlite3
import sys

problems = []


def norm(text):
    text = " ".join(text.strip().casefold().split())
    return text[:-1].rstrip() if text.endswith(".") else text


try:
    with open("/app/answer.txt", encoding="utf-8") as fh:
        answer = norm(fh.read())
except OSError:
    answer = None
    problems.append("no answer in /app/answer.txt")
if answer is not None and answer != norm("KT-1004"):
    problems.append(f"the answer is {answer!r}")
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
if db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] != 6:
    problems.append("the orders changed")
if db.execute("SELECT COUNT(*) FROM cart_items").fetchone()[0] != 0:
    problems.append("the cart is not empty")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
'''


def idea(**changes: Any) -> dict[str, Any]:
    answer = {
        "site": "shop",
        "id_hint": "shop-kettle-sku",
        "title": "Look up the SKU of a kettle in the local shop",
        "instruction": INSTRUCTION,
        "category": "lookup",
        "difficulty": 1,
        "keywords": ["shop", "sku", "search"],
    }
    return answer | changes


def files(**changes: Any) -> dict[str, Any]:
    return {"files": {"solution/actions.json": ACTIONS, "tests/check.py": CHECK} | changes}


def config(url: str) -> LLMConfig:
    return LLMConfig(base_url=url, model="scripted", api_key="x", retries=0, retry_wait_sec=0.01)


@pytest.fixture
def web_pools() -> Pools:
    return load_pools([WEB_POOL])


@pytest.fixture
def serve(web_pools: Pools) -> Iterator[Any]:
    """serve(script) -> a browser LLMProposer on a scripted server (closed after the test)."""
    stack: list[Any] = []

    def start(script: Script) -> LLMProposer:
        server = scripted_llm(script)
        proposer = LLMProposer("browser", web_pools, config(server.__enter__()))
        stack.append((server, proposer))
        return proposer

    yield start
    for server, proposer in reversed(stack):
        proposer.close()
        server.__exit__(None, None, None)


def propose_one(proposer: LLMProposer, seed: int = 3) -> Proposal | Rejected:
    [(made, _)] = list(proposer.propose(ProposeRequest(domain="browser", n=1, seed=seed)))
    return made


# --- the site reference --------------------------------------------------------------------------------


@pytest.mark.parametrize("site", SITES)
def test_every_listed_id_is_in_the_sites_templates_or_code(site: str) -> None:
    templates = "\n".join(p.read_text() for p in (SITES_DIR / "templates" / site).glob("*.html"))
    code = (SITES_DIR / f"{site}.py").read_text() + (SITES_DIR / "common.py").read_text()
    listed = [i for ids in control_ids(site).values() for i in ids]
    assert len(listed) > 20
    for element_id in listed:
        literal = re.split(r"\{\w+\}", element_id)[0]  # `category-{slug}` -> `category-`
        assert f'id="{literal}' in templates + code or f'"{element_id}"' in code, element_id
    for param in re.findall(r"[?&](\w+)=", NOTES[site]):  # the hand-written line names real parameters
        assert f'"{param}"' in code, (site, param)


def test_every_catalog_script_uses_listed_ids_only_and_wrong_ones_are_refused() -> None:
    tasks = sorted(p for p in CATALOG.iterdir() if (p / "solution" / "actions.json").is_file())
    assert len(tasks) >= 20
    for task in tasks:
        site = task.name.split("-")[0]
        for step in json.loads((task / "solution" / "actions.json").read_text()):
            if "selector" in step:
                assert selector_problem(site, step["selector"]) is None, (task.name, step)
    assert (
        selector_problem("shop", "#buy-now")
        == "selector '#buy-now' names no control of the shop site (see its ids)"
    )
    assert "is not `#id`" in (selector_problem("shop", "a.product") or "")
    assert id_pattern("mail").fullmatch("msg-link-12") and not id_pattern("shop").fullmatch("msg-link-12")


# --- prompts --------------------------------------------------------------------------------------------


def test_the_propose_prompt_shows_one_sites_reference_and_its_data(serve: Any) -> None:
    proposer = serve(Script())
    [messages] = proposer.prompts(ProposeRequest(domain="browser", n=1, seed=3))
    system, user = messages[0]["content"], messages[1]["content"]
    assert system.startswith("TASK: propose\n") and "web browser" in system and '"site"' in system
    site = re.search(r"on the `(\w+)` site", user)
    assert site and site.group(1) in SITES
    name = site.group(1)
    assert reference(name) in user and f"#{control_ids(name)['every page'][1]}" in user
    seed = json.loads((WEB_POOL / f"{name}.json").read_text())
    assert f"today: {json.dumps(seed['today'])}" in user
    first_list = next(v for v in seed.values() if isinstance(v, list) and v)
    assert json.dumps(first_list[0], ensure_ascii=False) in user
    sites = {
        re.search(r"on the `(\w+)` site", m[1]["content"]).group(1)  # type: ignore[union-attr]
        for m in proposer.prompts(ProposeRequest(domain="browser", n=12, seed=1))
    }
    assert len(sites) >= 3  # the seed spreads proposals over the sites


def test_write_files_and_refine_prompts_show_the_site_and_its_whole_seed(serve: Any) -> None:
    proposer = serve(Script(propose=[idea()]))
    proposal = propose_one(proposer)
    assert isinstance(proposal, Proposal)
    system, user = (m["content"] for m in proposer.write_files_prompt(proposal))
    assert system.startswith("TASK: write_files\n") and "solution/actions.json" in system
    assert reference("shop") in user and INSTRUCTION in user
    assert (WEB_POOL / "shop.json").read_text().strip() in user  # the whole seed, not an excerpt
    evidence = Evidence(stage="build", side="task", reason="selector '#x' matches nothing")
    refine_user = proposer.refine_prompt(proposal, evidence)[1]["content"]
    assert reference("shop") in refine_user and "matches nothing" in refine_user


# --- propose, write_files, refine ------------------------------------------------------------------------


def test_a_browser_proposal_records_its_site_seed_and_healthcheck(serve: Any, web_pools: Pools) -> None:
    proposal = propose_one(serve(Script(propose=[idea()])))
    assert isinstance(proposal, Proposal)
    shop = next(i for i in web_pools.all if i.name == "shop.json")
    assert proposal.provenance.params["site"] == "shop" and proposal.provenance.pool_items == [shop.ref]
    assert proposal.healthcheck == "forge-site-ready" and proposal.keywords[:2] == ["browser", "shop"]


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (idea(site="bank"), "site: 'bank' is not one of the sites"),
        (idea(instruction="Look up the SKU of the Electric Kettle 1.7 L in the shop please."), "never names"),
    ],
)
def test_a_bad_browser_idea_is_rejected(serve: Any, answer: dict[str, Any], message: str) -> None:
    made = propose_one(serve(Script(propose=[answer])))
    assert isinstance(made, Rejected) and made.stage == "propose" and message in made.error, made


def test_write_files_makes_the_whole_task_from_the_script_and_checker(serve: Any) -> None:
    proposer = serve(Script(propose=[idea()], write_files=[files()]))
    proposal = propose_one(proposer)
    assert isinstance(proposal, Proposal)
    task, _ = proposer.write_files(proposal)
    out = task.files
    assert (
        "openforge/browser" in out["environment/Dockerfile"]
        and "forge-site-install shop" in out["environment/Dockerfile"]
    )
    assert json.loads(out["environment/seed.json"]) == json.loads((WEB_POOL / "shop.json").read_text())
    assert json.loads(out["solution/actions.json"]) == ACTIONS and out["solution/solve.sh"] == SOLVE_SH
    assert out["tests/check.py"] == CHECK and "/logs/verifier/reward.txt" in out["tests/test.sh"]
    assert out["instruction.md"].rstrip().endswith(LOOKUP_ENDING)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"solution/actions.json": [*ACTIONS[:3], {"action": "click", "selector": "#buy-now"}, ACTIONS[4]]},
         "step 4: selector '#buy-now' names no control of the shop site"),
        ({"solution/actions.json": [*ACTIONS[:3], {"action": "click", "selector": ".product a"}, ACTIONS[4]]},
         "step 4: selector '.product a' is not `#id`"),
        ({"solution/actions.json": ACTIONS[:4]}, "must end with an answer step"),
        ({"solution/actions.json": [ACTIONS[4], *ACTIONS[:4]]}, "step 1: answer must be the last step"),
        ({"solution/actions.json": [{"action": "goto", "url": "https://example.com/"}, ACTIONS[4]]},
         "solution/actions.json: step 0.goto.url"),
        ({"solution/actions.json": [*ACTIONS[:4], {"action": "answer", "text": "Electric Kettle 1.7 L"}]},
         "gives the answer away"),
        ({"tests/check.py": "import requests\n"}, "imports 'requests'"),
        ({"tests/check.py": "def broken(:\n"}, "is not valid Python"),
        ({"environment/seed.json": {"today": "2026-03-16", "accounts": []}}, "keys the shop seed has not"),
        ({"environment/data.csv": "a,b\n"}, "not environment/data.csv"),
    ],
)  # fmt: skip
def test_write_files_refuses_a_bad_browser_task(serve: Any, changes: dict[str, Any], message: str) -> None:
    proposer = serve(Script(propose=[idea()], write_files=[files(**changes)]))
    proposal = propose_one(proposer)
    assert isinstance(proposal, Proposal)
    with pytest.raises(ProposalInvalid, match=re.escape(message)):
        proposer.write_files(proposal)


def test_refine_holds_a_browser_task_to_the_same_rules(serve: Any) -> None:
    fixed = [*ACTIONS[:3], {"action": "click", "selector": "#product-link-4"}, ACTIONS[4]]
    broken = [*ACTIONS[:3], {"action": "click", "selector": "#product-row-4"}, ACTIONS[4]]
    good = {
        "title": "Look up a kettle's SKU",
        "instruction": INSTRUCTION,
        "files": {"solution/actions.json": fixed},
    }
    bad = good | {"files": {"solution/actions.json": broken}}
    proposer = serve(Script(propose=[idea()], write_files=[files()], refine=[bad, good]))
    proposal = propose_one(proposer)
    assert isinstance(proposal, Proposal)
    task, _ = proposer.write_files(proposal)
    with_files = proposal.model_copy(update={"files": task})
    evidence = Evidence(stage="test", side="task", reason="the oracle scored 0")
    rejected, _ = proposer.refine(with_files, evidence, run_seed=3)
    assert isinstance(rejected, Rejected) and "'#product-row-4' names no control" in rejected.error
    refined, _ = proposer.refine(with_files, evidence, run_seed=3)
    assert isinstance(refined, Proposal) and refined.provenance.parent == proposal.id
    assert refined.files and json.loads(refined.files.files["solution/actions.json"]) == fixed
    assert refined.files.files["tests/check.py"] == CHECK and refined.healthcheck == "forge-site-ready"


def test_pools_without_a_site_seed_are_refused_up_front(tmp_path: Path) -> None:
    (tmp_path / "notes.json").write_text('{"today": "2026-03-16"}')
    with pytest.raises(PoolError, match="hold no site seed"):
        LLMProposer("browser", load_pools([tmp_path]), config("http://127.0.0.1:9/v1"))


# --- the CLI ---------------------------------------------------------------------------------------------


def test_the_cli_takes_a_model_for_the_browser_domain(tmp_path: Path) -> None:
    args = ["propose", "--domain", "browser", "--model", "http://127.0.0.1:9/v1", "--model-name", "m"]
    result = CliRunner().invoke(app, [*args, "--n", "1", "--dry-run", "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "TASK: propose" in result.output and "Control ids, per page template" in result.output


# --- Docker: the pipeline ---------------------------------------------------------------------------------


@pytest.mark.docker
def test_a_scripted_models_browser_task_is_built_recorded_and_verified(
    tmp_path: Path, client: docker.DockerClient, base_image: str
) -> None:
    from synth.pipeline import PipelineOptions, run_pipeline
    from synth.prune import PruneConfig
    from synth.run_dir import RunDir, RunSettings

    script = Script(propose=[idea()], write_files=[files()])
    with scripted_llm(script) as url:
        settings = RunSettings(
            domain="browser",
            proposer="llm",
            seed=3,
            pools=[str(WEB_POOL)],
            model_url=url,
            model_name="scripted",
        )
        run = RunDir.create(tmp_path / "run", settings)
        proposer = LLMProposer("browser", load_pools([WEB_POOL]), config(url))
        # no forgery stage: a browser task's is test_browser_env.py::test_browser_tasks_pass_the_gate's
        options = PipelineOptions(
            n=1, max_proposals=1, max_rounds=0, forgery=False, prune=PruneConfig(semantic=False)
        )
        accepted = run_pipeline(run, proposer, client, options, writer=proposer)
    builds = run.builds()
    failures = {i: (b.error or "")[-1500:] for i, b in builds.items() if not b.ok}
    assert accepted == 1, (failures, {i: (t.reasons, t.detail) for i, t in run.tests().items()})
    [name] = [i for i, record in run.tests().items() if record.accepted]
    task = run.task_dir(name)
    steps = json.loads((task / "solution" / "actions.json").read_text())
    pointed = [s for s in steps if s["action"] in ("click", "type")]
    assert pointed and all(isinstance(s.get("x"), int) and isinstance(s.get("y"), int) for s in pointed)
    verified = json.loads((task / "verified.json").read_text())
    assert [r["reward"] for r in verified["oracle"]] == [1.0, 1.0] and verified["nop"]["reward"] == 0.0
    assert verified["forgeries"] == []  # skipped here (see the options)
    config_toml = tomllib.loads((task / "task.toml").read_text())
    assert config_toml["metadata"]["tags"] == ["browser", "site:shop", "lookup"]
