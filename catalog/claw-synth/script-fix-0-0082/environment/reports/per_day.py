#!/usr/bin/env python3
"""Daily counts of deployment events between two dates.

Usage: python3 per_day.py EVENTS.csv START END
"""
import csv
import sys
from datetime import date, timedelta

STATUSES = ['success', 'rolled_back']


def main(argv):
    start, end = date.fromisoformat(argv[2]), date.fromisoformat(argv[3])
    counts = {}
    with open(argv[1], newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            if row["status"].lower() not in STATUSES:
                continue
            day = date.fromisoformat(row["timestamp"][:10])
            if start <= day <= end:
                counts[day] = counts.get(day, 0) + 1
    days = sorted(counts)
    busiest = None
    for day in days:
        n = counts.get(day, 0)
        print(f"{day.isoformat()} {n}")
        if n > 0 and (busiest is None or n > counts[busiest]):
            busiest = day
    print(f"total {sum(counts.values())}")
    print(f"busiest {busiest.isoformat() if busiest else '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
