#!/usr/bin/env python3
"""Checks the bookings: booking 30 (Customer call: Harbour Lettings, 2026-03-26) is cancelled; every other
booking keeps its seeded status (the 2 April call and the prep meeting stay); nothing was added."""

import sqlite3
import sys

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
]
TARGET = 30
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []
rows = dict(db.execute("SELECT id, status FROM bookings").fetchall())
if len(rows) != len(SEEDED):
    problems.append(f"expected {len(SEEDED)} bookings, found {len(rows)}")
for bid, status in SEEDED:
    want = "cancelled" if bid == TARGET else status
    if rows.get(bid) != want:
        problems.append(f"booking {bid} is {rows.get(bid)!r}, expected {want!r}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
