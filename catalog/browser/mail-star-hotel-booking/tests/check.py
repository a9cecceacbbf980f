#!/usr/bin/env python3
"""Checks the mailbox: message 32 (Lakeside Hotel, LH-7781, the April 2026 stay) is starred and still
archived; every other message has its seeded folder and star; no message was added."""

import sqlite3
import sys

# (id, folder, starred) as seeded
SEEDED = [
    (1, "inbox", 0),
    (2, "inbox", 0),
    (3, "inbox", 1),
    (4, "inbox", 1),
    (5, "inbox", 0),
    (6, "inbox", 0),
    (7, "inbox", 0),
    (8, "inbox", 0),
    (9, "inbox", 1),
    (10, "inbox", 0),
    (11, "inbox", 0),
    (12, "inbox", 0),
    (13, "inbox", 0),
    (14, "inbox", 0),
    (15, "inbox", 0),
    (16, "inbox", 0),
    (17, "inbox", 0),
    (18, "inbox", 0),
    (19, "inbox", 0),
    (20, "inbox", 0),
    (21, "inbox", 0),
    (22, "inbox", 0),
    (23, "sent", 0),
    (24, "sent", 0),
    (25, "sent", 0),
    (26, "sent", 0),
    (27, "sent", 0),
    (28, "sent", 0),
    (29, "archive", 0),
    (30, "archive", 0),
    (31, "archive", 1),
    (32, "archive", 0),
    (33, "archive", 0),
    (34, "archive", 0),
    (35, "archive", 0),
]
TARGET = 32
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []
rows = {r[0]: r[1:] for r in db.execute("SELECT id, folder, starred FROM messages")}
if len(rows) != len(SEEDED):
    problems.append(f"expected {len(SEEDED)} messages, found {len(rows)}")
for mid, folder, starred in SEEDED:
    if mid not in rows:
        problems.append(f"message {mid} is gone")
        continue
    want = 1 if mid == TARGET else starred
    if rows[mid][1] != want:
        problems.append(f"message {mid} is {'' if rows[mid][1] else 'not '}starred")
    if rows[mid][0] != folder:
        problems.append(f"message {mid} is in {rows[mid][0]!r}, expected {folder!r}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
