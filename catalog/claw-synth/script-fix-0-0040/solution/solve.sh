#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. e-mail addresses were compared case-sensitively
#  2. records were written in input order, not sorted by e-mail
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/bin/dedupe_contacts.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["key = row[\\"email\\"].strip()", "key = row[\\"email\\"].strip().lower()"], ["out = list(merged.values())", "out = [merged[k] for k in sorted(merged)]"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/bin/dedupe_contacts.py; sample run:"
python3 /app/bin/dedupe_contacts.py /app/crm/contacts.csv /tmp/contacts.clean.csv || true
