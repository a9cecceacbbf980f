#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. sizes were rounded down instead of up
#  2. fields split on spaces: paths with spaces broke
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/tools/diskreport.sh'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["kib = int(bytes[ext] / 1024)", "kib = int((bytes[ext] + 1023) / 1024)"], ["awk", "awk -F\'\\\\t\'"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/tools/diskreport.sh; sample run:"
bash /app/tools/diskreport.sh /app/tools/listing.txt || true
