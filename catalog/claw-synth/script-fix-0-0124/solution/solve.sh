#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. wrong rounding: float round() is not half-up
#  2. wrong comparison: groups exactly at the threshold were dropped
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/sales/summarize.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["avg = round(float(total) / count, 2)", "avg = (total / count).quantize(Decimal(\\"0.01\\"), rounding=ROUND_HALF_UP)"], ["if total > MIN_TOTAL", "if total >= MIN_TOTAL"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/sales/summarize.py; sample run:"
python3 /app/sales/summarize.py /app/sales/sales.csv || true
