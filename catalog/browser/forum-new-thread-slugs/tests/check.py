#!/usr/bin/env python3
"""Checks the forum's database: exactly one new thread, by alex, in Gardening, with the given title and
one post (by alex) with the given text; nothing else was posted or voted on."""

import sqlite3
import sys

SEEDED_THREADS, SEEDED_POSTS = 19, 50
TITLE = "Slugs are eating my lettuce seedlings"
TEXT = "Every night something eats the lettuce seedlings in my raised bed. What works without pellets?"
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []


def same(text: str) -> str:
    return " ".join(text.split())


threads = db.execute(
    "SELECT t.id, c.slug, t.title, u.username FROM threads t JOIN categories c ON c.id = t.category_id"
    " JOIN users u ON u.id = t.author_id WHERE t.id > ? ORDER BY t.id",
    (SEEDED_THREADS,),
).fetchall()
if len(threads) != 1:
    problems.append(f"expected one new thread, found {len(threads)}")
else:
    tid, category, title, author = threads[0]
    if category != "gardening":
        problems.append(f"the thread is in {category!r}")
    if same(title).rstrip(".").casefold() != TITLE.casefold():
        problems.append(f"the title is {title!r}")
    if author != "alex":
        problems.append(f"the thread's author is {author!r}")
    posts = db.execute(
        "SELECT u.username, p.body FROM posts p JOIN users u ON u.id = p.author_id WHERE p.thread_id = ?",
        (tid,),
    ).fetchall()
    if len(posts) != 1 or posts[0][0] != "alex" or same(posts[0][1]) != TEXT:
        problems.append(f"the thread's posts are {posts}")
counts = db.execute(
    "SELECT (SELECT COUNT(*) FROM posts), (SELECT COUNT(*) FROM threads WHERE id <= ?),"
    " (SELECT COUNT(*) FROM votes)",
    (SEEDED_THREADS,),
).fetchone()
if counts != (SEEDED_POSTS + len(threads), SEEDED_THREADS, 2):
    problems.append(f"posts, seeded threads, votes = {counts}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
