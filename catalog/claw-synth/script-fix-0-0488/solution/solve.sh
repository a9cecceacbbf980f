#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. words were not compared case-insensitively
#  2. off-by-one: words of exactly the minimum length were dropped
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/blog/wordfreq.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["words = WORD.findall(text)", "words = [w.lower() for w in WORD.findall(text)]"], ["len(w) > MIN_LENGTH", "len(w) >= MIN_LENGTH"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/blog/wordfreq.py; sample run:"
python3 /app/blog/wordfreq.py /app/blog/draft.txt || true
