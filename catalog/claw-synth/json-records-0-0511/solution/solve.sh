#!/bin/bash
# Reference solution: plain Python (json, csv, decimal) over the records.
set -euo pipefail
mkdir -p /app
python3 - <<'PY'
import csv
import json
import re
from datetime import datetime, timezone
from decimal import ROUND_HALF_UP, Decimal

KEY = 'order_id'


def load(path, wrapper=None):
    with open(path, encoding="utf-8") as fh:
        if path.endswith(".jsonl"):
            return [json.loads(line) for line in fh if line.strip()]
        data = json.load(fh)
    return data[wrapper] if wrapper else data


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def dec(v):
    return Decimal(repr(v)) if isinstance(v, float) else Decimal(v)


def get(record, path):
    """(found, value) of a dotted path."""
    value = record
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value


def order(v):
    return (0, v) if is_number(v) else (1, str(v))


def dedupe(records, rule):
    if rule == "first":
        seen, out = set(), []
        for r in records:
            if r[KEY] not in seen:
                seen.add(r[KEY])
                out.append(r)
        return out
    last = {r[KEY]: i for i, r in enumerate(records)}
    return [r for i, r in enumerate(records) if last[r[KEY]] == i]


records = sorted(dedupe(load('/app/feeds/orders.jsonl', None), 'first'), key=lambda r: order(r[KEY]))
COLUMNS = ['order_id', 'quantity', 'unit_price', 'status']


def cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return ';'.join(cell(x) for x in v)
    return json.dumps(v)


with open('/app/flat.csv', "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in records:
        w.writerow([cell(get(r, c)[1]) for c in COLUMNS])
PY
