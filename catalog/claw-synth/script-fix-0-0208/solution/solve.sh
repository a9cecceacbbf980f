#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. wrong exit code for an input without data rows
#  2. wrong rounding: float round() is not half-up
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/timesheets/summarize.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["        return 0\\n", "        return 1\\n"], ["avg = round(float(total) / count, 2)", "avg = (total / count).quantize(Decimal(\\"0.01\\"), rounding=ROUND_HALF_UP)"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/timesheets/summarize.py; sample run:"
python3 /app/timesheets/summarize.py /app/timesheets/timesheet.csv || true
