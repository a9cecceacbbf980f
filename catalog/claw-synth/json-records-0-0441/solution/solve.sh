#!/bin/bash
# Reference solution: plain Python (json, csv, decimal) over the records.
set -euo pipefail
mkdir -p /app/results
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


FIELDS = ['rating', 'verified', 'helpful_votes']


def instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)


entries = []
for rank, (path, name) in enumerate([('/app/imports/reviews_crm.json', 'reviews_crm'), ('/app/imports/reviews_changes.jsonl', 'reviews_changes')]):
    for pos, rec in enumerate(load(path)):
        entries.append((instant(rec["updated_at"]), rank, pos, name, rec))
entries.sort(key=lambda e: (e[1], e[0], e[2]))  # the authoritative file last
merged, newest, sources = {}, {}, {}
for when, _rank, _pos, name, rec in entries:
    k = rec[KEY]
    sources.setdefault(k, set()).add(name)
    newest[k] = max(newest.get(k, when), when)
    current = merged.setdefault(k, {})
    for f in FIELDS:
        if rec.get(f) is not None:
            current[f] = rec[f]
result = []
for k in sorted(merged, key=order):
    obj = {KEY: k, **merged[k]}
    obj["updated_at"] = newest[k].strftime("%Y-%m-%dT%H:%M:%SZ")
    obj["sources"] = sorted(sources[k])
    result.append(obj)
with open('/app/results/merged.json', "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2, ensure_ascii=False)
PY
