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

KEY = 'review_id'


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


records = load('/app/data/reviews.json', None)
lookup = {}
for r in load('/app/json/users.json', None):
    lookup[json.dumps(r['id'])] = r


def match(r):
    if 'user_id' not in r:
        return None
    return lookup.get(json.dumps(r['user_id']))


groups, unmatched = {}, 0
for r in records:
    m = match(r)
    if m is None:
        unmatched += 1
        continue
    g = m.get('plan')
    g = g if isinstance(g, str) else "(none)"
    e = groups.setdefault(g, {"count": 0, "total": Decimal(0)})
    e["count"] += 1
    if is_number(r.get('rating')):
        e["total"] += dec(r['rating'])
result = {"groups": {}, "unmatched": unmatched}
for g, e in groups.items():
    entry = {"count": e["count"]}
    entry['total_rating'] = float(e["total"].quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    result["groups"][g] = entry
with open('/app/user_id_plan.json', "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2, ensure_ascii=False)
PY
