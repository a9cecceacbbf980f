#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. days without events were not printed
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/reports/per_day.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["days = sorted(counts)", "days = [start + timedelta(days=i) for i in range((end - start).days + 1)]"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/reports/per_day.py; sample run:"
python3 /app/reports/per_day.py /app/reports/deployments.csv 2024-05-01 2024-05-07 || true
