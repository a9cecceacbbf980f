"""Calendar: a room booking site with a week view, a booking form with a conflict check, and my bookings.

Why: tasks that read a schedule (when is a room free, who booked what) and make or cancel bookings under
constraints (capacity, overlaps, dates). The user is fixed (settings 'user', default alex); 'today' is
fixed by the seed so the week shown first never depends on the clock.
"""

from __future__ import annotations

import re
import sqlite3
from datetime import date, timedelta

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .common import SETTINGS_SQL, Site, form, open_db, parse_date, redirect, to_int, today, write

SCHEMA = (
    """
CREATE TABLE rooms (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL, name TEXT NOT NULL,
  capacity INTEGER NOT NULL, floor TEXT NOT NULL, features TEXT NOT NULL DEFAULT '');
CREATE TABLE bookings (id INTEGER PRIMARY KEY, room_id INTEGER NOT NULL REFERENCES rooms(id),
  date TEXT NOT NULL,
  start TEXT NOT NULL, end TEXT NOT NULL, title TEXT NOT NULL, booked_by TEXT NOT NULL,
  attendees INTEGER NOT NULL DEFAULT 1, status TEXT NOT NULL DEFAULT 'confirmed'
  CHECK (status IN ('confirmed', 'cancelled')));
"""
    + SETTINGS_SQL
)

BOOKINGS = "SELECT b.*, r.name AS room, r.slug AS room_slug FROM bookings b JOIN rooms r ON r.id = b.room_id"
OPEN, CLOSE = "07:00", "21:00"


def seed(conn: sqlite3.Connection, data: dict) -> None:
    conn.execute("INSERT INTO settings (key, value) VALUES ('user', ?)", (data.get("current_user", "alex"),))
    for r in data.get("rooms", []):
        conn.execute(
            "INSERT INTO rooms (slug, name, capacity, floor, features) VALUES (?, ?, ?, ?, ?)",
            (r["slug"], r["name"], r["capacity"], r["floor"], r.get("features", "")),
        )
    for b in data.get("bookings", []):
        conn.execute(
            "INSERT INTO bookings (room_id, date, start, end, title, booked_by, attendees, status)"
            " VALUES ((SELECT id FROM rooms WHERE slug = ?), ?, ?, ?, ?, ?, ?, ?)",
            (
                b["room"],
                b["date"],
                b["start"],
                b["end"],
                b["title"],
                b["booked_by"],
                b.get("attendees", 1),
                b.get("status", "confirmed"),
            ),
        )


def user(conn: sqlite3.Connection) -> str:
    return conn.execute("SELECT value FROM settings WHERE key = 'user'").fetchone()["value"]


def nav(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    return [
        ("nav-week", "/", "Week view"),
        ("nav-book", "/book", "Book a room"),
        ("nav-my", "/my", "My bookings"),
        ("nav-rooms", "/rooms", "Rooms"),
    ]


def valid_time(value: str) -> bool:
    return bool(re.fullmatch(r"([01]\d|2[0-3]):(00|15|30|45)", value)) and OPEN <= value <= CLOSE


async def week(request: Request) -> Response:
    with open_db(request) as conn:
        now = date.fromisoformat(today(conn))
        raw = request.query_params.get("date")
        day = parse_date(raw) if raw else now
        error = None if day else "Enter the date as YYYY-MM-DD, for example 2026-03-18."
        monday = (day or now) - timedelta(days=(day or now).weekday())
        days = [monday + timedelta(days=i) for i in range(7)]
        rooms = conn.execute("SELECT * FROM rooms ORDER BY name").fetchall()
        rows = conn.execute(
            BOOKINGS + " WHERE b.status = 'confirmed' AND b.date BETWEEN ? AND ? ORDER BY b.start",
            (days[0].isoformat(), days[-1].isoformat()),
        ).fetchall()
    cells: dict[tuple[str, str], list[sqlite3.Row]] = {}
    for b in rows:
        cells.setdefault((b["room_slug"], b["date"]), []).append(b)
    return SITE.render(
        request,
        "week.html",
        f"Week of {monday.day} {monday:%B %Y}",
        400 if error else 200,
        days=days,
        rooms=rooms,
        cells=cells,
        today=now.isoformat(),
        error=error,
        prev=(monday - timedelta(days=7)).isoformat(),
        next=(monday + timedelta(days=7)).isoformat(),
        shown=(day or now).isoformat(),
    )


async def rooms(request: Request) -> Response:
    with open_db(request) as conn:
        rows = conn.execute("SELECT * FROM rooms ORDER BY name").fetchall()
    return SITE.render(request, "rooms.html", "Rooms", rooms=rows)


def booking_error(conn: sqlite3.Connection, f: dict[str, str]) -> str | None:
    room = conn.execute("SELECT * FROM rooms WHERE slug = ?", (f.get("room", ""),)).fetchone()
    day = parse_date(f.get("date"))
    start, end = f.get("start", ""), f.get("end", "")
    if room is None:
        return "Please choose a room."
    if day is None:
        return "Enter the date as YYYY-MM-DD, for example 2026-03-18."
    if day.isoformat() < today(conn):
        return "Bookings cannot be made for a date in the past."
    if not valid_time(start) or not valid_time(end):
        return f"Times must be HH:MM between {OPEN} and {CLOSE}, in steps of 15 minutes (for example 09:30)."
    if start >= end:
        return "The end time must be after the start time."
    if not f.get("title") or len(f["title"]) > 80:
        return "The title must be 1 to 80 characters."
    attendees = to_int(f.get("attendees"), 1, 1000)
    if attendees is None:
        return "Attendees must be a whole number of at least 1."
    if attendees > room["capacity"]:
        return f"{room['name']} holds at most {room['capacity']} people."
    clash = conn.execute(
        BOOKINGS
        + " WHERE b.room_id = ? AND b.date = ? AND b.status = 'confirmed' AND b.start < ? AND b.end > ?",
        (room["id"], day.isoformat(), end, start),
    ).fetchone()
    if clash:
        return (
            f"{room['name']} is already booked from {clash['start']} to {clash['end']} on {clash['date']}"
            f" ({clash['title']}). Choose another time or room."
        )
    return None


async def book(request: Request) -> Response:
    error = None
    with open_db(request) as conn:
        if request.method == "POST":
            f = await form(request)
            error = booking_error(conn, f)
            if not error:
                bid = write(
                    conn,
                    "INSERT INTO bookings (room_id, date, start, end, title, booked_by, attendees)"
                    " VALUES ((SELECT id FROM rooms WHERE slug = ?), ?, ?, ?, ?, ?, ?)",
                    (f["room"], f["date"], f["start"], f["end"], f["title"], user(conn), int(f["attendees"])),
                )
                return redirect(f"/booking/{bid}?ok=booked")
        else:
            q = request.query_params
            f = {
                "room": q.get("room", ""),
                "date": q.get("date", today(conn)),
                "start": q.get("start", ""),
                "end": q.get("end", ""),
                "title": "",
                "attendees": "1",
            }
        all_rooms = conn.execute("SELECT * FROM rooms ORDER BY name").fetchall()
    return SITE.render(
        request,
        "book.html",
        "Book a room",
        400 if error else 200,
        f=f,
        rooms=all_rooms,
        error=error,
        open=OPEN,
        close=CLOSE,
    )


async def booking(request: Request) -> Response:
    with open_db(request) as conn:
        b = conn.execute(BOOKINGS + " WHERE b.id = ?", (request.path_params["id"],)).fetchone()
        me = user(conn)
    if b is None:
        return SITE.error(request, "No such booking.", 404)
    return SITE.render(request, "booking.html", b["title"], b=b, me=me)


async def cancel(request: Request) -> Response:
    with open_db(request) as conn:
        b = conn.execute(BOOKINGS + " WHERE b.id = ?", (request.path_params["id"],)).fetchone()
        if b is None:
            return SITE.error(request, "No such booking.", 404)
        if b["booked_by"] != user(conn):
            return SITE.error(request, f"Only {b['booked_by']} can cancel this booking.")
        if b["status"] != "confirmed":
            return SITE.error(request, "This booking is already cancelled.")
        if b["date"] < today(conn):
            return SITE.error(request, "Past bookings cannot be cancelled.")
        write(conn, "UPDATE bookings SET status = 'cancelled' WHERE id = ?", (b["id"],))
    return redirect("/my?ok=cancelled")


async def mine(request: Request) -> Response:
    with open_db(request) as conn:
        rows = conn.execute(
            BOOKINGS + " WHERE b.booked_by = ? ORDER BY b.date, b.start", (user(conn),)
        ).fetchall()
        now = today(conn)
    return SITE.render(request, "my.html", "My bookings", bookings=rows, today=now)


def make_app(db_path: str) -> Starlette:
    return SITE.app(
        db_path,
        [
            Route("/", week),
            Route("/rooms", rooms),
            Route("/book", book, methods=["GET", "POST"]),
            Route("/booking/{id:int}", booking),
            Route("/booking/{id:int}/cancel", cancel, methods=["POST"]),
            Route("/my", mine),
        ],
    )


SITE = Site(
    "Forge Rooms",
    "calendar",
    nav,
    {"booked": "Your booking is confirmed.", "cancelled": "The booking has been cancelled."},
)
