#!/usr/bin/env python3
"""Checks the forum's database: alex upvoted exactly one post, jen.okafor's reply in "Cast iron skillet
rusted - can it be saved?" (post 21, score 8 -> 9; she also replied in a thread about seasoning a wok);
nothing was posted."""

import sqlite3
import sys

TARGET = 21
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []
votes = sorted(db.execute("SELECT post_id, u.username FROM votes v JOIN users u ON u.id = v.user_id"))
expected = sorted([(6, "alex"), (39, "alex"), (TARGET, "alex")])
if votes != expected:
    problems.append(f"votes are {votes}, expected {expected}")
score = db.execute("SELECT score FROM posts WHERE id = ?", (TARGET,)).fetchone()
if score is None or score[0] != 9:
    problems.append(f"the reply's score is {score}")
counts = db.execute("SELECT COUNT(*), SUM(score) FROM posts").fetchone()
if counts != (53, 338):
    problems.append(f"posts, total score = {counts}, expected (53, 338)")
if db.execute("SELECT COUNT(*) FROM threads").fetchone()[0] != 20:
    problems.append("threads were added")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
