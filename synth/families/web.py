"""What the browser families share: the web pools, and a task's files from its seed, script and checker.

A browser family grounds its tasks in a local site's seed data (the "web pool": the default seeds ship
with the sites, envs/browser/forge_sites/seeds/<site>.json; `--pool DIR` may give other seeds, each a
`<site>.json`). It draws what the task is about from that data, changes the seed where the task should
not be answerable by guessing (prices, extra bookings), and writes, as a catalog/browser author would:
the instruction (the site's URL and every value the user would give), `environment/seed.json` and the
Dockerfile that installs it on the browser image, the reference action script (`solution/actions.json`,
`#id` selectors only; the build stage records its points) and the hidden checker (`tests/check.py`,
stdlib only, reading the site's database or `/app/answer.txt`, its expected values embedded).
"""

from __future__ import annotations

import json
import random
from abc import abstractmethod
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from faker import Faker

from envs.browser_image import SITES_DIR
from synth.families.base import Draft, Family, pick, render
from synth.pools import PoolItem, Pools

WEB_POOL = SITES_DIR / "seeds"
"""The shipped web pool: each site's default seed."""
SITE_URL = "http://127.0.0.1:8080/"
"""Where the task's site is served in its container (the init hook of `forge-site-install`)."""
SOLVE_SH = '#!/bin/bash\nexec forge-browser-replay "$(dirname "$0")/actions.json"\n'
SCROLL_TO_END = {"action": "scroll", "dy": 5000}
"""Before a click on a page's last control (a form's submit button, a reply form): the page's bottom
800 px are then in view however long the page is, so the recorded point does not depend on its length.
Never right after typing into a number field: the wheel over a focused one steps its value."""
LOOKUP_ENDING = "Give the answer as your final answer."


def site_seeds(pools: Pools, site: str) -> list[PoolItem]:
    """The pools' seeds of `site`: JSON items named `<site>.json`."""
    return [item for item in pools.items("json") if item.name == f"{site}.json"]


@cache
def _seed_text(location: Path) -> str:
    return location.read_text(encoding="utf-8")


def load_seed(item: PoolItem) -> dict[str, Any]:
    """A fresh copy of a seed (the families change theirs)."""
    data = json.loads(_seed_text(item.location))
    if not isinstance(data, dict):
        raise ValueError(f"{item.path}: a site seed is a JSON object")
    return data


def faker(rng: random.Random) -> Faker:
    """A Faker (British English: the sites' data is) seeded from the task's seed."""
    fake = Faker("en_GB")
    fake.seed_instance(rng.randrange(2**31))
    return fake


def goto(path: str = "") -> dict[str, Any]:
    return {"action": "goto", "url": SITE_URL + path.lstrip("/")}


def click(element_id: str) -> dict[str, Any]:
    return {"action": "click", "selector": f"#{element_id}"}


def type_into(element_id: str, text: str) -> dict[str, Any]:
    return {"action": "type", "selector": f"#{element_id}", "text": text}


def key(name: str) -> dict[str, Any]:
    return {"action": "key", "key": name}


def answer(text: str) -> dict[str, Any]:
    return {"action": "answer", "text": text}


DONE: dict[str, Any] = {"action": "done"}


def script_text(steps: list[dict[str, Any]]) -> str:
    """One step per line, as forge-browser-replay writes a recorded script."""
    return "[\n" + ",\n".join("  " + json.dumps(step, ensure_ascii=False) for step in steps) + "\n]\n"


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def spoken_date(iso: str) -> str:
    """`Wednesday 18 March 2026 (2026-03-18)`: how a user says it, and the form's format beside it."""
    from datetime import date

    day = date.fromisoformat(iso)
    return f"{day:%A} {day.day} {day:%B %Y} ({iso})"


@dataclass
class WebTask:
    """One browser task as a family draws it; `WebFamily.generate` turns it into a Draft."""

    title: str
    instruction: str
    seed: dict[str, Any]
    actions: list[dict[str, Any]]
    check: str
    """tests/check.py."""
    params: dict[str, Any]
    expects: dict[str, Any]
    """What the checker compares, by name (recorded in the params; tests read it)."""
    keywords: list[str] = field(default_factory=list)
    answer: str | None = None
    """A lookup task's answer (never in the instruction)."""


class WebFamily(Family):
    """A browser family: one site, its seed from the web pool, a task drawn from the seed's data."""

    domain = "browser"
    pool_kinds = ("json",)
    site: ClassVar[str]

    def usable(self, pools: Pools) -> bool:
        return bool(site_seeds(pools, self.site))

    @abstractmethod
    def make(self, rng: random.Random, seed: dict[str, Any], difficulty: int) -> WebTask:
        """The task, from a fresh copy of the site's seed (the family may change it)."""

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        seeds = site_seeds(pools, self.site)
        if not seeds:
            raise ValueError(f"{self.name}: the pools hold no {self.site}.json seed")
        item = pick(rng, seeds)
        task = self.make(rng, load_seed(item), difficulty)
        last = task.actions[-1]["action"]
        if last != ("answer" if task.answer is not None else "done"):
            raise ValueError(f"{self.name}: the action script ends with {last!r}")
        instruction = task.instruction.rstrip() + "\n"
        if task.answer is not None:
            if task.answer.casefold() in instruction.casefold():
                raise ValueError(f"{self.name}: the instruction gives the answer away")
            instruction = instruction.rstrip() + " " + LOOKUP_ENDING + "\n"
        files = {
            "environment/Dockerfile": render("common/browser-Dockerfile.j2", site=self.site),
            "environment/seed.json": json.dumps(task.seed, indent=1, ensure_ascii=False) + "\n",
            "solution/actions.json": script_text(task.actions),
            "solution/solve.sh": SOLVE_SH,
            "tests/check.py": task.check,
        }
        return Draft(
            title=task.title,
            instruction=instruction,
            files=files,
            params={"site": self.site, **task.params, "expects": task.expects},
            keywords=["browser", self.site, *task.keywords],
            pool_items=[item],
            healthcheck="forge-site-ready",
        )


def render_check(family: str, spec: dict[str, Any], doc: str) -> str:
    """tests/check.py from `templates/<family>/check.py.j2`, with the shared helpers and the expected
    values embedded as JSON (the checker trusts nothing the agent wrote but the site's state)."""
    return render(f"{family}/check.py.j2", spec=json.dumps(spec, sort_keys=True, ensure_ascii=False), doc=doc)
