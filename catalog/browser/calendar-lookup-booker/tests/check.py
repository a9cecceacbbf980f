#!/usr/bin/env python3
"""Checks /app/answer.txt: the booker of Clifton on 2026-03-27 at 11:00, ines.duarte (not the other
bookings that day or the same slot a week earlier); and that no booking was added or changed."""

import sqlite3
import sys
from pathlib import Path


def norm(text):
    text = " ".join(text.strip().casefold().split())
    return text[:-1].rstrip() if text.endswith(".") else text


# (id, status) as seeded
SEEDED = [
    (1, "confirmed"),
    (2, "confirmed"),
    (3, "confirmed"),
    (4, "confirmed"),
    (5, "confirmed"),
    (6, "cancelled"),
    (7, "confirmed"),
    (8, "confirmed"),
    (9, "confirmed"),
    (10, "confirmed"),
    (11, "confirmed"),
    (12, "confirmed"),
    (13, "confirmed"),
    (14, "confirmed"),
    (15, "confirmed"),
    (16, "confirmed"),
    (17, "confirmed"),
    (18, "confirmed"),
    (19, "confirmed"),
    (20, "confirmed"),
    (21, "confirmed"),
    (22, "confirmed"),
    (23, "confirmed"),
    (24, "confirmed"),
    (25, "confirmed"),
    (26, "confirmed"),
    (27, "confirmed"),
    (28, "confirmed"),
    (29, "confirmed"),
    (30, "confirmed"),
    (31, "confirmed"),
    (32, "confirmed"),
    (33, "confirmed"),
    (34, "confirmed"),
    (35, "confirmed"),
]
problems = []
try:
    answer = Path("/app/answer.txt").read_text(encoding="utf-8", errors="replace")
except OSError as exc:
    answer = None
    problems.append(f"no answer: {exc}")
if answer is not None and norm(answer) not in ("ines.duarte", "ines duarte"):
    problems.append(f"wrong answer: {answer!r}")
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
rows = dict(db.execute("SELECT id, status FROM bookings").fetchall())
if rows != dict(SEEDED):
    problems.append("bookings were added or changed")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
