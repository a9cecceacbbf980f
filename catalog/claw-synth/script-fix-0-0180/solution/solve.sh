#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. words were not compared case-insensitively
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/docs/top_words.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["words = WORD.findall(text)", "words = [w.lower() for w in WORD.findall(text)]"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/docs/top_words.py; sample run:"
python3 /app/docs/top_words.py /app/docs/release_notes.txt || true
