#!/usr/bin/env python3
"""Checks the forum's database: exactly one new post, by alex, in sam_w's thread "Chain keeps skipping in
the smallest cog" (not in the two other threads about skipping chains), with the given text; no thread or
vote was added."""

import sqlite3
import sys

SEEDED_POSTS = 54
TEXT = "Check the chain length as well. A chain that is too long can skip under load too."
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []


def same(text: str) -> str:
    return " ".join(text.split())


posts = db.execute(
    "SELECT p.thread_id, t.title, u.username, p.body FROM posts p JOIN threads t ON t.id = p.thread_id"
    " JOIN users u ON u.id = p.author_id WHERE p.id > ? ORDER BY p.id",
    (SEEDED_POSTS,),
).fetchall()
if len(posts) != 1:
    problems.append(f"expected one new post, found {len(posts)}")
else:
    thread_id, title, author, body = posts[0]
    if thread_id != 4:
        problems.append(f"the reply is in thread {thread_id} ({title!r})")
    if author != "alex":
        problems.append(f"the reply's author is {author!r}")
    if same(body) != TEXT:
        problems.append(f"the reply's text is {body!r}")
counts = db.execute(
    "SELECT (SELECT COUNT(*) FROM threads), (SELECT COUNT(*) FROM posts WHERE id <= ?),"
    " (SELECT COUNT(*) FROM votes)",
    (SEEDED_POSTS,),
).fetchone()
if counts != (21, SEEDED_POSTS, 2):
    problems.append(f"threads, seeded posts, votes = {counts}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
