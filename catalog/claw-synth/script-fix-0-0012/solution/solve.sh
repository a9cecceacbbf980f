#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. unquoted "$@": file names with spaces broke
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/ops/grepcount.sh'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["for f in $@; do", "for f in \\"$@\\"; do"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/ops/grepcount.sh; sample run:"
bash /app/ops/grepcount.sh 'GET /' /app/ops/samples/*.log || true
