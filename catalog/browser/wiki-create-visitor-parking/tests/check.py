#!/usr/bin/env python3
"""Checks the wiki's database: exactly one new page, "Visitor parking", created by alex, with the given two
paragraphs (linking to Parking with [[Parking]]); no other page changed."""

import re
import sqlite3
import sys

TEXT = (
    "Visitors can use the two spaces marked V next to the barrier.\n\n"
    "Ask reception for a day permit. Staff parking is explained on [[Parking]]."
)
SEEDED_PAGES, SEEDED_REVISIONS = 18, 26
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []


def text(body: str) -> str:
    """Runs of spaces in a line, spaces at line ends and extra blank lines do not matter."""
    lines = [" ".join(line.split()) for line in body.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


pages = db.execute("SELECT id, slug, title, body, author FROM pages WHERE id > ?", (SEEDED_PAGES,)).fetchall()
if len(pages) != 1:
    problems.append(f"expected one new page, found {len(pages)}")
else:
    pid, slug, title, body, author = pages[0]
    if slug != "visitor-parking" or " ".join(title.split()) != "Visitor parking":
        problems.append(f"the new page is {title!r} ({slug})")
    if text(body) != TEXT:
        problems.append(f"the page text is {body!r}")
    if author != "alex":
        problems.append(f"the page's author is {author!r}")
    revs = db.execute("SELECT author FROM revisions WHERE page_id = ?", (pid,)).fetchall()
    if revs != [("alex",)]:
        problems.append(f"the page's revisions are by {revs}")
old = db.execute("SELECT COUNT(*) FROM revisions WHERE page_id <= ?", (SEEDED_PAGES,)).fetchone()[0]
if old != SEEDED_REVISIONS:
    problems.append(f"other pages were edited ({old} revisions, expected {SEEDED_REVISIONS})")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
