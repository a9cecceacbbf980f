#!/bin/bash
# Reference solution: parse the CSV, apply the validity and duplicate rules, aggregate with Decimal.
set -euo pipefail
mkdir -p "$(dirname /app/category_summary.json)"
python3 - <<'PY'
import csv
import json
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

SRC = '/app/raw/expense_claims.csv'
OUT = '/app/category_summary.json'
NUM = 'amount'
GROUP = 'category'
KEY = 'claim_id'
REQUIRED = ['claim_id', 'category']
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
    groups.setdefault(norm(row[GROUP]), []).append(row)
summary = {}
for name, members in groups.items():
    s = stats([Decimal(r[NUM]) for r in members])
    entry = {}
    entry['sum'] = float(rounded(s['sum']))
    entry['mean'] = float(rounded(s['mean']))
    summary[name] = entry
result = {'by_category': summary, "invalid_rows": invalid, "duplicate_rows": duplicates}
with open(OUT, "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2, sort_keys=True)
    fh.write("\n")
PY
