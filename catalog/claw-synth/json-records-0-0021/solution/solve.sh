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

KEY = 'sku'


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


records = load('/app/input/products.json', 'products')
groups = {}
for r in records:
    g = r.get('category')
    g = g if isinstance(g, str) else "(missing)"
    e = groups.setdefault(g, {"count": 0, "values": set(), "sum": Decimal(0), "n": 0, "days": []})
    e["count"] += 1
    found, v = get(r, 'dimensions.w_cm')
    if found and v is not None:
        e["values"].add(json.dumps(v))
    if is_number(r.get('stock')):
        e["sum"] += dec(r['stock'])
        e["n"] += 1


def r2(x):
    return float(x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


result = {}
for g, e in groups.items():
    obj = {"count": e["count"]}
    obj['distinct_dimensions_w_cm'] = len(e["values"])
    obj['sum_stock'] = r2(e["sum"])
    obj['avg_stock'] = r2(e["sum"] / e["n"]) if e["n"] else None
    result[g] = obj
result = [{'category': g, **obj} for g, obj in sorted(result.items(), key=lambda kv: (-kv[1]["count"], kv[0]))]
with open('/app/results/per_category.json', "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2, ensure_ascii=False)
PY
