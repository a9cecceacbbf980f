#!/bin/bash
# Reference solution: merge, resolve both conflicts explicitly, commit.
set -uo pipefail
cd /app/repo
git merge --no-edit feature/more-regions || true   # expected to stop with conflicts
set -e
# regions.txt: union of both sides, sorted, unique
{ git show main:regions.txt; git show feature/more-regions:regions.txt; } | sed '/^$/d' | LC_ALL=C sort -u > regions.txt
# config.ini: take "theirs" for everything, then restore main's timeout
main_timeout=$(git show main:config.ini | sed -n 's/^timeout = //p')
git checkout --theirs config.ini
python3 - "$main_timeout" <<'PY'
import sys
path = "config.ini"
lines = open(path).read().split("\n")
section = None
for i, line in enumerate(lines):
    s = line.strip()
    if s.startswith("[") and s.endswith("]"):
        section = s[1:-1]
    elif section == "service" and s.split("=")[0].strip() == "timeout":
        lines[i] = "timeout = " + sys.argv[1]
open(path, "w").write("\n".join(lines))
PY
# "theirs" lost main's own non-conflicting change in [health]: re-apply it from main
main_interval=$(git show main:config.ini | sed -n 's/^interval = //p')
sed -i "s/^interval = .*/interval = ${main_interval}/" config.ini
git add regions.txt config.ini
git -c core.editor=true commit -q --no-edit
git status --short
git log --oneline --graph -6
