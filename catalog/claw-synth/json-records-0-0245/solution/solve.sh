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

KEY = 'id'


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


records = load('/app/feeds/users.json', None)
RULES = [{'code': 'id_required', 'kind': 'required', 'field': 'id'}, {'code': 'signup_date_required', 'kind': 'required', 'field': 'signup_date'}, {'code': 'logins_invalid', 'kind': 'number', 'field': 'logins', 'min': 0}, {'code': 'plan_invalid', 'kind': 'enum', 'field': 'plan', 'allowed': ['enterprise', 'free', 'pro', 'team']}, {'code': 'email_invalid', 'kind': 'email', 'field': 'email'}, {'code': 'id_duplicate', 'kind': 'unique', 'field': 'id'}]
EMAIL = re.compile('[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}')
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def fails(r, rule, seen):
    v = r.get(rule["field"])
    kind = rule["kind"]
    if kind == "required":
        return v is None or v == ""
    if kind == "unique":
        return v is not None and json.dumps(v) in seen
    if v is None:
        return False
    if kind == "number":
        return not is_number(v) or dec(v) < rule["min"] or ("max" in rule and dec(v) > Decimal(rule["max"]))
    if kind == "length":
        return not isinstance(v, str) or len(v) > rule["max"]
    if kind == "enum":
        return v not in rule["allowed"]
    if kind == "email":
        return not (isinstance(v, str) and EMAIL.fullmatch(v))
    return not (isinstance(v, str) and DAY.fullmatch(v))


seen, errors = set(), []
with open('/app/output/clean.jsonl', "w", encoding="utf-8") as fh:
    for i, r in enumerate(records):
        codes = sorted(rule["code"] for rule in RULES if fails(r, rule, seen))
        if r.get(KEY) is not None:
            seen.add(json.dumps(r[KEY]))
        if codes:
            errors.append({"index": i, "key": r.get(KEY), "errors": codes})
        else:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
with open('/app/output/users_errors.json', "w", encoding="utf-8") as fh:
    json.dump(errors, fh, indent=2, ensure_ascii=False)
PY
