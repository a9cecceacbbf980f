#!/bin/bash
# Reference solution: apply the edits with small scripts, then one commit with the given author.
set -euo pipefail
cd /app/palette-kit
git checkout -q -b chore/housekeeping main
sed -i 's/PALETTE_KIT_/PALETTE_KIT_V2_/g' README.md
python3 - <<'PY'
path, section, key, value = 'config/defaults.ini', 'core', 'retries', '4'
lines, current = open(path).read().splitlines(), None
for i, line in enumerate(lines):
    s = line.strip()
    if s.startswith("["):
        current = s[1:-1]
    elif current == section and s.split("=", 1)[0].strip() == key:
        lines[i] = f"{key} = {value}"
open(path, "w").write("\n".join(lines) + "\n")
PY
git add -A
git commit -q --author='Michael Smith <michael.smith@palettekit.dev>' -F - <<'MSG'
Housekeeping before the next release

No functional change to the code.
See the ops handbook for details.
MSG
git log -1 --format=fuller --stat
