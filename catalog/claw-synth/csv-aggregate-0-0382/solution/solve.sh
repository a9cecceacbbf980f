#!/bin/bash
# Reference solution: parse the CSV, apply the validity and duplicate rules, aggregate with Decimal.
set -euo pipefail
mkdir -p "$(dirname /app/totals.json)"
python3 - <<'PY'
import csv
import json
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

SRC = '/app/share/csv/sales_orders_2024.csv'
OUT = '/app/totals.json'
NUM = 'unit_price'
GROUP = 'channel'
KEY = 'order_id'
REQUIRED = ['order_id', 'channel', 'order_date']
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
STEP = Decimal('1e-3')
ROUNDING = ROUND_HALF_UP


def rounded(value):
    return value.quantize(STEP, rounding=ROUNDING)


def text(value):
    return f"{rounded(value):.3f}"


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
    ok = ok and not row[NUM].startswith("-")
    ok = ok and DATE.fullmatch(row['order_date']) is not None
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
    if not ('2024-02-17' <= row['order_date'] <= '2024-03-31'):
        return False
    if norm(row['channel']) != 'retail':
        return False
    return True


matched = [r for r in rows if passes(r)]
s = stats([Decimal(r[NUM]) for r in matched])
result = {"matched_rows": len(matched), "invalid_rows": invalid}
result['mean_unit_price'] = float(rounded(s['mean']))
result['max_unit_price'] = float(rounded(s['max']))
result['distinct_product'] = len({r['product'] for r in matched if r['product']})
with open(OUT, "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2)
    fh.write("\n")
PY
