#!/usr/bin/env python3
"""Per-employee summary of hours.

Usage: python3 summarize.py INPUT.csv
"""
import csv
import sys
from decimal import ROUND_HALF_UP, Decimal

KEY = "employee"
VALUE = "hours"
MIN_TOTAL = Decimal("250")


def load(path):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return rows


def main(argv):
    groups = {}
    for row in load(argv[1]):
        raw = (row.get(VALUE) or "").strip()
        if not raw:
            continue
        name = row[KEY].strip()
        count, total = groups.get(name, (0, Decimal(0)))
        groups[name] = (count + 1, total + Decimal(raw))
    if not groups:
        print("no data rows", file=sys.stderr)
        return 0

    kept = [(name, count, total) for name, (count, total) in groups.items() if total >= MIN_TOTAL]
    kept.sort(key=lambda g: (-g[2], g[0]))
    print(f"{KEY},count,total,average")
    for name, count, total in kept:
        avg = round(float(total) / count, 2)
        print(f"{name},{count},{total:.2f},{avg:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
