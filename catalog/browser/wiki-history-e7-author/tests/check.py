#!/usr/bin/env python3
"""The answer is hiro, who added the error E7 advice in revision 2 of Coffee machine (mbrennan changed it
in revision 3, jen.okafor made the last edit). The wiki is unchanged."""

import sqlite3
import sys

problems = []


def norm(text: str) -> str:
    """Strip, casefold, collapse whitespace, drop one trailing '.'."""
    text = " ".join(text.strip().casefold().split())
    return text[:-1].rstrip() if text.endswith(".") else text


try:
    with open("/app/answer.txt", encoding="utf-8") as fh:
        answer = norm(fh.read())
except OSError:
    answer = None
    problems.append("no answer in /app/answer.txt")
if answer is not None and answer != "hiro":
    problems.append(f"answer is {answer!r}")
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
counts = db.execute("SELECT (SELECT COUNT(*) FROM pages), (SELECT COUNT(*) FROM revisions)").fetchone()
if counts != (18, 28):
    problems.append(f"the wiki changed: pages, revisions = {counts}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
