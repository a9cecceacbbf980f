#!/bin/bash
# Reference solution: parse the log with the grammar from the instruction, then build each section.
set -euo pipefail
mkdir -p "$(dirname /app/report.txt)"
python3 - <<'PY'
import json
import math
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal

LINE = re.compile('^(\\S+) \\S+ (\\S+) \\[([^\\]]+)\\] "([^"]*)" ([0-9]{3}) ([0-9]+|-)$')
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

with open('/var/log/httpd/access_log', encoding="utf-8") as fh:
    lines = fh.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()  # the final newline ends the last line

entries, bad = [], 0
for line in lines:
    m = LINE.match(line)
    if not m:
        bad += 1
        continue
    ip, user, stamp, request, status, size = m.groups()[:6]
    parts = request.split(" ")
    day, mon, year, hour = stamp[0:2], stamp[3:6], stamp[7:11], stamp[12:14]
    entries.append({
        "ip": ip,
        "user": user,
        "status": int(status),
        "bytes": 0 if size == "-" else int(size),
        "method": parts[0] if len(parts) == 3 else None,
        "path": parts[1].split("?", 1)[0] if len(parts) == 3 else None,
        "hour": f"{year}-{MONTHS.index(mon) + 1:02d}-{day} {hour}:00" if mon in MONTHS else None,
    })


def top(counter, n=None):
    rows = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return [list(r) for r in (rows[:n] if n else rows)]


def percentile(values, p, key):
    ordered = sorted(values, key=key)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


with_path = [e for e in entries if e["path"] is not None]
report = []  # (name, columns or None, value)
report.append(('total_requests', None, len(entries)))
report.append(('malformed_lines', None, bad))
report.append(("hourly", ["hour", "count"], [list(r) for r in sorted(Counter(e["hour"] for e in entries if e["hour"]).items())]))
report.append(("status_counts", ["status", "count"], [[s, n] for s, n in sorted(Counter(e["status"] for e in entries).items())]))
report.append(("top_ips", ["ip", "count"], top(Counter(e["ip"] for e in entries), 4)))

out = []
for name, columns, value in report:
    if columns is None:
        out.append(f"{name}: {value}")
    else:
        out.append(f"{name}:")
        out.extend(" ".join(str(v) for v in row) for row in value)
with open('/app/report.txt', "w", encoding="utf-8") as fh:
    fh.write("\n".join(out) + "\n")
PY
