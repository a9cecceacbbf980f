"""calendar-book: book a meeting room in the local room-booking site at a given time, for given people.

The rooms and the schedule come from the calendar seed; each task adds a few bookings of other people on
its day. At the easiest level the room is named; above it the agent gets only the needs (how many people,
a feature such as video conferencing at the hardest level) and must find the one room that meets them
and is free then (the family books the other candidates at that time, so exactly one fits). The checker
reads the database: exactly one new booking, of that room, day, time, title and attendees, by the user;
no other booking changed.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from synth.families.web import (
    DONE,
    SCROLL_TO_END,
    WebFamily,
    WebTask,
    click,
    goto,
    render_check,
    spoken_date,
    type_into,
)

T = "calendar-book"
OTHERS = ["tomasz", "jen.okafor", "priya_k", "mbrennan", "hiro", "lucia_r", "sam_w"]
MEETINGS = [
    "Sprint planning", "Budget check-in", "Vendor call", "Interview loop", "Design review", "Retro",
    "Customer demo", "Roadmap sync", "Onboarding session", "Incident review", "Pricing workshop",
    "Data quality sync", "Launch prep", "Partner call", "Hiring debrief",
]  # fmt: skip
TOPICS = [
    "Churn deep-dive", "Q2 planning", "Lantern launch review", "Support rota handover", "API design chat",
    "Dashboard walkthrough", "Security training", "Release readiness", "Team offsite planning",
    "Mentoring catch-up", "Cost review", "Analytics guild",
]  # fmt: skip


SLOT_TRIES = 30


class NoSlot(Exception):
    """The drawn time has no free room that fits: draw another."""


def hhmm(total: int) -> str:
    return f"{total // 60:02d}:{total % 60:02d}"


def free(bookings: list[dict[str, Any]], room: str, day: str, start: str, end: str) -> bool:
    return not any(
        b["room"] == room
        and b["date"] == day
        and b.get("status", "confirmed") == "confirmed"
        and b["start"] < end
        and b["end"] > start
        for b in bookings
    )


class CalendarBook(WebFamily):
    name = T
    category = "form"
    site = "calendar"

    def make(self, rng: random.Random, seed: dict[str, Any], difficulty: int) -> WebTask:
        rooms = seed.get("rooms", [])
        bookings = seed.setdefault("bookings", [])
        if len(rooms) < 3:
            raise ValueError(f"{T}: fewer than 3 rooms in the seed")
        today = date.fromisoformat(seed.get("today", "2026-03-16"))
        days = [today + timedelta(days=i) for i in range(1, 12)]
        day = rng.choice([d for d in days if d.weekday() < 5]).isoformat()
        for _ in range(rng.randint(2, 4)):  # the day's schedule differs from task to task
            start = rng.randrange(8 * 4, 18 * 4) * 15
            extra = {
                "room": rng.choice(rooms)["slug"],
                "date": day,
                "start": hhmm(start),
                "end": hhmm(start + rng.choice([30, 45, 60, 90])),
                "title": rng.choice(MEETINGS),
                "booked_by": rng.choice(OTHERS),
                "attendees": 2,
            }
            if free(bookings, extra["room"], day, extra["start"], extra["end"]):
                room_cap = next(r["capacity"] for r in rooms if r["slug"] == extra["room"])
                extra["attendees"] = rng.randint(1, room_cap)
                bookings.append(extra)
        title = rng.choice(TOPICS)
        for _ in range(SLOT_TRIES):
            try:
                return self._book(rng, seed, difficulty, day, title)
            except NoSlot:
                continue
        raise ValueError(f"{T}: no slot with a free room found on {day}")

    def _book(
        self, rng: random.Random, seed: dict[str, Any], difficulty: int, day: str, title: str
    ) -> WebTask:
        rooms, bookings = seed["rooms"], seed["bookings"]
        length = rng.choice([30, 60, 60, 90])
        start_at = rng.randrange(8 * 2, (20 * 60 - length) // 30) * 30
        start, end = hhmm(start_at), hhmm(start_at + length)
        if difficulty == 1:
            options = [r for r in rooms if free(bookings, r["slug"], day, start, end)]
            if not options:
                raise NoSlot
            room = rng.choice(options)
            people = rng.randint(1, room["capacity"])
            need = ""
            feature = None
        else:
            feature = None
            if difficulty == 3:
                features = sorted(
                    {f.strip().lower() for r in rooms for f in r.get("features", "").split(",") if f.strip()}
                )
                roomy = [r["features"].lower() for r in rooms if r["capacity"] >= 2]
                feature = rng.choice([f for f in features if any(f in have for have in roomy)])

            def fits(r: dict[str, Any], n: int) -> bool:
                return r["capacity"] >= n and (feature is None or feature in r.get("features", "").lower())

            people = rng.randint(2, max(r["capacity"] for r in rooms if fits(r, 2)))
            candidates = [r for r in rooms if fits(r, people)]
            if not candidates:
                raise ValueError(f"{T}: no room holds {people} people with {feature!r}")
            free_ones = [r for r in candidates if free(bookings, r["slug"], day, start, end)]
            if not free_ones:
                raise NoSlot
            room = rng.choice(free_ones)
            for other in candidates:  # the other candidates are taken then: one answer
                if other is not room and free(bookings, other["slug"], day, start, end):
                    bookings.append(
                        {
                            "room": other["slug"],
                            "date": day,
                            "start": start,
                            "end": end,
                            "title": rng.choice(MEETINGS),
                            "booked_by": rng.choice(OTHERS),
                            "attendees": min(other["capacity"], people),
                        }
                    )
            need = f" It is for {people} people" + (f" and needs {feature}" if feature else "") + "."
        when = spoken_date(day)
        if difficulty == 1:
            instruction = (
                f"Book the room {room['name']} on the room-booking site at http://127.0.0.1:8080/ for "
                f'{when}, from {start} to {end}, titled "{title}", for {people} '
                f"{'person' if people == 1 else 'people'}."
            )
        else:
            instruction = (
                f"On the room-booking site at http://127.0.0.1:8080/, book a room for {when}, from {start} "
                f'to {end}, titled "{title}".{need} Only one room that fits is free at that time: find '
                "it and book it."
            )
        actions = [
            goto(),
            click("nav-book"),
            click(f"pick-room-{room['slug']}"),
            type_into("attendees", str(people)),  # first: a wheel over a focused number field changes it
            type_into("date", day),
            type_into("start", start),
            type_into("end", end),
            type_into("title", title),
            SCROLL_TO_END,
            click("book-button"),
            DONE,
        ]
        spec = {
            "seeded": len(bookings),
            "statuses": [b.get("status", "confirmed") for b in bookings],
            "room": room["slug"],
            "date": day,
            "start": start,
            "end": end,
            "title": title,
            "attendees": people,
            "user": seed.get("current_user", "alex"),
        }
        doc = (
            f"Checks the calendar database: exactly one new booking, of {room['name']} on {day} "
            f"{start}-{end}, {title!r}, {people} attendees, by the user; no other booking changed."
        )
        return WebTask(
            title=(
                "Book a named meeting room at a given time"
                if difficulty == 1
                else "Find the one free meeting room that meets given needs and book it"
            ),
            instruction=instruction,
            seed=seed,
            actions=actions,
            check=render_check(T, spec, doc),
            params={"room": room["slug"], "date": day, "start": start, "end": end, "feature": feature},
            expects={
                "date": day,
                "start": start,
                "end": end,
                "title": title,
                "attendees": str(people),
                **({"room": room["name"]} if difficulty == 1 else {}),
            },
            keywords=["calendar", "booking", "rooms", "form"],
        )
