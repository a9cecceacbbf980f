#!/usr/bin/env python3
"""The answer names the author of the highest-scoring reply in the tomato seeds thread: jen.okafor
(score 13; the question itself scores 21, and another tomato thread has a reply scoring 17). The forum
is unchanged."""

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
if answer is not None and answer not in ("jen.okafor", "jennifer okafor", "jennifer okafor (jen.okafor)"):
    problems.append(f"answer is {answer!r}")
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
counts = db.execute(
    "SELECT (SELECT COUNT(*) FROM threads), (SELECT COUNT(*) FROM posts), (SELECT COUNT(*) FROM votes)"
).fetchone()
if counts != (20, 54, 2):
    problems.append(f"the forum changed: threads, posts, votes = {counts}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
