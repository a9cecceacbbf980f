#!/bin/bash
# Reference solution: parse the log with the grammar from the instruction, then build each section.
set -euo pipefail
mkdir -p "$(dirname /app/reports/log_summary.txt)"
python3 - <<'PY'
import json
import math
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal

LINE = re.compile('^[a-z_]+=\\S+( [a-z_]+=\\S+)*$')
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

with open('/app/logs/api_gateway.log', encoding="utf-8") as fh:
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
slow = sorted(entries, key=lambda e: (-e["duration_ms"], e.get("req_id", "-")))[:3]
report.append(("slowest", ["req_id", "duration_ms"], [[e.get("req_id", "-"), e["duration_ms"]] for e in slow]))
report.append(("clients", ["client", "count"], top(Counter(e.get("client", "-") for e in entries), 3)))

out = []
for name, columns, value in report:
    if columns is None:
        out.append(f"{name}: {value}")
    else:
        out.append(f"{name}:")
        out.extend(" ".join(str(v) for v in row) for row in value)
with open('/app/reports/log_summary.txt', "w", encoding="utf-8") as fh:
    fh.write("\n".join(out) + "\n")
PY
