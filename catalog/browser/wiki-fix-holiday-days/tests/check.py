#!/usr/bin/env python3
"""Checks the wiki's database: Holiday allowance has exactly one new revision, by alex, with the summary
"Allowance is now 29 days", whose text is the old text with 27 days changed to 29 and nothing else
(whitespace at line ends and extra blank lines aside); the title is unchanged; no other page changed."""

import re
import sqlite3
import sys

OLD = (
    "Full-time staff get 27 days of holiday plus public holidays.\n\n"
    "Up to 5 unused days carry over to the next year. Book holiday in the HR portal at least two weeks ahead."
)
NEW = OLD.replace("27 days", "29 days")
SEEDED_REVISIONS = 26
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []


def text(body: str) -> str:
    """Runs of spaces in a line, spaces at line ends and extra blank lines do not matter."""
    lines = [" ".join(line.split()) for line in body.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


page = db.execute("SELECT id, title, body, author FROM pages WHERE slug = 'holiday-allowance'").fetchone()
if page is None:
    problems.append("the Holiday allowance page is gone")
else:
    pid, title, body, author = page
    if title != "Holiday allowance":
        problems.append(f"the title is {title!r}")
    if text(body) != NEW:
        problems.append(f"the page text is {body!r}")
    revs = db.execute(
        "SELECT rev, author, summary, body FROM revisions WHERE page_id = ? ORDER BY rev", (pid,)
    ).fetchall()
    if len(revs) != 2:
        problems.append(f"expected 2 revisions of the page, found {len(revs)}")
    else:
        _, rev_author, summary, rev_body = revs[1]
        if rev_author != "alex":
            problems.append(f"the new revision's author is {rev_author!r}")
        if " ".join(summary.split()).strip("\"'").rstrip(".").casefold() != "allowance is now 29 days":
            problems.append(f"the edit summary is {summary!r}")
        if rev_body != body:
            problems.append("the page text is not its last revision")
counts = db.execute("SELECT (SELECT COUNT(*) FROM pages), (SELECT COUNT(*) FROM revisions)").fetchone()
if counts != (18, SEEDED_REVISIONS + 1):
    problems.append(f"pages, revisions = {counts}, expected (18, {SEEDED_REVISIONS + 1})")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
