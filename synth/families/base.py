"""What an offline task family is: a seeded generator of claw tasks, in the style of Reasoning Gym.

A family draws its parameters from a `random.Random` and a difficulty (1-3), grounds the task in pool
items where it has a kind it can use, computes the expected end state itself, and renders the task's
files from its jinja2 templates (`templates/<family>/`): instruction, environment data, the hidden
checker (`tests/check.py`, which embeds or recomputes what it expects and never trusts the agent's
words) and a reference solution that does the work (`solution/solve.sh`). The same seed, difficulty and
pools give the same task, byte for byte.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import jinja2

from synth.pools import PoolItem, Pools

TEMPLATES = Path(__file__).parent.parent / "templates"


@dataclass
class Draft:
    """What a family makes of one seed: the proposal's content before it gets its id and provenance."""

    title: str
    instruction: str
    files: dict[str, str]
    """environment/…, tests/check.py (and any other test files), solution/solve.sh. The Dockerfile and
    tests/test.sh are added by `Family.draft` from the shared templates unless the family wrote them."""
    params: dict[str, Any]
    """JSON-serialisable: what was drawn (recorded in the provenance)."""
    keywords: list[str] = field(default_factory=list)
    pool_items: list[PoolItem] = field(default_factory=list)
    workdir: str = "/app"
    healthcheck: str | None = None
    """A command that must pass before the agent starts (a service the family starts in init.d)."""


@cache
def _environment(directory: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(directory),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def render(template: str, **context: Any) -> str:
    """Render `templates/<template>` (e.g. `csv-report/instruction.md.j2`); a missing variable is an error.

    Filters: `tojson` (json.dumps, for literals embedded in Python checkers), `pyrepr` (repr()),
    `copyargs` (a Dockerfile COPY's paths).
    """
    env = _environment(str(TEMPLATES))
    env.filters.setdefault("pyrepr", repr)
    env.filters["copyargs"] = copy_args
    env.filters["tojson"] = lambda value, indent=None: json.dumps(value, indent=indent, sort_keys=True)
    return env.get_template(template).render(**context)


def copy_args(paths: list[str]) -> str:
    """A Dockerfile COPY's sources and destination: plain words where that is exact, else the JSON form
    (the only one that keeps whitespace), each special character backslash-escaped, as Docker's word
    processing (quotes, `$` variables, escapes) applies to that form too."""
    if not any(_copy_special(ch) for path in paths for ch in path):
        return " ".join(paths)
    return json.dumps(["".join("\\" + ch if _copy_special(ch) else ch for ch in path) for path in paths])


def _copy_special(ch: str) -> bool:
    return ch.isspace() or ch in "\"'\\$"


class Family(ABC):
    """A generator of tasks of one kind. Subclasses set the class variables and implement `generate`."""

    name: ClassVar[str]
    """kebab-case; the proposal ids and the template folder are named after it."""
    category: ClassVar[str]
    """files, data, logs, git, config, code, schedule, notes, http, sqlite, ..."""
    domain: ClassVar[str] = "claw"
    pool_kinds: ClassVar[tuple[str, ...]] = ()
    """Pool item kinds the family grounds its tasks in; empty: it needs none (it generates its data)."""

    def usable(self, pools: Pools) -> bool:
        return not self.pool_kinds or bool(pools.items(*self.pool_kinds))

    @abstractmethod
    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        """One task; harder with `difficulty` (1-3): more records, more rules, more edge cases."""

    def draft(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        """`generate`, with the shared Dockerfile and test.sh added where the family wrote none."""
        made = self.generate(rng, pools, difficulty)
        files = dict(made.files)
        if "environment/Dockerfile" not in files:
            env_files = sorted(p.removeprefix("environment/") for p in files if p.startswith("environment/"))
            files["environment/Dockerfile"] = render(
                "common/Dockerfile.j2", workdir=made.workdir, files=env_files, setup="setup.sh" in env_files
            )
        if "tests/test.sh" not in files:
            files["tests/test.sh"] = render("common/test.sh.j2")
        made.files = files
        return made


def pick(rng: random.Random, items: list[PoolItem]) -> PoolItem:
    """One pool item, chosen by the seed (items come sorted, so the choice is reproducible)."""
    return items[rng.randrange(len(items))]
