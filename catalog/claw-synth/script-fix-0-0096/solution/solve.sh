#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. off-by-one: the last data row was dropped
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/budget/summarize.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["    return rows[:-1]  # the last line is the trailing newline\\n", "    return rows\\n"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/budget/summarize.py; sample run:"
python3 /app/budget/summarize.py /app/budget/expenses.csv || true
