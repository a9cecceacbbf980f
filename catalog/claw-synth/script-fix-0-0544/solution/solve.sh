#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. ties were not broken by component name
#  2. off-by-one in the top list
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/bin/log_summary.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["key=lambda kv: -kv[1]", "key=lambda kv: (-kv[1], kv[0])"], ["ranked[: TOP_K - 1]", "ranked[:TOP_K]"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/bin/log_summary.py; sample run:"
python3 /app/bin/log_summary.py /app/ops/service.log || true
