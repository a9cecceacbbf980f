"""The LLM proposer against a scripted OpenAI-compatible server, through the real openai SDK: answers
parsed and validated into proposals (or Rejected), retries and ModelUnavailable, the response_format
fallback, write_files' checks, refine's versions, dry-run prompts grounded in the pool items. No Docker:
the scripted tasks are run on this machine with their absolute paths moved under a temp folder."""

from __future__ import annotations

import json
import re
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from synth.errors import ModelUnavailable, ProposalInvalid
from synth.llm import EXCERPT_BYTES, LLMConfig, LLMProposer, check_files, messages_sha256, parse_json_object
from synth.pools import Pools, load_pools
from synth.spec import Evidence, Proposal, ProposeRequest, Rejected, TaskFiles
from tests.synth.scripted_llm import (
    Delay,
    Script,
    ScriptedTask,
    Status,
    broken_dockerfile,
    claw_task,
    crashing_checker,
    fenced,
    near_duplicate,
    scripted_llm,
    zero_oracle,
)

MODEL = "scripted-model"
CSV_ROW = "SO-77123,north,Gizmo,3"
MD_LINE = "Returns are accepted within 30 days with the receipt."


@pytest.fixture
def pools(tmp_path: Path) -> Pools:
    root = tmp_path / "shop"
    root.mkdir()
    (root / "sales.csv").write_text("order_id,region,product,quantity\n" + CSV_ROW + "\n")
    (root / "policy.md").write_text(f"# Shop policy\n\n{MD_LINE}\n")
    return load_pools([root])


def test_the_config_has_its_defaults_and_keeps_the_key_to_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    settings = LLMConfig(base_url="http://127.0.0.1:1/v1", model="m")
    assert settings.api_key == "sk-secret"
    assert (settings.timeout_sec, settings.retries, settings.temperature, settings.max_tokens) == (
        120,
        3,
        0.8,
        4096,
    )
    assert "sk-secret" not in repr(settings) and "api_key" not in settings.model_dump()
    monkeypatch.delenv("OPENAI_API_KEY")
    assert LLMConfig(base_url="http://127.0.0.1:1/v1", model="m").api_key == "none"


def config(url: str, **changes: Any) -> LLMConfig:
    settings: dict[str, Any] = {
        "base_url": url,
        "model": MODEL,
        "api_key": "test",
        "timeout_sec": 10,
        "retries": 2,
        "retry_wait_sec": 0.01,
        "retry_wait_max_sec": 0.02,
    }
    return LLMConfig(**(settings | changes))


@pytest.fixture
def serve(pools: Pools) -> Iterator[Any]:
    """serve(script, **config changes) -> an LLMProposer on a scripted server (closed after the test)."""
    stack: list[Any] = []

    def start(script: Script, **changes: Any) -> LLMProposer:
        server = scripted_llm(script)
        url = server.__enter__()
        proposer = LLMProposer("claw", pools, config(url, **changes))
        stack.append((server, proposer))
        return proposer

    yield start
    for server, proposer in reversed(stack):
        proposer.close()
        server.__exit__(None, None, None)


def request(n: int = 1, seed: int = 7, **fields: Any) -> ProposeRequest:
    return ProposeRequest(domain="claw", n=n, seed=seed, **fields)


def proposals(proposer: LLMProposer, req: ProposeRequest) -> list[Proposal | Rejected]:
    return [made for made, _ in proposer.propose(req)]


# --- propose -------------------------------------------------------------------------------------------


def test_propose_parses_good_answers_into_proposals_with_provenance(serve: Any, pools: Pools) -> None:
    tasks = [claw_task(1), claw_task(2)]
    script = Script(propose=tasks)
    proposer = serve(script)
    made = list(proposer.propose(request(n=2, personas=["a café owner"])))

    assert [p.id for p, _ in made] == ["llm-7-0000", "llm-7-0001"]
    for (proposal, usage), task, received in zip(made, tasks, script.requests, strict=True):
        assert isinstance(proposal, Proposal)
        assert (proposal.title, proposal.instruction) == (task.title, task.instruction)
        assert (proposal.category, proposal.difficulty, proposal.keywords) == (
            task.category,
            task.difficulty,
            task.keywords,
        )
        assert proposal.files is None
        provenance = proposal.provenance
        assert (provenance.proposer, provenance.model, provenance.domain, provenance.seed) == (
            "llm",
            MODEL,
            "claw",
            7,
        )
        assert provenance.params["id_hint"] == task.id_hint
        assert provenance.prompt_sha256 == messages_sha256(received.messages)
        assert provenance.persona == "a café owner" and "a café owner" in received.prompt
        assert len(provenance.pool_items) == 2 and set(provenance.pool_items) <= {i.ref for i in pools.all}
        assert usage.calls == 1 and usage.prompt_tokens > 100 and usage.completion_tokens > 20
        body = received.body
        assert body["model"] == MODEL and body["response_format"] == {"type": "json_object"}
        assert body["temperature"] == 0.8 and body["max_tokens"] == 4096 and isinstance(body["seed"], int)
    assert script.count("propose") == 2


def test_start_and_index_name_the_proposals(serve: Any) -> None:
    proposer = serve(Script())
    made = proposals(proposer, request(n=2, seed=3, start=10))
    assert [p.id for p in made] == ["llm-3-0010", "llm-3-0011"]
    titles = {p.title for p in made if isinstance(p, Proposal)}
    assert len(titles) == 2


def test_invalid_answers_are_rejected_with_their_usage_never_raised(serve: Any) -> None:
    good = claw_task(3)
    bad_fields = {**good.proposal_answer(), "difficulty": 5, "title": ""}
    script = Script(propose=["Sure! Here is a task: {title: oops", bad_fields, good])
    proposer = serve(script)
    made = list(proposer.propose(request(n=3)))

    kinds = [type(p).__name__ for p, _ in made]
    assert kinds == ["Rejected", "Rejected", "Proposal"]
    first, second = made[0][0], made[1][0]
    assert isinstance(first, Rejected) and isinstance(second, Rejected)
    assert (first.id, first.stage, first.error_class) == ("llm-7-0000", "propose", "ProposalInvalid")
    assert "not a JSON object" in first.error
    assert "difficulty" in second.error and "title" in second.error
    assert first.usage.calls == 1 and first.usage.completion_tokens > 0
    assert made[0][1] == first.usage


def test_a_json_list_answer_is_rejected(serve: Any) -> None:
    # A list is valid JSON but not the object asked for (the script sends it as raw text).
    proposer = serve(Script(propose=['[{"title": "a"}]']))
    (made,) = proposals(proposer, request())
    assert isinstance(made, Rejected) and "not an object" in made.error


def test_fenced_json_is_parsed(serve: Any) -> None:
    task = claw_task(4)
    named = {**claw_task(5).proposal_answer(), "difficulty": "Hard", "keywords": "CSV, totals"}
    proposer = serve(
        Script(propose=[fenced(task.proposal_answer(), "Here is a task in the claw domain:"), named])
    )
    first, second = proposals(proposer, request(n=2))
    assert isinstance(first, Proposal) and first.title == task.title
    assert isinstance(second, Proposal) and second.difficulty == 3 and second.keywords == ["csv", "totals"]


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        'Sure.\n```json\n{"a": 1}\n```\nDone.',
        'Here:\n```\n{"a": 1}\n```',
        'The answer is {"a": 1} as asked.',
    ],
)
def test_parse_json_object_finds_the_object(text: str) -> None:
    assert parse_json_object(text) == {"a": 1}


@pytest.mark.parametrize("text", ["", "   ", "no json here", "```json\n[1, 2]\n```", "{broken"])
def test_parse_json_object_refuses_what_is_not_one(text: str) -> None:
    with pytest.raises(ProposalInvalid):
        parse_json_object(text)


# --- retries, timeouts, response_format ---------------------------------------------------------------


def test_a_429_then_success_is_retried(serve: Any) -> None:
    script = Script(propose=[Status(429, "slow down"), Status(500), claw_task(5)])
    proposer = serve(script)
    (made,) = proposals(proposer, request())
    assert isinstance(made, Proposal)
    assert [r.status for r in script.requests] == [429, 500, 200]


def test_a_server_that_always_fails_is_unavailable_after_the_retries(serve: Any) -> None:
    script = Script(propose=[Status(500)], after="cycle")
    proposer = serve(script, retries=2)
    with pytest.raises(ModelUnavailable) as raised:
        proposals(proposer, request(n=3))
    assert script.count("propose") == 3  # the first attempt and 2 retries, then it stops
    assert proposer.config.base_url in str(raised.value) and "after 3 attempts" in str(raised.value)
    assert "InternalServerError" in str(raised.value)


def test_a_server_that_times_out_is_unavailable_after_the_retries(serve: Any) -> None:
    script = Script(defaults={"propose": Delay(1.5)})
    proposer = serve(script, retries=1, timeout_sec=0.2)
    with pytest.raises(ModelUnavailable, match="APITimeoutError"):
        proposals(proposer, request())
    assert script.count("propose") == 2


def test_an_endpoint_nobody_listens_on_is_unavailable(pools: Pools) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    with (
        LLMProposer("claw", pools, config(url, retries=1)) as proposer,
        pytest.raises(ModelUnavailable, match=re.escape(url)) as raised,
    ):
        proposals(proposer, request())
    assert "APIConnectionError" in str(raised.value)


def test_a_wrong_model_name_is_unavailable_without_retries(serve: Any) -> None:
    script = Script(propose=[Status(404, "The model `nope` does not exist.")], after="cycle")
    proposer = serve(script)
    with pytest.raises(ModelUnavailable, match="does not exist"):
        proposals(proposer, request())
    assert script.count() == 1


def test_a_refused_response_format_is_dropped_once_and_for_good(serve: Any) -> None:
    script = Script(reject_response_format=True)
    proposer = serve(script)
    made = proposals(proposer, request(n=2))
    assert all(isinstance(p, Proposal) for p in made)
    assert [("response_format" in r.body, r.status) for r in script.requests] == [
        (True, 400),
        (False, 200),
        (False, 200),
    ]
    assert proposer.json_mode is False


def test_a_400_that_is_not_about_response_format_rejects_the_proposal(serve: Any) -> None:
    script = Script(
        propose=[Status(400, "This model's maximum context length is 4096 tokens.")], after="cycle"
    )
    proposer = serve(script)
    (made,) = proposals(proposer, request())
    assert isinstance(made, Rejected) and "maximum context length" in made.error
    assert script.count() == 2  # with response_format, then once without it
    assert proposer.json_mode is True


# --- write_files ---------------------------------------------------------------------------------------


def _proposal(proposer: LLMProposer, seed: int = 7) -> Proposal:
    (made,) = proposals(proposer, request(seed=seed))
    assert isinstance(made, Proposal)
    return made


def test_write_files_returns_the_task_files_of_the_proposal(serve: Any, pools: Pools) -> None:
    task = claw_task(6)
    script = Script(propose=[task])
    proposer = serve(script)
    proposal = _proposal(proposer)
    files, usage = proposer.write_files(proposal)

    assert files == TaskFiles(files=task.files)
    assert usage.calls == 1 and usage.completion_tokens > 100
    (received,) = script.requests[1:]
    assert received.kind == "write_files" and received.body["response_format"] == {"type": "json_object"}
    prompt = received.prompt
    assert f"Title: {task.title}" in prompt and task.instruction.strip() in prompt
    assert "ARG FORGE_BASE=openforge/base:latest" in prompt and "FROM ${FORGE_BASE}" in prompt
    assert "/logs/verifier/reward.txt" in prompt and "NO network" in prompt
    shown = {i.path for i in pools.all if i.ref in proposal.provenance.pool_items}
    assert (CSV_ROW in prompt) == ("sales.csv" in shown) and (MD_LINE in prompt) == ("policy.md" in shown)


def _without(files: dict[str, str], path: str) -> dict[str, str]:
    return {k: v for k, v in files.items() if k != path}


GOOD_FILES = claw_task(8).files


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({"files": _without(GOOD_FILES, "tests/test.sh")}, "tests/test.sh is missing"),
        ({"files": _without(GOOD_FILES, "solution/solve.sh")}, "solution/solve.sh is missing"),
        ({"files": {**GOOD_FILES, "environment/Dockerfile": "FROM debian:bookworm\n"}}, "ARG FORGE_BASE"),
        ({"files": {**GOOD_FILES, "tests/test.sh": "#!/bin/bash\npython3 /tests/check.py\n"}}, "reward.txt"),
        ({"files": {**GOOD_FILES, "../escape.sh": "x"}}, "relative path inside"),
        ({"files": {**GOOD_FILES, "task.toml": "[task]"}}, "task.toml"),
        ({"files": {**GOOD_FILES, "tests/check.py": 3}}, "not text"),
        ({"tests/test.sh": "..."}, 'no "files" object'),
        ('```json\n{"files": {\n```', "not a JSON object"),
    ],
)
def test_write_files_refuses_what_is_not_a_task(serve: Any, answer: Any, message: str) -> None:
    proposer = serve(Script(write_files=[answer]))
    proposal = _proposal(proposer)
    with pytest.raises(ProposalInvalid, match=re.escape(message)) as raised:
        proposer.write_files(proposal)
    assert str(raised.value).startswith(f"{proposal.id}: the model's files are not a task")


def test_write_files_drops_an_instruction_md_the_model_wrote(serve: Any) -> None:
    task = claw_task(9)
    proposer = serve(
        Script(propose=[task], write_files=[{"files": {**task.files, "instruction.md": "other"}}])
    )
    files, _ = proposer.write_files(_proposal(proposer))
    assert "instruction.md" not in files.files


def test_write_files_retries_and_gives_up_like_propose(serve: Any) -> None:
    script = Script(write_files=[Status(503)], after="cycle")
    proposer = serve(script, retries=1)
    proposal = _proposal(proposer)
    with pytest.raises(ModelUnavailable):
        proposer.write_files(proposal)
    assert script.count("write_files") == 2


# --- refine --------------------------------------------------------------------------------------------


def _built(proposer: LLMProposer) -> Proposal:
    proposal = _proposal(proposer)
    files, _ = proposer.write_files(proposal)
    return proposal.model_copy(update={"files": files})


def test_refine_returns_a_new_version_with_its_parent(serve: Any) -> None:
    broken = zero_oracle(claw_task(10))
    script = Script(propose=[broken])
    proposer = serve(script)
    old = _built(proposer)
    assert old.files is not None and old.files.files == broken.files
    evidence = Evidence(
        stage="test",
        side="task",
        reason="the oracle scored 0",
        detail="log line\n" * 2000 + "FAIL\n - north: 43",
    )
    new, usage = proposer.refine(old, evidence, run_seed=7)

    assert isinstance(new, Proposal)
    assert new.id == f"{old.id}-v2"
    assert (new.provenance.parent, new.provenance.version) == (old.id, 2)
    assert new.provenance.pool_items == old.provenance.pool_items and new.provenance.model == MODEL
    assert new.files is not None and new.files.files == claw_task(10).files  # the fixed solution
    assert new.title == old.title and new.difficulty == old.difficulty
    assert usage.calls == 1
    received = script.requests[-1]
    assert received.kind == "refine"
    assert new.provenance.prompt_sha256 == messages_sha256(received.messages)
    prompt = received.prompt
    assert "the oracle scored 0" in prompt and "FAIL\n - north: 43" in prompt and "[... truncated]" in prompt
    assert old.instruction.strip() in prompt and "#### solution/solve.sh" in prompt
    assert "v + 1 for k, v in out.items()" in prompt  # the broken solution is shown

    newer, _ = proposer.refine(new, evidence, run_seed=7)
    assert isinstance(newer, Proposal)
    assert newer.id == f"{old.id}-v3" and newer.provenance.parent == new.id and newer.provenance.version == 3


def test_refine_keeps_the_files_it_was_not_given_and_deletes_nulls(serve: Any) -> None:
    task = claw_task(11)
    fixed_solve = task.files["solution/solve.sh"].replace("Reference solution", "Fixed reference solution")
    answer = {
        "title": task.title,
        "instruction": task.instruction + "\nWrite the keys in any order.\n",
        "files": {"solution/solve.sh": fixed_solve, "tests/notes.txt": None},
    }
    proposer = serve(Script(propose=[task], refine=[answer]))
    old = _built(proposer)
    assert old.files is not None
    old = old.model_copy(update={"files": TaskFiles(files={**old.files.files, "tests/notes.txt": "x"})})
    new, _ = proposer.refine(old, Evidence(stage="build", side="task", reason="x"), run_seed=1)
    assert isinstance(new, Proposal) and new.files is not None
    assert new.files.files == {**task.files, "solution/solve.sh": fixed_solve}
    assert new.instruction.endswith("Write the keys in any order.")


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ("I cannot fix this task.", "not a JSON object"),
        ({"title": "Fixed", "instruction": "Do the thing properly, at last."}, None),
        ({"instruction": "x" * 40, "files": {}}, "title"),
        (
            {"title": "A fixed task", "instruction": "y" * 40, "files": {"tests/test.sh": None}},
            "tests/test.sh",
        ),
        ({"title": "A fixed task", "instruction": "z" * 40, "files": ["a"]}, '"files" must be an object'),
    ],
)
def test_refine_turns_a_bad_answer_into_a_rejected(serve: Any, answer: Any, message: str | None) -> None:
    proposer = serve(Script(refine=[answer]))
    old = _built(proposer)
    new, usage = proposer.refine(old, Evidence(stage="build", side="task", reason="RUN false"), run_seed=2)
    if message is None:  # only title and instruction changed: the old files stay
        assert isinstance(new, Proposal) and new.files == old.files and new.title == "Fixed"
        return
    assert isinstance(new, Rejected)
    assert (new.id, new.stage, new.error_class) == (old.id, "refine", "ProposalInvalid")
    assert message in new.error and usage.calls == 1


def test_refine_of_a_proposal_without_files_needs_all_of_them(serve: Any) -> None:
    proposer = serve(Script(refine=[{"title": "A fixed task", "instruction": "w" * 40, "files": {}}]))
    old = _proposal(proposer)
    new, _ = proposer.refine(old, Evidence(stage="build", side="task", reason="no files"), run_seed=2)
    assert isinstance(new, Rejected) and "environment/Dockerfile is missing" in new.error
    assert (
        "It has no files yet: write all of them."
        in proposer.refine_prompt(old, Evidence(stage="build", side="task", reason="no files"))[1]["content"]
    )


@pytest.mark.parametrize(
    ("pass_rate", "words", "difficulty"),
    [(1.0, "too easy", 3), (0.0, "too hard", 1), (0.5, "too hard", 1)],
)
def test_refine_moves_the_difficulty_with_the_pass_rate(
    serve: Any, pass_rate: float, words: str, difficulty: int
) -> None:
    task = claw_task(13)  # difficulty 2
    answer = {k: v for k, v in task.refine_answer().items() if k != "difficulty"}
    script = Script(propose=[task], refine=[answer])
    proposer = serve(script)
    old = _built(proposer)
    assert old.difficulty == 2
    evidence = Evidence(stage="test", side="agent", reason="pass rate outside the band", pass_rate=pass_rate)
    new, _ = proposer.refine(old, evidence, run_seed=7)
    assert isinstance(new, Proposal) and new.difficulty == difficulty
    prompt = script.prompts("refine")[0]
    assert words in prompt and f"difficulty {difficulty} of 3" in prompt and f"{pass_rate:.2f}" in prompt


# --- dry run, grounding --------------------------------------------------------------------------------


def test_prompts_for_a_dry_run_make_no_request_and_are_what_propose_sends(serve: Any) -> None:
    script = Script()
    proposer = serve(script)
    req = request(n=3, seed=11, personas=["a librarian", "a nurse"])
    planned = proposer.prompts(req)
    assert len(planned) == 3 and script.count() == 0
    assert planned == proposer.prompts(req)  # the seed decides
    proposals(proposer, req)
    assert [r.messages for r in script.requests] == planned


def test_prompts_are_grounded_in_the_pool_items(serve: Any, tmp_path: Path) -> None:
    root = tmp_path / "big"
    root.mkdir()
    rows = "".join(f"R-{i:05d},north,Widget,{i % 17}\n" for i in range(400))
    (root / "large.csv").write_text("id,region,product,quantity\n" + rows)
    (root / "notes.md").write_text("# Opening hours\n\nWe open at 9 on weekdays.\n")
    (root / "app.toml").write_text('[server]\nport = 8080\nname = "shop"\n')
    with scripted_llm(Script()) as url, LLMProposer("claw", load_pools([root]), config(url)) as proposer:
        (messages,) = proposer.prompts(request(seed=5))
    system, user = messages
    assert system["role"] == "system" and system["content"].startswith("TASK: propose\n")
    assert user["role"] == "user"
    text = user["content"]
    for name, kind in (("large.csv", "csv"), ("notes.md", "markdown"), ("app.toml", "config")):
        assert f"{name} (kind: {kind}; pool big, {name})" in text
    assert "We open at 9 on weekdays." in text and "port = 8080" in text
    assert "R-00000,north,Widget,0" in text and "R-00399" not in text and "[... truncated]" in text
    excerpt = text.split("large.csv (kind: csv; pool big, large.csv)\n```\n", 1)[1].split("\n```", 1)[0]
    assert len(excerpt.encode()) <= EXCERPT_BYTES


def test_a_persona_is_shown_only_when_given(serve: Any) -> None:
    proposer = serve(Script())
    (plain,) = proposer.prompts(request())
    assert "The person asking" not in plain[1]["content"]
    (with_persona,) = proposer.prompts(request(personas=["a retired teacher"]))
    assert "The person asking: a retired teacher." in with_persona[1]["content"]


# --- the scripted server and its tasks -----------------------------------------------------------------


def test_the_automatic_answers_make_distinct_tasks_with_their_own_files(serve: Any) -> None:
    script = Script(auto_start=20)
    proposer = serve(script)
    made = proposals(proposer, request(n=3))
    assert all(isinstance(p, Proposal) for p in made)
    assert [p.title for p in made] == [claw_task(n).title for n in (20, 21, 22)]  # type: ignore[union-attr]
    for n, proposal in zip((20, 21, 22), made, strict=True):
        assert isinstance(proposal, Proposal)
        files, _ = proposer.write_files(proposal)
        assert files.files == claw_task(n).files


def _run_locally(files: dict[str, str], root: Path, *, solve: bool = True) -> str | None:
    """Run a task's solution and tests on this machine, its absolute paths moved under `root`; the
    reward it wrote (None: none)."""

    def moved(text: str) -> str:
        for path in ("/app/", "/tests/", "/logs/verifier"):
            text = text.replace(path, f"{root}{path}")
        return text

    for rel, text in files.items():
        target = root / "task" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(moved(text))
        if rel.startswith("tests/"):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(moved(text))
    for source, dest in re.findall(r"^COPY (\S+) (\S+)$", files["environment/Dockerfile"], re.MULTILINE):
        target = Path(moved(dest))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((root / "task" / "environment" / source).read_bytes())
    if solve:
        subprocess.run(["bash", str(root / "task" / "solution" / "solve.sh")], check=True, timeout=60)
    subprocess.run(["bash", str(root / "tests" / "test.sh")], capture_output=True, timeout=60)
    reward = root / "logs" / "verifier" / "reward.txt"
    return reward.read_text().strip() if reward.exists() else None


@pytest.mark.parametrize("n", [0, 21])
def test_the_scripted_tasks_work_and_their_broken_variants_fail(tmp_path: Path, n: int) -> None:
    task = claw_task(n)
    assert _run_locally(task.files, tmp_path / "good") == "1"
    assert _run_locally(task.files, tmp_path / "untouched", solve=False) == "0"
    assert _run_locally(zero_oracle(task).files, tmp_path / "zero") == "0"
    assert _run_locally(crashing_checker(task).files, tmp_path / "crash") is None
    out = json.loads((tmp_path / "good" / "app" / "out.json").read_text())
    assert out == task.expected


def test_the_broken_variants_say_what_is_broken() -> None:
    task = claw_task(4)
    assert broken_dockerfile(task).files["environment/Dockerfile"].endswith("RUN false\n")
    missing = broken_dockerfile(task, "missing_copy").files
    (source,) = re.findall(r"^COPY (data/lookup_\S+)", missing["environment/Dockerfile"], re.MULTILINE)
    assert f"environment/{source}" not in missing
    for variant in (broken_dockerfile(task), crashing_checker(task), zero_oracle(task)):
        assert variant.fixed == task and variant.refine_answer()["files"] == task.files
        check_files(variant.files)  # passes the proposer's checks: it is broken only when built or run
    twin = near_duplicate(task)
    changed = [
        (a, b) for a, b in zip(task.instruction.split(), twin.instruction.split(), strict=True) if a != b
    ]
    assert changed == [("lists", "contains")] and twin.title != task.title and twin.files == task.files


def test_distinct_numbers_give_distinct_tasks() -> None:
    tasks: list[ScriptedTask] = [claw_task(n) for n in range(24)]
    assert len({t.title for t in tasks}) == 24
    assert len({t.instruction for t in tasks}) == 24
    assert len({t.id_hint for t in tasks}) == 24
