#!/bin/bash
# Reference solution: parse the CSV, apply the validity and duplicate rules, aggregate with Decimal.
set -euo pipefail
mkdir -p "$(dirname /app/reports/ranking.json)"
python3 - <<'PY'
import csv
import json
import re
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

SRC = '/app/raw/expense_claims_export.csv'
OUT = '/app/reports/ranking.json'
NUM = 'amount'
GROUP = 'employee'
KEY = 'claim_id'
REQUIRED = ['claim_id', 'employee']
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
STEP = Decimal('1e-2')
ROUNDING = ROUND_HALF_EVEN


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
    kept.pop(row[KEY], None)  # a later valid occurrence replaces the earlier one
    kept[row[KEY]] = row
rows = list(kept.values())
duplicates = len(valid) - len(rows)


def stats(values):
    total = sum(values, Decimal(0))
    return {"count": len(values), "sum": total, "mean": total / len(values), "min": min(values), "max": max(values)}


groups = {}
for row in rows:
    groups.setdefault(norm(row[GROUP]), []).append(Decimal(row[NUM]))
scored = sorted(((stats(v)['sum'], name, len(v)) for name, v in groups.items()), key=lambda t: (-t[0], t[1]))
top = scored[:4]
result = []
for rank, (score, name, count) in enumerate(top, 1):
    result.append({"rank": rank, 'employee': name, 'sum_amount': float(rounded(score)), "rows": count})
with open(OUT, "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2)
    fh.write("\n")
PY
