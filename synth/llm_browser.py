"""Browser tasks from the LLM proposer: the model writes the script, the checker and (maybe) the seed;
this module writes the rest and holds the model's part to the rules a catalog/browser task keeps.

The model gives `solution/actions.json` (steps with `#id` selectors of the site's controls, ending with
`answer` for a lookup or `done`), `tests/check.py` (python3 standard library only) and optionally
`environment/seed.json` (the site's seed, changed where the task needs it; else the seed the proposal
was grounded in). The Dockerfile, solve.sh, test.sh come from the same templates as the offline browser
families', so the model cannot get the image, the replay or the reward wrong. Every problem is a
ProposalInvalid naming it (the build stage records it; refine turns it into a Rejected).
"""

from __future__ import annotations

import ast
import json
import sys
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from synth.errors import ProposalInvalid
from synth.families.base import render
from synth.families.web import LOOKUP_ENDING, SOLVE_SH, script_text
from synth.spec import TaskFiles
from synth.web_sites import SITE_URL, SITES, selector_problem

ACTIONS = "solution/actions.json"
CHECK = "tests/check.py"
SEED = "environment/seed.json"
MODEL_FILES = (ACTIONS, CHECK, SEED)
"""What the model writes; every other file of a browser task is ours."""
WRITER_FILES = ("environment/Dockerfile", "solution/solve.sh", "tests/test.sh", "instruction.md")
"""Written from the templates (a model's version of them is ignored)."""
HEALTHCHECK = "forge-site-ready"
MAX_STEPS = 60
SEED_EXCERPT_ROWS = 8


class _Step(BaseModel):
    model_config = ConfigDict(extra="ignore")  # recorded x, y (refine shows them) are recorded again


class Goto(_Step):
    action: Literal["goto"]
    url: str = Field(pattern=r"^http://127\.0\.0\.1:8080/")


class Click(_Step):
    action: Literal["click"]
    selector: str


class Type(_Step):
    action: Literal["type"]
    selector: str
    text: str


class Key(_Step):
    action: Literal["key"]
    key: str = Field(min_length=1)


class Scroll(_Step):
    action: Literal["scroll"]
    dy: int


class Answer(_Step):
    action: Literal["answer"]
    text: str = Field(min_length=1)


class Done(_Step):
    action: Literal["done"]


Step = Annotated[Goto | Click | Type | Key | Scroll | Answer | Done, Field(discriminator="action")]
STEPS = TypeAdapter(list[Step])


def seed_excerpt(seed: dict[str, Any], rows: int = SEED_EXCERPT_ROWS) -> str:
    """A seed as a propose prompt shows it: each list's first `rows` entries, one JSON line each."""
    lines = []
    for key, value in seed.items():
        if isinstance(value, list):
            more = f" (first {rows} of {len(value)})" if len(value) > rows else ""
            lines.append(f"{key}{more}:")
            lines += ["  " + json.dumps(entry, ensure_ascii=False) for entry in value[:rows]]
        else:
            lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines)


def check_steps(site: str, raw: Any) -> list[dict[str, Any]]:
    """The script's steps, validated: well-formed, `#id`s of the site, ending with answer or done."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ProposalInvalid(f"{ACTIONS} is not JSON: {exc}") from None
    if not isinstance(raw, list) or not raw:
        raise ProposalInvalid(f"{ACTIONS} must be a non-empty JSON list of steps")
    if len(raw) > MAX_STEPS:
        raise ProposalInvalid(f"{ACTIONS} has {len(raw)} steps, more than {MAX_STEPS}")
    try:
        steps = STEPS.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ProposalInvalid(f"{ACTIONS}: step {where}: {first['msg']}") from None
    for index, step in enumerate(steps, 1):
        if isinstance(step, Click | Type) and (problem := selector_problem(site, step.selector)):
            raise ProposalInvalid(f"{ACTIONS}: step {index}: {problem}")
        if isinstance(step, Answer | Done) and index != len(steps):
            raise ProposalInvalid(f"{ACTIONS}: step {index}: {step.action} must be the last step")
    if not isinstance(steps[-1], Answer | Done):
        raise ProposalInvalid(f"{ACTIONS} must end with an answer step (a lookup) or a done step")
    return [step.model_dump() for step in steps]


def check_checker(text: Any) -> str:
    """tests/check.py: Python that compiles and imports the standard library only."""
    if not isinstance(text, str) or not text.strip():
        raise ProposalInvalid(f"{CHECK} is missing (the checker, a python3 script)")
    try:
        tree = ast.parse(text, CHECK)
    except SyntaxError as exc:
        raise ProposalInvalid(f"{CHECK} is not valid Python: {exc}") from None
    for node in ast.walk(tree):
        names = (
            [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.level == 0
            else []
        )
        for name in names:
            if name.split(".")[0] not in sys.stdlib_module_names:
                raise ProposalInvalid(f"{CHECK} imports {name!r}: the standard library only")
    return text


def check_seed(site: str, raw: Any, default_seed: dict[str, Any]) -> str:
    """environment/seed.json: a JSON object with the keys of the site's seed (some may be left out)."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ProposalInvalid(f"{SEED} is not JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise ProposalInvalid(f"{SEED} must be a JSON object (the {site} site's seed)")
    unknown = sorted(set(raw) - set(default_seed))
    if unknown:
        raise ProposalInvalid(
            f"{SEED} has keys the {site} seed has not: {', '.join(unknown)} "
            f"(its keys: {', '.join(default_seed)})"
        )
    if "today" not in raw:
        raise ProposalInvalid(f"{SEED} has no `today`")
    return json.dumps(raw, indent=1, ensure_ascii=False) + "\n"


def browser_task_files(
    site: str, files: dict[str, Any], instruction: str, default_seed: dict[str, Any]
) -> TaskFiles:
    """The whole task from the model's files (see the module's docstring); ProposalInvalid if they are
    not a task of `site`."""
    if site not in SITES:
        raise ProposalInvalid(f"unknown site {site!r}; the sites: {', '.join(SITES)}")
    unknown = sorted(set(files) - set(MODEL_FILES) - set(WRITER_FILES))
    if unknown:
        raise ProposalInvalid(
            f"a browser task's files are {', '.join(MODEL_FILES)} (the rest is written for you), "
            f"not {', '.join(unknown)}"
        )
    if ACTIONS not in files:
        raise ProposalInvalid(f"{ACTIONS} is missing (the reference action script)")
    steps = check_steps(site, files[ACTIONS])
    final = steps[-1]
    text = instruction.rstrip() + "\n"
    if SITE_URL not in text:
        raise ProposalInvalid(f"the instruction never names the site's URL {SITE_URL}")
    if final["action"] == "answer":
        if final["text"].casefold() in text.casefold():
            raise ProposalInvalid("the instruction gives the answer away (the answer step's text is in it)")
        if "final answer" not in text.casefold():
            text = text.rstrip() + " " + LOOKUP_ENDING + "\n"
    seed = files.get(SEED)
    out = {
        "instruction.md": text,
        "environment/Dockerfile": render("common/browser-Dockerfile.j2", site=site),
        SEED: check_seed(site, default_seed if seed is None else seed, default_seed),
        ACTIONS: script_text(steps),
        "solution/solve.sh": SOLVE_SH,
        CHECK: check_checker(files.get(CHECK)),
        "tests/test.sh": render("common/test.sh.j2"),
    }
    return TaskFiles(files=out)
