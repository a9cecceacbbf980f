#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. off-by-one: one archive too many deleted
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/ops/prune.sh'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["\\"$count\\" -ge \\"$keep\\"", "\\"$count\\" -gt \\"$keep\\""]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/ops/prune.sh; sample run:"
true || true
