#!/usr/bin/env python3
"""Checks the mailbox: exactly one new message, a reply to Samantha Wells' message about EXP-2291 (not the
look-alike about EXP-2306), sent to her, with the suggested subject and the given text above any quote;
no seeded message moved."""

import re
import sqlite3
import sys


def norm(text):
    text = " ".join(text.strip().casefold().split())
    return text[:-1].rstrip() if text.endswith(".") else text


SEEDED = 35
TARGET = 16
TEXT = (
    "Hi Samantha, I have attached the missing hotel receipt to EXP-2291 and resubmitted the claim."
    " Thanks, Alex"
)
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []
new = db.execute(
    "SELECT folder, recipients, subject, body, in_reply_to FROM messages WHERE id > ? ORDER BY id", (SEEDED,)
).fetchall()
if len(new) != 1:
    problems.append(f"expected one new message, found {len(new)}")
else:
    folder, recipients, subject, body, parent = new[0]
    if folder != "sent":
        problems.append(f"the new message is in {folder!r}")
    if parent != TARGET:
        problems.append(f"the new message replies to message {parent!r}, not {TARGET}")
    if norm(recipients) != "samantha.wells@northwind.test":
        problems.append(f"the reply goes to {recipients!r}")
    if norm(subject) != "re: expense claim returned":
        problems.append(f"the subject is {subject!r}")
    # the reply's own text: the body without quoted lines and the "On <date>, <name> wrote:" line
    attribution = re.compile(r"On \d{4}-\d{2}-\d{2} \d{2}:\d{2}, .* wrote:")
    own = "\n".join(
        line
        for line in body.splitlines()
        if not line.lstrip().startswith(">") and not attribution.fullmatch(line.strip())
    )
    if norm(own) != norm(TEXT):
        problems.append(f"the reply's own text is {own!r}")
SEEDED_SENT = 6
if (
    db.execute("SELECT COUNT(*) FROM messages WHERE id <= ? AND folder = 'sent'", (SEEDED,)).fetchone()[0]
    != SEEDED_SENT
):
    problems.append("seeded sent messages were changed")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
