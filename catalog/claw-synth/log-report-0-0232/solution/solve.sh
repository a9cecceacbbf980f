#!/bin/bash
# Reference solution: parse the log with the grammar from the instruction, then build each section.
set -euo pipefail
mkdir -p "$(dirname /app/reports/log_summary.json)"
python3 - <<'PY'
import json
import math
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal

LINE = re.compile('^([0-9]{4}-[0-9]{2}-[0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}),([0-9]{3}) (DEBUG|INFO|WARNING|ERROR|CRITICAL) \\[([^\\]]+)\\] (.*)$')
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

with open('/var/log/billing/billing.log', encoding="utf-8") as fh:
    lines = fh.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()  # the final newline ends the last line

entries, bad = [], 0
for line in lines:
    m = LINE.match(line)
    if not m:
        bad += 1
        continue
    date, hh, mm, ss, ms, level, component, message = m.groups()
    entries.append({"stamp": f"{date} {hh}:{mm}:{ss},{ms}", "date": date, "hh": hh, "mm": int(mm),
                    "level": level, "component": component, "message": message})


def top(counter, n=None):
    rows = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return [list(r) for r in (rows[:n] if n else rows)]


def percentile(values, p, key):
    ordered = sorted(values, key=key)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


errors = [e for e in entries if e["level"] in ("ERROR", "CRITICAL")]
report = []  # (name, columns or None, value)
report.append(('entries', None, len(entries)))
report.append(("warnings_by_component", ["component", "count"], top(Counter(e["component"] for e in entries if e["level"] == "WARNING"))))
windows = Counter(f"{e['date']} {e['hh']}:{e['mm'] // 10 * 10:02d}" for e in errors)
report.append(("error_windows", ["window", "errors"], [[w, n] for w, n in sorted(windows.items()) if n >= 3]))

NUMERIC = {"count", "bytes", "errors", "failures", "ms", "p50", "p95", "max", "duration_ms", "percent", "seconds", "status"}


def cell(column, v):
    if column in NUMERIC and isinstance(v, str):
        return int(v) if column == "status" else float(v)
    return v


result = {}
for name, columns, value in report:
    result[name] = value if columns is None else [{c: cell(c, v) for c, v in zip(columns, row)} for row in value]
with open('/app/reports/log_summary.json', "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2)
    fh.write("\n")
PY
