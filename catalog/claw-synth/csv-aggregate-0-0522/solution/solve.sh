#!/bin/bash
# Reference solution: parse the CSV, apply the validity and duplicate rules, aggregate with Decimal.
set -euo pipefail
mkdir -p "$(dirname /app/out/normalized.csv)"
python3 - <<'PY'
import csv
import json
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

SRC = '/app/incoming/sensor_readings.csv'
OUT = '/app/out/normalized.csv'
NUM = 'humidity_pct'
GROUP = 'sensor_id'
KEY = 'reading_id'
REQUIRED = ['reading_id', 'sensor_id']
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
STEP = Decimal('1e-2')
ROUNDING = ROUND_HALF_UP


def rounded(value):
    return value.quantize(STEP, rounding=ROUNDING)


def text(value):
    return f"{rounded(value):.2f}"


def norm(value):
    return value.lower()


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


COLUMNS = ['reading_id', 'humidity_pct', 'sensor_id', 'temperature_c', 'site']
rows.sort(key=lambda r: (-Decimal(r[NUM]), r['reading_id']))
with open(OUT, "w", newline="", encoding="utf-8") as fh:
    writer = csv.writer(fh, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        out = dict(row)
        out[GROUP] = norm(row[GROUP])
        out[NUM] = text(Decimal(row[NUM]))
        writer.writerow([out[c] for c in COLUMNS])
PY
