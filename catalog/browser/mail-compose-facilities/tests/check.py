#!/usr/bin/env python3
"""Checks the mailbox: exactly one new message, in Sent, not a reply, to facilities@northwind.test only,
with the given subject and text."""

import sqlite3
import sys


def norm(text):
    text = " ".join(text.strip().casefold().split())
    return text[:-1].rstrip() if text.endswith(".") else text


SEEDED = 33
TEXT = (
    "Hi, the large screen in the Severn room flickers during video calls. Could someone take a look this"
    " week? Thanks, Alex"
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
    if parent is not None:
        problems.append("the new message is a reply")
    if norm(recipients) != "facilities@northwind.test":
        problems.append(f"the message goes to {recipients!r}")
    if norm(subject) != norm("Severn screen flickering"):
        problems.append(f"the subject is {subject!r}")
    if norm(body) != norm(TEXT):
        problems.append(f"the text is {body!r}")
if db.execute("SELECT COUNT(*) FROM messages WHERE id <= ?", (SEEDED,)).fetchone()[0] != SEEDED:
    problems.append("seeded messages were removed")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
