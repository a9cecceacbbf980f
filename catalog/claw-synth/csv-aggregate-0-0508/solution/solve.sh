#!/bin/bash
# Reference solution: parse the CSV, apply the validity and duplicate rules, aggregate with Decimal.
set -euo pipefail
mkdir -p "$(dirname /app/results/filtered_totals.json)"
python3 - <<'PY'
import csv
import json
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

SRC = '/app/raw/sensor_readings_2024.csv'
OUT = '/app/results/filtered_totals.json'
NUM = 'temperature_c'
GROUP = 'site'
KEY = 'reading_id'
REQUIRED = ['reading_id', 'site']
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
STEP = Decimal('1e-2')
ROUNDING = ROUND_HALF_UP


def rounded(value):
    return value.quantize(STEP, rounding=ROUNDING)


def text(value):
    return f"{rounded(value):.2f}"


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


def passes(row):
    if norm(row['site']) != 'cold-room':
        return False
    if not Decimal(row['temperature_c']) < Decimal('13.0'):
        return False
    return True


matched = [r for r in rows if passes(r)]
s = stats([Decimal(r[NUM]) for r in matched])
result = {"matched_rows": len(matched), "invalid_rows": invalid}
result['mean_temperature_c'] = float(rounded(s['mean']))
result['min_temperature_c'] = float(rounded(s['min']))
result['max_temperature_c'] = float(rounded(s['max']))
result['distinct_sensor_id'] = len({r['sensor_id'] for r in matched if r['sensor_id']})
with open(OUT, "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2)
    fh.write("\n")
PY
