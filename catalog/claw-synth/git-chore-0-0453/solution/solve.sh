#!/bin/bash
# Reference solution: apply the edits with small scripts, then one commit with the given author.
set -euo pipefail
cd /app/work/shelfie
python3 - <<'PY'
text = open("CHANGELOG.md").read()
entry = 'Clarify the upgrade notes.'
open("CHANGELOG.md", "w").write(text.replace("## [Unreleased]\n\n", f"## [Unreleased]\n\n### Changed\n- {entry}\n\n", 1))
PY
{ grep -vxF search plugins.txt; printf '%s\n' notify-email notify-slack ; } | LC_ALL=C sort -u > /tmp/list.new
mv /tmp/list.new plugins.txt
python3 - <<'PY'
path, section, key, value = 'config/defaults.ini', 'health', 'unhealthy_threshold', '5'
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
git commit -q --author='Danielle Howard <danielle.howard@shelfie.dev>' -F - <<'MSG'
Housekeeping before the next release

No functional change to the code.
See the ops handbook for details.
MSG
git log -1 --format=fuller --stat
