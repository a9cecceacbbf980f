#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. wrong exit code for a missing listing
#  2. fields split on spaces: paths with spaces broke
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/tools/usage_by_ext.sh'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["exit 0", "exit 2"], ["awk", "awk -F\'\\\\t\'"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/tools/usage_by_ext.sh; sample run:"
bash /app/tools/usage_by_ext.sh /app/tools/listing.txt || true
