#!/usr/bin/env python3
"""Checks the bookings: Severn and Clifton are taken on 2026-03-25 14:00-15:00, so exactly one new
booking, Avon (the smallest free room for 5) 14:00-15:00, 'Hiring sync', 5 attendees, by alex; no seeded
booking changed."""

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
    (33, "confirmed"),
    (34, "confirmed"),
]
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []
new = db.execute(
    "SELECT r.slug, b.date, b.start, b.end, b.title, b.booked_by, b.attendees, b.status"
    " FROM bookings b JOIN rooms r ON r.id = b.room_id WHERE b.id > ? ORDER BY b.id",
    (34,),
).fetchall()
if len(new) != 1:
    problems.append(f"expected one new booking, found {len(new)}")
else:
    room, day, start, end, title, owner, attendees, status = new[0]
    if room != "avon":
        problems.append(f"the booking is for room {room!r}")
    if (day, start, end) != ("2026-03-25", "14:00", "15:00"):
        problems.append(f"the booking is on {day} {start}-{end}")
    if norm(title) != norm("Hiring sync"):
        problems.append(f"the title is {title!r}")
    if attendees != 5:
        problems.append(f"attendees: {attendees}")
    if owner != "alex" or status != "confirmed":
        problems.append(f"booked by {owner!r}, status {status!r}")
rows = dict(db.execute("SELECT id, status FROM bookings WHERE id <= ?", (34,)).fetchall())
for bid, status in SEEDED:
    if rows.get(bid) != status:
        problems.append(f"seeded booking {bid} is {rows.get(bid)!r}, expected {status!r}")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
