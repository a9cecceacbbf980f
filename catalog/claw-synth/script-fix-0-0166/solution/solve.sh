#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. words were not compared case-insensitively
#  2. the distinct count counted every word
#  3. ties were ranked by first occurrence instead of alphabetically
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/survey/wordfreq.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["words = WORD.findall(text)", "words = [w.lower() for w in WORD.findall(text)]"], ["print(f\\"{len(words)} distinct\\")", "print(f\\"{len(counts)} distinct\\")"], ["ranked = counts.most_common()", "ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/survey/wordfreq.py; sample run:"
python3 /app/survey/wordfreq.py /app/survey/answers.txt || true
