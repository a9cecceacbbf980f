#!/bin/bash
# Reference solution: parse the CSV, apply the validity and duplicate rules, aggregate with Decimal.
set -euo pipefail
mkdir -p "$(dirname /app/out/report.csv)"
python3 - <<'PY'
import csv
import json
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

SRC = '/app/raw/support_tickets_2024.csv'
OUT = '/app/out/report.csv'
NUM = 'first_response_min'
GROUP = 'priority'
KEY = 'ticket_id'
REQUIRED = ['ticket_id', 'priority']
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
STEP = Decimal('1e-1')
ROUNDING = ROUND_HALF_UP


def rounded(value):
    return value.quantize(STEP, rounding=ROUNDING)


def text(value):
    return f"{rounded(value):.1f}"


def norm(value):
    return value


with open(SRC, newline="", encoding="utf-8") as fh:
    reader = csv.reader(fh)
    header = [h.strip() for h in next(reader)]
    records = list(reader)

invalid = 0
valid = []
for record in records:
    if not record:
        continue  # an empty line
    fields = [f.strip() for f in record]
    if len(fields) != len(header):
        invalid += 1
        continue
    row = dict(zip(header, fields))
    ok = all(row[c] != "" for c in REQUIRED) and NUMBER.fullmatch(row[NUM]) is not None
    ok = ok and not row[NUM].startswith("-")
    if not ok:
        invalid += 1
        continue
    valid.append(row)

kept = {}
for row in valid:
    kept.setdefault(row[KEY], row)  # the first valid occurrence wins
rows = list(kept.values())
duplicates = len(valid) - len(rows)


def stats(values):
    total = sum(values, Decimal(0))
    return {"count": len(values), "sum": total, "mean": total / len(values), "min": min(values), "max": max(values)}


groups = {}
for row in rows:
    groups.setdefault(norm(row[GROUP]), []).append(Decimal(row[NUM]))
table = {name: stats(values) for name, values in groups.items()}
order = sorted(table, key=lambda name: (-table[name]['mean'], name))
with open(OUT, "w", newline="", encoding="utf-8") as fh:
    writer = csv.writer(fh, lineterminator="\n")
    writer.writerow(['priority', 'count', 'mean_first_response_min'])
    for name in order:
        s = table[name]
        writer.writerow([name, s['count'], text(s['mean'])])
PY
