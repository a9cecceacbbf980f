#!/bin/bash
# Reference solution: parse the log with the grammar from the instruction, then build each section.
set -euo pipefail
mkdir -p "$(dirname /app/out/report.json)"
python3 - <<'PY'
import json
import math
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal

LINE = re.compile('^[a-z_]+=\\S+( [a-z_]+=\\S+)*$')
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

with open('/srv/gateway/requests.log', encoding="utf-8") as fh:
    lines = fh.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()  # the final newline ends the last line

entries, bad = [], 0
for line in lines:
    if not LINE.match(line):
        bad += 1
        continue
    pairs = dict(part.split("=", 1) for part in line.split(" "))
    if not all(k in pairs for k in ("method", "path", "status", "duration_ms")) or not re.fullmatch(r"[0-9]{3}", pairs["status"]) or not re.fullmatch(r"[0-9]+", pairs["duration_ms"]):
        bad += 1
        continue
    pairs["status"], pairs["duration_ms"] = int(pairs["status"]), int(pairs["duration_ms"])
    entries.append(pairs)


def top(counter, n=None):
    rows = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return [list(r) for r in (rows[:n] if n else rows)]


def percentile(values, p, key):
    ordered = sorted(values, key=key)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


report = []  # (name, columns or None, value)
report.append(('requests', None, len(entries)))
report.append(('unparsed_lines', None, bad))
report.append(("status_counts", ["status", "count"], [[s, n] for s, n in sorted(Counter(e["status"] for e in entries).items())]))
rows = []
for path in sorted({e["path"] for e in entries}):
    mine = [e for e in entries if e["path"] == path]
    rate = (Decimal(sum(1 for e in mine if e["status"] >= 500)) * 100 / len(mine)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    rows.append([path, f"{rate:.1f}"])
report.append(("error_rate_by_path", ["path", "percent"], rows))
report.append(("paths", ["path", "count"], top(Counter(e["path"] for e in entries))))
report.append(("levels", ["level", "count"], [list(r) for r in sorted(Counter(e.get("level", "-") for e in entries).items())]))
report.append(("methods", ["method", "count"], [list(r) for r in sorted(Counter(e["method"] for e in entries).items())]))

NUMERIC = {"count", "bytes", "errors", "failures", "ms", "p50", "p95", "max", "duration_ms", "percent", "seconds", "status"}


def cell(column, v):
    if column in NUMERIC and isinstance(v, str):
        return int(v) if column == "status" else float(v)
    return v


result = {}
for name, columns, value in report:
    result[name] = value if columns is None else [{c: cell(c, v) for c, v in zip(columns, row)} for row in value]
with open('/app/out/report.json', "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2)
    fh.write("\n")
PY
