#!/usr/bin/env python3
"""Checks the bookings: exactly one new one, Harbour on 2026-03-24 10:00-11:00, 'Vendor demo: Lantern',
3 attendees, by alex, confirmed; no seeded booking changed."""

import sqlite3
import sys


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
]
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []
new = db.execute(
    "SELECT r.slug, b.date, b.start, b.end, b.title, b.booked_by, b.attendees, b.status"
    " FROM bookings b JOIN rooms r ON r.id = b.room_id WHERE b.id > ? ORDER BY b.id",
    (32,),
).fetchall()
if len(new) != 1:
    problems.append(f"expected one new booking, found {len(new)}")
else:
    room, day, start, end, title, owner, attendees, status = new[0]
    if room != "harbour":
        problems.append(f"the booking is for room {room!r}")
    if (day, start, end) != ("2026-03-24", "10:00", "11:00"):
        problems.append(f"the booking is on {day} {start}-{end}")
    if norm(title) != norm("Vendor demo: Lantern"):
        problems.append(f"the title is {title!r}")
    if attendees != 3:
        problems.append(f"attendees: {attendees}")
    if owner != "alex" or status != "confirmed":
        problems.append(f"booked by {owner!r}, status {status!r}")
rows = dict(db.execute("SELECT id, status FROM bookings WHERE id <= ?", (32,)).fetchall())
for bid, status in SEEDED:
    if rows.get(bid) != status:
        problems.append(f"seeded booking {bid} is {rows.get(bid)!r}, expected {status!r}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
