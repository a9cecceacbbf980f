#!/bin/bash
# Reference solution: plain Python (json, csv, decimal) over the records.
set -euo pipefail
mkdir -p /app/output
python3 - <<'PY'
import csv
import json
import re
from datetime import datetime, timezone
from decimal import ROUND_HALF_UP, Decimal

KEY = 'event_id'


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


records = load('/app/data/events.jsonl', None)
lookup = {}
for r in load('/app/exports/users.json', None):
    lookup.setdefault(json.dumps(r['id']), r)


def match(r):
    if 'user_id' not in r:
        return None
    return lookup.get(json.dumps(r['user_id']))


OWN = ['event_id', 'user_id', 'session', 'ts']
EXTRA = ['plan']
with open('/app/output/enriched.jsonl', "w", encoding="utf-8") as fh:
    for r in sorted(records, key=lambda r: order(r[KEY])):
        m = match(r)
        if m is None:
            continue
        obj = {c: get(r, c)[1] for c in OWN}
        for c in EXTRA:
            obj['lookup_' + c] = get(m, c)[1] if m is not None else None
        fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
PY
