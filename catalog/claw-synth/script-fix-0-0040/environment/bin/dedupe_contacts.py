#!/usr/bin/env python3
"""Merge duplicate contact records (same e-mail address) of a CSV export.

Usage: python3 dedupe_contacts.py INPUT.csv OUTPUT.csv
"""
import csv
import sys


def main(argv):
    with open(argv[1], newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    merged = {}
    for row in rows:
        key = row["email"].strip()
        if not key:
            continue
        if key not in merged:
            merged[key] = {"name": row["name"].strip(), "email": key, "phone": row["phone"].strip()}
        elif not merged[key]["phone"] and row["phone"].strip():
            merged[key]["phone"] = row["phone"].strip()
    out = list(merged.values())
    with open(argv[2], "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["name", "email", "phone"])
        for rec in out:
            writer.writerow([rec["name"], rec["email"], rec["phone"]])
    print(f"{len(rows)} rows, {len(out)} contacts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
