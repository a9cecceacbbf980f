#!/bin/bash
# Reference solution: plain Python (json, csv, decimal) over the records.
set -euo pipefail
mkdir -p /app/out
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


records = dedupe(load('/app/json/events.jsonl', None), 'first')
PREDICATES = [{'kind': 'eq', 'field': 'type', 'value': 'purchase'}, {'kind': 'cmp', 'field': 'user_id', 'op': '<=', 'value': '155'}, {'kind': 'contains', 'field': 'session', 'value': '027'}]


def matches(r, p):
    v = r.get(p["field"])
    kind = p["kind"]
    if kind in ("eq", "ne", "in", "contains"):
        if not isinstance(v, str):
            return False
        if kind == "contains":
            return p["value"] in v.lower()
        if kind == "in":
            return v in p["value"]
        return v == p["value"] if kind == "eq" else v != p["value"]
    if kind == "cmp":
        if not is_number(v):
            return False
        a, b = dec(v), Decimal(p["value"])
        return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}[p["op"]]
    if kind == "bool":
        return v is p["value"]
    if not (isinstance(v, str) and re.match(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", v)):
        return False
    return v[:10] >= p["value"] if kind == "since" else v[:10] <= p["value"]


selected = [r for r in records if any(matches(r, p) for p in PREDICATES)]
FIELDS = ['event_id', 'session', 'user_id', 'ts', 'type']
RENAMES = {'ts': 'src_ts', 'user_id': 'user_id_value'}
with open('/app/out/filtered.jsonl', "w", encoding="utf-8") as fh:
    for r in selected:
        fh.write(json.dumps({RENAMES.get(f, f): get(r, f)[1] for f in FIELDS}, ensure_ascii=False) + "\n")
PY
