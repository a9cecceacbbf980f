"""The LLM proposer's prompts: one system and one user template per kind of call (propose, write_files,
refine), rendered with jinja2.

Each system prompt starts with a stable marker line, `TASK: <kind>`, so a log reader (or the scripted
server the tests use) can tell the calls apart; the rules for a task's files are shared by write_files
and refine, so a refined task is held to the same rules as a first one. Browser tasks have their own
propose and write_files templates and file rules (the model writes the action script, the checker and
maybe the seed of one local site, shown with its reference: synth/web_sites.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import jinja2

Kind = Literal["propose", "write_files", "refine"]
KINDS: tuple[Kind, ...] = ("propose", "write_files", "refine")


def marker(kind: Kind) -> str:
    """The first line of each system prompt of that kind."""
    return f"TASK: {kind}"


MARKER_RE = re.compile(r"^TASK: (propose|write_files|refine)\s*$", re.MULTILINE)

DOMAIN_BRIEFS = {
    "claw": (
        "The agents are personal and office assistants (in the style of OpenClaw) working in a user's "
        "workspace: they read and write files, clean and summarise data, fix configuration, search logs, "
        "update small databases and repositories, all from a shell."
    ),
    "browser": (
        "The agents use a web browser (screenshots in, clicks and keystrokes out) on small local web "
        "sites served at http://127.0.0.1:8080/ with no network: a shop, a mail client, a room booking "
        "calendar, a wiki and a forum, each over one SQLite database."
    ),
}
GENERIC_BRIEF = "The agents work in a Linux container from a shell, on tasks of the {domain} domain."

BASE_TOOLS = (
    "bash, coreutils, python3 (standard library only: csv, json, sqlite3, re, decimal, datetime, ...), "
    "git, jq, curl, procps, less, file"
)

FILE_RULES = """\
Every file is given in full: a JSON object maps each path, relative to the task directory, to the file's
whole text. The files and their rules:

- `environment/Dockerfile` builds the container the agent works in. Its first two lines are exactly
      ARG FORGE_BASE=openforge/base:latest
      FROM ${FORGE_BASE}
  followed by `WORKDIR /app` and one `COPY <path> <destination>` per file the task needs, the path
  relative to `environment/` (`COPY data/orders.csv /app/data/orders.csv`). The base image is Debian
  with {{ tools }}. There is NO network, neither when the image is built nor when the task runs: no
  apt-get, pip, npm, git clone, curl or wget of URLs. Everything the task needs is written out under
  `environment/`; `RUN` only for local steps (chmod, mkdir, git init with a local commit).
- `environment/...`: the data files the instruction names, each under 8 KB, holding exactly what the
  instruction and the tests assume (the same rows, names and numbers).
- `tests/test.sh` is the hidden verifier, run as `bash /tests/test.sh` after the agent is done, with the
  files of `tests/` at `/tests/` (the agent never sees them). It must always write the reward:
  `mkdir -p /logs/verifier`, then `echo 1 > /logs/verifier/reward.txt` when every check passes and
  `echo 0 > /logs/verifier/reward.txt` otherwise, so a failing check never leaves the reward missing.
- `tests/check.py` (and any other file under `tests/`) holds the checks. Check the resulting state: the
  files at the paths the instruction names, their exact structure and values, that inputs that must not
  change are unchanged. Never check what the agent said or printed, and never trust a file the agent
  could have written to claim success. Embed or recompute the expected values from the data you wrote,
  exactly (compare numbers with a small tolerance only where the instruction allows rounding), and print
  what is wrong when a check fails.
- `solution/solve.sh`: a reference solution (`#!/bin/bash`, `set -euo pipefail`) that does the work
  honestly, reading the inputs and computing the result (not writing a memorised answer), so that the
  tests pass after it runs and fail before it runs.
- Do not write `task.toml` or `instruction.md`: they are made from the task's description."""

BROWSER_FILE_RULES = """\
A browser task runs on an image where the site is installed from `environment/seed.json` and served at
http://127.0.0.1:8080/ when the container starts. You write three files; the Dockerfile,
`solution/solve.sh` (it replays your script) and `tests/test.sh` (it runs your checker and writes the
reward) are written for you, do not write them.

- `solution/actions.json`: the reference solution, a JSON list of steps a person would take:
  {"action": "goto", "url": "http://127.0.0.1:8080/..."}, {"action": "click", "selector": "#id"},
  {"action": "type", "selector": "#id", "text": "..."} (clicks the field, replaces its text),
  {"action": "key", "key": "Enter"}, {"action": "scroll", "dy": 5000}, and last either
  {"action": "answer", "text": "..."} (a lookup: the final answer) or {"action": "done"}.
  Selectors are `#id` only, ids the site's reference lists (a `{id}` / `{slug}` part filled in with a
  real row's value of the seed). A control must be on screen (1280x800) when it is clicked: before a
  click on a long page's last control (a form's submit button), scroll down (dy 5000) first.
- `tests/check.py`: the hidden checker, python3 with the standard library only, run after the agent is
  done. It reads the site's database read-only and/or the final answer in /app/answer.txt, embeds the
  expected values (computed by you from the seed), prints what is wrong and exits 0 when the task is
  done, 1 otherwise. Compare answers exactly after normalising case, spacing and a final full stop
  (money as cents), never by substring (a list of candidates must fail). Check the state the task asks
  for (the row written, with exactly the values asked) and that nothing else that must not change did.
  A run that does nothing must fail.
- `environment/seed.json` (optional): the site's seed, whole, changed where the task needs particular
  data (same keys, lists may be edited); leave it out to use the seed shown unchanged.

An example (a lookup on the shop):
{"solution/actions.json": [{"action": "goto", "url": "http://127.0.0.1:8080/"},
  {"action": "click", "selector": "#category-outdoor"}, {"action": "click", "selector": "#sort-price-asc"},
  {"action": "answer", "text": "Waterproof Match Case"}],
 "tests/check.py": "#!/usr/bin/env python3\\nimport sqlite3, sys\\n... compare the normalised answer
  with 'Waterproof Match Case'; check the orders and the cart did not change ...;
  sys.exit(1 if problems else 0)\\n"}"""

BROWSER_PROPOSE_SYSTEM = """\
{{ marker }}
You design tasks for training and evaluating AI agents that use a web browser. {{ brief }}

A task is one request a real person would make of such an agent on one of these sites, with a precise,
checkable outcome: once the agent is done, a hidden checker reads the site's database (a booking made,
a message sent, a page edited, an order placed) or the agent's final answer (a lookup) and decides pass
or fail. A good task:
- is grounded in the site's data shown: it names real rows (products, messages, rooms, pages, threads);
- names the site's URL http://127.0.0.1:8080/ and gives every value the agent must type (names,
  addresses, dates, times, texts), so there is exactly one right outcome;
- takes real browsing (finding, comparing, filling a form) of 3 to 20 steps;
- for a lookup, asks one question with one exact answer, and never contains the answer; it ends with
  "Give the answer as your final answer.";
- can be done with the site's pages and controls as listed; never mentions the checker or a reward.

Answer with one JSON object and nothing else, with these keys:
{
  "site": "the site the task is for: {{ sites }}",
  "id_hint": "a short kebab-case name, e.g. shop-cheapest-kettle",
  "title": "one line: what the agent must do",
  "instruction": "the whole request to the agent, with the site's URL and every value needed",
  "category": "one word: lookup, form, edit, booking, messaging, shopping, ...",
  "difficulty": 1, 2 or 3 (easy, medium, hard),
  "keywords": ["3 to 6 lowercase keywords"]
}"""

BROWSER_PROPOSE_USER = """\
Propose task {{ index }} of this batch for the browser domain, on the `{{ site }}` site.
{% if persona %}
The person asking: {{ persona }}. Write the request as they would put it, for their situation.
{% endif %}

{{ reference }}
The site's data (seed {{ seed_path }}, an excerpt):
{{ fence }}
{{ seed }}
{{ fence }}"""

BROWSER_WRITE_FILES_SYSTEM = """\
{{ marker }}
You turn a task description into the files of a runnable, verifiable browser task for AI agents.
{{ brief }}

{{ file_rules }}

Answer with one JSON object and nothing else:
{"files": {"solution/actions.json": [...steps...], "tests/check.py": "...",
 "environment/seed.json": {...} (optional)}}"""

BROWSER_WRITE_FILES_USER = """\
Write the files of this task on the `{{ site }}` site.

Title: {{ title }}
Category: {{ category }}; difficulty: {{ difficulty }} of 3
The instruction the agent gets (instruction.md):
{{ fence }}
{{ instruction }}
{{ fence }}

{{ reference }}
The site's seed (environment/seed.json unless you change it):
{{ seed_fence }}
{{ seed }}
{{ seed_fence }}"""

PROPOSE_SYSTEM = """\
{{ marker }}
You design tasks for training and evaluating AI agents that work in a Linux terminal. {{ brief }}

A task is one request a real person would make of such an agent, with a precise, checkable outcome:
once the agent is done, hidden tests inspect the container (the files it wrote, the state it changed)
and decide pass or fail. A good task:
- is grounded in the data shown: its environment will hold that data (or a trimmed copy) under /app,
  and the instruction names the paths;
- says exactly what to produce: paths, formats, field names, ordering, rounding, how to treat odd or
  invalid input; nothing a checker would need is left unsaid;
- needs real work (reading, computing, transforming, fixing) a competent person does in 5 to 30 minutes,
  and cannot be passed by guessing or by writing a fixed answer without looking at the data;
- runs with no network, with only {{ tools }};
- never mentions the tests, the checker or a reward.

Answer with one JSON object and nothing else, with these keys:
{
  "id_hint": "a short kebab-case name, e.g. csv-region-totals",
  "title": "one line: what the agent must do",
  "instruction": "the whole request to the agent, in Markdown, with every path and the exact output format",
  "category": "one word: files, data, logs, git, config, code, schedule, notes, http, sqlite, ...",
  "difficulty": 1, 2 or 3 (easy, medium, hard),
  "keywords": ["3 to 6 lowercase keywords"]
}"""

PROPOSE_USER = """\
Propose task {{ index }} of this batch for the {{ domain }} domain.
{% if persona %}
The person asking: {{ persona }}. Write the request as they would put it, for their situation.
{% endif %}
{% if items %}
Ground the task in {% if items|length > 1 %}one or more of {% endif %}these pool items:
{% for item in items %}

### {{ loop.index }}. {{ item.name }} (kind: {{ item.kind }}; pool {{ item.pool }}, {{ item.path }})
{{ item.fence }}
{{ item.excerpt }}
{{ item.fence }}
{% endfor %}
{% else %}
No pool items were given: invent small, realistic data for the task.
{% endif %}"""

WRITE_FILES_SYSTEM = """\
{{ marker }}
You turn a task description into the files of a runnable, verifiable task for AI agents working in a
Linux container. {{ brief }}

{{ file_rules }}

Answer with one JSON object and nothing else:
{"files": {"environment/Dockerfile": "...", "environment/data/...": "...", "tests/test.sh": "...",
 "tests/check.py": "...", "solution/solve.sh": "..."}}"""

WRITE_FILES_USER = """\
Write the files of this task.

Title: {{ title }}
Category: {{ category }}; difficulty: {{ difficulty }} of 3
The instruction the agent gets (instruction.md):
{{ fence }}
{{ instruction }}
{{ fence }}
{% if items %}

The pool items it is grounded in (use their content for the data files, trimmed where needed):
{% for item in items %}

### {{ loop.index }}. {{ item.name }} (kind: {{ item.kind }}; pool {{ item.pool }}, {{ item.path }})
{{ item.fence }}
{{ item.excerpt }}
{{ item.fence }}
{% endfor %}
{% endif %}"""

REFINE_SYSTEM = """\
{{ marker }}
You repair and recalibrate tasks for AI agents working in a Linux container. {{ brief }} A task failed a
quality gate; you get the task and the evidence, and write a corrected version of it.

{{ file_rules }}

Answer with one JSON object and nothing else:
{"title": "...", "instruction": "the whole new instruction", "difficulty": 1, 2 or 3,
 "files": {"<path>": "<whole new text>", ...}}
In "files", give every file you change or add, in full; a file you leave out stays as it is; a file set
to null is deleted."""

REFINE_USER = """\
The task (version {{ version }}):

Title: {{ title }}
Category: {{ category }}; difficulty: {{ difficulty }} of 3
Instruction:
{{ fence }}
{{ instruction }}
{{ fence }}
{% if files %}

Its files:
{% for file in files %}

#### {{ file.path }}
{{ file.fence }}
{{ file.text }}
{{ file.fence }}
{% endfor %}
{% else %}

It has no files yet: write all of them.
{% endif %}

What went wrong ({{ stage }} stage; the fault is on {{ side_words }}):
{{ reason }}
{% if pass_rate is not none %}
Pass rate of the policy on it: {{ "%.2f"|format(pass_rate) }}
{% endif %}
{% if detail %}
Details (the end of the log / the checker's output / the oracle's result):
{{ detail_fence }}
{{ detail }}
{{ detail_fence }}
{% endif %}

{{ advice }}"""

ADVICE = {
    "task": (
        "The task itself is broken. Fix what the evidence shows (the image build, the checker, the "
        "reference solution, or an instruction that contradicts the files) and keep the task's idea and "
        "difficulty. The reference solution must pass the tests, and a run that does nothing must fail them."
    ),
    "harder": (
        "The task is sound but too easy: the policy always passes it. Make it harder (difficulty "
        "{target} of 3): more records, more rules, edge cases the instruction states precisely, a second "
        "output. Keep it precise and checkable."
    ),
    "easier": (
        "The task is sound but too hard: the policy (almost) never passes it. Make it easier (difficulty "
        "{target} of 3): fewer steps, fewer edge cases, a clearer instruction with an example of the "
        "output. Keep it precise and checkable."
    ),
    "none": "Rewrite the task so that the problem above is gone; keep it precise and checkable.",
}


@dataclass(frozen=True)
class Shown:
    """A pool item as a prompt shows it."""

    name: str
    kind: str
    pool: str
    path: str
    excerpt: str

    @property
    def fence(self) -> str:
        return fence_for(self.excerpt)


def fence_for(text: str) -> str:
    """A Markdown fence longer than any run of backticks inside `text`."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def _render(template: str, **context: Any) -> str:
    return _environment().from_string(template).render(**context).strip() + "\n"


def domain_brief(domain: str) -> str:
    return DOMAIN_BRIEFS.get(domain, GENERIC_BRIEF.format(domain=domain))


def _system(template: str, kind: Kind, domain: str, **extra: Any) -> str:
    rules = BROWSER_FILE_RULES if domain == "browser" else _render(FILE_RULES, tools=BASE_TOOLS).rstrip("\n")
    return _render(
        template, marker=marker(kind), brief=domain_brief(domain), tools=BASE_TOOLS, file_rules=rules, **extra
    )


@dataclass(frozen=True)
class Site:
    """The site a browser prompt is about: its reference (synth/web_sites.py) and its seed's text."""

    name: str
    reference: str
    seed_path: str
    seed: str


def browser_propose_messages(
    index: int, site: Site, persona: str | None, sites: tuple[str, ...]
) -> list[dict[str, str]]:
    user = _render(
        BROWSER_PROPOSE_USER,
        index=index,
        site=site.name,
        persona=persona,
        reference=site.reference,
        seed_path=site.seed_path,
        seed=site.seed,
        fence=fence_for(site.seed),
    )
    return [
        {
            "role": "system",
            "content": _system(BROWSER_PROPOSE_SYSTEM, "propose", "browser", sites=", ".join(sites)),
        },
        {"role": "user", "content": user},
    ]


def browser_write_files_messages(
    title: str, instruction: str, category: str, difficulty: int, site: Site
) -> list[dict[str, str]]:
    user = _render(
        BROWSER_WRITE_FILES_USER,
        site=site.name,
        title=title,
        instruction=instruction.strip(),
        fence=fence_for(instruction),
        category=category,
        difficulty=difficulty,
        reference=site.reference,
        seed=site.seed,
        seed_fence=fence_for(site.seed),
    )
    return [
        {"role": "system", "content": _system(BROWSER_WRITE_FILES_SYSTEM, "write_files", "browser")},
        {"role": "user", "content": user},
    ]


def propose_messages(
    domain: str, index: int, items: list[Shown], persona: str | None
) -> list[dict[str, str]]:
    return [
        {"role": "system", "content": _system(PROPOSE_SYSTEM, "propose", domain)},
        {
            "role": "user",
            "content": _render(PROPOSE_USER, domain=domain, index=index, items=items, persona=persona),
        },
    ]


def write_files_messages(
    domain: str, title: str, instruction: str, category: str, difficulty: int, items: list[Shown]
) -> list[dict[str, str]]:
    user = _render(
        WRITE_FILES_USER,
        title=title,
        instruction=instruction.strip(),
        fence=fence_for(instruction),
        category=category,
        difficulty=difficulty,
        items=items,
    )
    return [
        {"role": "system", "content": _system(WRITE_FILES_SYSTEM, "write_files", domain)},
        {"role": "user", "content": user},
    ]


def refine_messages(
    domain: str,
    *,
    version: int,
    title: str,
    instruction: str,
    category: str,
    difficulty: int,
    files: dict[str, str] | None,
    stage: str,
    side: str,
    reason: str,
    detail: str,
    pass_rate: float | None,
    advice: str,
    site: Site | None = None,
) -> list[dict[str, str]]:
    """A refine call's messages; a browser task's (`site` given) show the site's reference too."""
    side_words = {
        "task": "the task",
        "agent": "the agent (the task is sound)",
        "none": "no one in particular",
    }
    shown_files = [
        {"path": path, "text": text.rstrip("\n"), "fence": fence_for(text)}
        for path, text in (files or {}).items()
    ]
    user = _render(
        REFINE_USER,
        version=version,
        title=title,
        instruction=instruction.strip(),
        fence=fence_for(instruction),
        category=category,
        difficulty=difficulty,
        files=shown_files,
        stage=stage,
        side_words=side_words.get(side, side),
        reason=reason,
        pass_rate=pass_rate,
        detail=detail,
        detail_fence=fence_for(detail),
        advice=advice,
    )
    if site is not None:
        user += f"\nThe `{site.name}` site the task runs on:\n\n{site.reference}"
    return [
        {"role": "system", "content": _system(REFINE_SYSTEM, "refine", domain)},
        {"role": "user", "content": user},
    ]


def kind_of(messages: list[dict[str, Any]]) -> Kind | None:
    """The kind of call these messages make (from the marker line of the system prompt)."""
    for message in messages:
        content = message.get("content")
        if isinstance(content, str):
            found = MARKER_RE.search(content.split("\n", 1)[0])
            if found:
                kind: Kind = found.group(1)  # type: ignore[assignment]
                return kind
    return None
