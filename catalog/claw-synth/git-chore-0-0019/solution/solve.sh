#!/bin/bash
# Reference solution: apply the edits with small scripts, then one commit with the given author.
set -euo pipefail
cd /app/repos/cronguard
git checkout -q -b chore/housekeeping main
python3 - <<'PY'
path, section, key, value = 'config/defaults.ini', 'health', 'unhealthy_threshold', '3'
lines, current = open(path).read().splitlines(), None
for i, line in enumerate(lines):
    s = line.strip()
    if s.startswith("["):
        current = s[1:-1]
    elif current == section and s.split("=", 1)[0].strip() == key:
        lines[i] = f"{key} = {value}"
open(path, "w").write("\n".join(lines) + "\n")
PY
sed -i 's/CRONGUARD_/APP_CRONGUARD_/g' README.md
git add -A
git commit -q --author='Christopher Roach <christopher.roach@cronguard.dev>' -F - <<'MSG'
Update README.md, config/defaults.ini

Requested in the weekly sync by Christopher Roach.
MSG
git log -1 --format=fuller --stat
