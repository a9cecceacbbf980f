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


records = load('/app/json/events.jsonl', None)
groups = {}
for r in records:
    g = r.get('type')
    g = g if isinstance(g, str) else "(missing)"
    e = groups.setdefault(g, {"count": 0, "values": set(), "sum": Decimal(0), "n": 0, "days": []})
    e["count"] += 1
    found, v = get(r, 'props.path')
    if found and v is not None:
        e["values"].add(json.dumps(v))
    d = r.get('ts')
    if isinstance(d, str) and re.match(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", d):
        e["days"].append(d[:10])


def r2(x):
    return float(x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


result = {}
for g, e in groups.items():
    obj = {"count": e["count"]}
    obj['distinct_props_path'] = len(e["values"])
    obj["first"] = min(e["days"]) if e["days"] else None
    obj["last"] = max(e["days"]) if e["days"] else None
    result[g] = obj
result = [{'type': g, **obj} for g, obj in sorted(result.items(), key=lambda kv: (-kv[1]["count"], kv[0]))]
with open('/app/type_counts.json', "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2, ensure_ascii=False)
PY
