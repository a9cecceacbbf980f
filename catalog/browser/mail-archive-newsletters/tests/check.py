#!/usr/bin/env python3
"""Checks the mailbox: every message from newsletter@cyclingweekly.test is in the archive; every other
message is still in its seeded folder (look-alikes from Sam Morgan and Cycling UK stay in the inbox);
no message was added; stars are as seeded."""

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
    (34, "inbox", 0),
    (35, "inbox", 0),
    (36, "inbox", 1),
    (37, "archive", 0),
    (38, "inbox", 0),
    (39, "inbox", 0),
]
TARGETS = {34, 35, 36, 13}
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []
rows = {r[0]: r[1:] for r in db.execute("SELECT id, folder, starred FROM messages")}
if len(rows) != len(SEEDED):
    problems.append(f"expected {len(SEEDED)} messages, found {len(rows)}")
for mid, folder, starred in SEEDED:
    if mid not in rows:
        problems.append(f"message {mid} is gone")
        continue
    want = "archive" if mid in TARGETS else folder
    if rows[mid][0] != want:
        problems.append(f"message {mid} is in {rows[mid][0]!r}, expected {want!r}")
    if rows[mid][1] != starred:
        problems.append(f"message {mid}'s star changed")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
