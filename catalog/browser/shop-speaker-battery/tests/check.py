#!/usr/bin/env python3
"""The answer is the price of the speaker with the longest playback (Waterproof Party Speaker, 24 hours,
$74.50), as "$74.50" or "74.50"; nothing was bought."""

import re
import sqlite3
import sys
from decimal import Decimal

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
if answer is not None:
    money = answer[1:].strip() if answer.startswith("$") else answer
    if not re.fullmatch(r"\d+(\.\d\d)?", money) or Decimal(money) != Decimal("74.50"):
        problems.append(f"answer is {answer!r}")
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
if db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] != 6:
    problems.append("the orders changed")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
