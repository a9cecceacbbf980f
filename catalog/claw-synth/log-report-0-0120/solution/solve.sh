#!/bin/bash
# Reference solution: parse the log with the grammar from the instruction, then build each section.
set -euo pipefail
mkdir -p "$(dirname /app/summary.json)"
python3 - <<'PY'
import json
import math
import re
from collections import Counter
from decimal import ROUND_HALF_UP, Decimal

LINE = re.compile('^([A-Z][a-z]{2}) ([ 0-9][0-9]) ([0-9]{2}):([0-9]{2}):([0-9]{2}) (\\S+) ([^\\s\\[:]+)(?:\\[([0-9]+)\\])?: (.*)$')
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

with open('/app/logs/auth.log', encoding="utf-8") as fh:
    lines = fh.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()  # the final newline ends the last line

entries, bad = [], 0
for line in lines:
    m = LINE.match(line)
    if not m:
        bad += 1
        continue
    mon, day, hh, mm, ss, host, program, pid, message = m.groups()
    entries.append({"mon": mon, "day": int(day), "hh": hh, "host": host, "program": program, "message": message})


def top(counter, n=None):
    rows = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return [list(r) for r in (rows[:n] if n else rows)]


def percentile(values, p, key):
    ordered = sorted(values, key=key)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


FAILED = re.compile('^Failed password for (invalid user )?(\\S+) from (\\S+) port [0-9]+')
ACCEPTED = re.compile('^Accepted (\\S+) for (\\S+) from (\\S+)')
fails = [(e, m) for e in entries if e["program"] == "sshd" for m in [FAILED.match(e["message"])] if m]
report = []  # (name, columns or None, value)
report.append(('entries', None, len(entries)))
report.append(('unparsed_lines', None, bad))
report.append(("failed_users", ["user", "failures"], top(Counter(m.group(2) for _, m in fails), 6)))
SUDO = re.compile('; COMMAND=(.*)$')
commands = Counter(m.group(1) for e in entries if e["program"] == "sudo" for m in [SUDO.search(e["message"])] if m)
report.append(("sudo_commands", ["count", "command"], [[n, cmd] for cmd, n in top(commands)]))
accepted = Counter(m.group(2) for e in entries if e["program"] == "sshd" for m in [ACCEPTED.match(e["message"])] if m)
report.append(("accepted_logins", ["user", "count"], [list(r) for r in sorted(accepted.items())]))

NUMERIC = {"count", "bytes", "errors", "failures", "ms", "p50", "p95", "max", "duration_ms", "percent", "seconds", "status"}


def cell(column, v):
    if column in NUMERIC and isinstance(v, str):
        return int(v) if column == "status" else float(v)
    return v


result = {}
for name, columns, value in report:
    result[name] = value if columns is None else [{c: cell(c, v) for c, v in zip(columns, row)} for row in value]
with open('/app/summary.json', "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2)
    fh.write("\n")
PY
