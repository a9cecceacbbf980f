#!/bin/bash
# Reference solution: parse the CSV, apply the validity and duplicate rules, aggregate with Decimal.
set -euo pipefail
mkdir -p "$(dirname /app/results/pivot.csv)"
python3 - <<'PY'
import csv
import json
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

SRC = '/app/raw/shipments.csv'
OUT = '/app/results/pivot.csv'
NUM = 'cost_eur'
GROUP = 'carrier'
KEY = 'shipment_id'
REQUIRED = ['shipment_id', 'carrier', 'origin_hub']
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
STEP = Decimal('1e-3')
ROUNDING = ROUND_HALF_UP


def rounded(value):
    return value.quantize(STEP, rounding=ROUNDING)


def text(value):
    return f"{rounded(value):.3f}"


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


COL = 'origin_hub'
cells = {}
for row in rows:
    k = (norm(row[GROUP]), norm(row[COL]))
    cells[k] = cells.get(k, Decimal(0)) + 1
row_values = sorted({k[0] for k in cells})
col_values = sorted({k[1] for k in cells})


def show(value):
    return str(value)


with open(OUT, "w", newline="", encoding="utf-8") as fh:
    writer = csv.writer(fh, lineterminator="\n")
    writer.writerow(['carrier'] + col_values + ["total"])
    for rv in row_values:
        line = [cells.get((rv, cv), Decimal(0)) for cv in col_values]
        writer.writerow([rv] + [show(v) for v in line] + [show(sum(line, Decimal(0)))])
PY
