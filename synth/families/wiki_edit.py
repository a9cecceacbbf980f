"""wiki-edit: correct a fact on a page of the local wiki (a number or a time that is out of date), with a
given edit summary, changing nothing else.

The page and the fact come from the wiki seed: a number or time that appears once in the page's text;
the new value is drawn per task (two facts on the page at the hardest level). The checker reads the
database: the page's text is exactly the old text with the fact(s) replaced, saved in exactly one new
revision with that summary; no other page was saved.
"""

from __future__ import annotations

import random
import re
from typing import Any

from synth.families.web import (
    DONE,
    SCROLL_TO_END,
    WebFamily,
    WebTask,
    click,
    goto,
    key,
    render_check,
    type_into,
)

T = "wiki-edit"
FACT = re.compile(r"(?<![\w.:/#-])(\d{1,2}:\d{2}|\d{1,5})(?![\w:/-]|\.\d)")
"""A time (08:00) or a whole number (4357, 19) standing alone, not part of a date, code or version."""
LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")


def slugify(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def facts(body: str) -> list[re.Match[str]]:
    """The facts that appear exactly once in the text, outside links and headings."""
    lines_ok = [not line.strip().startswith("==") and "[[" not in line for line in body.splitlines()]
    offsets, pos = [], 0
    for line, ok in zip(body.splitlines(keepends=True), lines_ok, strict=True):
        offsets.append((pos, pos + len(line), ok))
        pos += len(line)
    found = list(FACT.finditer(body))
    counts: dict[str, int] = {}
    for m in found:
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return [
        m for m in found if counts[m.group(1)] == 1 and any(a <= m.start() < b and ok for a, b, ok in offsets)
    ]


def new_value(rng: random.Random, old: str, taken: set[str]) -> str:
    """A different, plausible value of the same kind: a time 15 to 90 minutes away, a year or a small
    number a little off, a longer number of the same length."""
    for _ in range(50):
        if ":" in old:
            total = int(old[:-3]) * 60 + int(old[-2:]) + rng.choice([-60, -30, -15, 15, 30, 45, 60, 90])
            if not 6 * 60 <= total <= 22 * 60:
                continue
            value = f"{total // 60:0{len(old) - 3}d}:{total % 60:02d}"
        elif len(old) == 4 and old.startswith(("19", "20")):
            value = str(int(old) + rng.choice([-2, -1, 1, 2]))
        elif len(old) <= 2:  # a day, a count, a floor: stays small and plausible
            value = str(max(1, int(old) + rng.choice([-3, -2, -1, 1, 2, 3])))
        else:
            value = str(rng.randrange(10 ** (len(old) - 1), 10 ** len(old)))
        if value != old and value not in taken:
            return value
    raise ValueError(f"{T}: no new value for {old!r}")


def context(body: str, match: re.Match[str]) -> str:
    """The line holding the fact, as the page shows it (link markup and list bullets removed)."""
    start = body.rfind("\n", 0, match.start()) + 1
    end = body.find("\n", match.end())
    line = body[start : end if end != -1 else len(body)].strip().removeprefix("* ")
    return LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), line)


class WikiEdit(WebFamily):
    name = T
    category = "form"
    site = "wiki"

    def make(self, rng: random.Random, seed: dict[str, Any], difficulty: int) -> WebTask:
        pages = seed.get("pages", [])
        wanted = 2 if difficulty == 3 else 1
        usable = [p for p in pages if len(facts(p["revisions"][-1]["body"])) >= wanted]
        if not usable:
            raise ValueError(f"{T}: no page with {wanted} fact(s) to change")
        page = rng.choice(usable)
        body = page["revisions"][-1]["body"]
        chosen = sorted(rng.sample(facts(body), wanted), key=lambda m: m.start())
        taken = set(FACT.findall(body))
        changes = []
        for m in chosen:
            value = new_value(rng, m.group(1), taken)
            taken.add(value)
            changes.append((m, value))
        new_body = body
        for m, value in reversed(changes):
            new_body = new_body[: m.start(1)] + value + new_body[m.end(1) :]
        title, slug = page["title"], page.get("slug") or slugify(page["title"])
        summary = (
            rng.choice(["Update", "Correct", "Fix"])
            + " "
            + " and ".join(f"{m.group(1)} to {value}" for m, value in changes)
        )
        lines = "\n".join(
            f'- in "{context(body, m)}", {m.group(1)} should be {value}' for m, value in changes
        )
        instruction = (
            f'The page "{title}" of the wiki at http://127.0.0.1:8080/ is out of date:\n\n{lines}\n\n'
            f"Edit the page to fix {'this' if wanted == 1 else 'these'} and change nothing else. Save it "
            f'with the edit summary "{summary}".'
        )
        total_revisions = sum(len(p["revisions"]) for p in pages)
        spec = {
            "slug": slug,
            "title": title,
            "body": new_body,
            "summary": summary,
            "revisions": len(page["revisions"]),
            "total_revisions": total_revisions,
            "pages": len(pages),
            "user": seed.get("current_user", "alex"),
        }
        actions = [
            goto(),
            type_into("search-input", title),
            key("Enter"),
            click(f"result-link-{slug}"),
            click("edit-link"),
            type_into("body", new_body),
            SCROLL_TO_END,
            type_into("summary", summary),
            click("save-page"),
            DONE,
        ]
        doc = (
            f"Checks the wiki database: the page {title!r} holds exactly the corrected text, saved in one "
            f"new revision with the summary {summary!r}; no other page was saved."
        )
        return WebTask(
            title=f"Correct {'a fact' if wanted == 1 else 'two facts'} on a wiki page, with an edit summary",
            instruction=instruction,
            seed=seed,
            actions=actions,
            check=render_check(T, spec, doc),
            params={"page": slug, "changes": [[m.group(1), value] for m, value in changes]},
            expects={
                "title": title,
                "summary": summary,
                **{f"old{i}": m.group(1) for i, (m, _) in enumerate(changes)},
                **{f"new{i}": value for i, (_, value) in enumerate(changes)},
            },
            keywords=["wiki", "edit", "form"],
        )
