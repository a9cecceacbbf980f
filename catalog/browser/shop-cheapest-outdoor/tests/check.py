#!/usr/bin/env python3
"""The answer names the cheapest product in the Outdoor category (Waterproof Match Case, $5.75), and
nothing was bought or left in the cart."""

import sqlite3
import sys

problems = []


def norm(text: str) -> str:
    """Strip, casefold, collapse whitespace, drop one trailing '.'."""
    text = " ".join(text.strip().casefold().split())
    return text[:-1].rstrip() if text.endswith(".") else text


try:
    with open("/app/answer.txt", encoding="utf-8") as fh:
        answer = norm(fh.read())
except OSError:
    answer = None
    problems.append("no answer in /app/answer.txt")
if answer is not None and answer != norm("Waterproof Match Case"):
    problems.append(f"answer is {answer!r}")
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
if db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] != 6:
    problems.append("the orders changed")
if db.execute("SELECT COUNT(*) FROM cart_items").fetchone()[0] != 0:
    problems.append("the cart is not empty")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
