#!/bin/bash
# Reference solution: work out the version, bump it, date the CHANGELOG section, commit and tag.
set -euo pipefail
cd /app/work/dataweir
old=$(cat VERSION)
new=$(python3 - "$old" <<'PY'
import re, sys
major, minor, patch = (int(x) for x in sys.argv[1].split("."))
bump = 'minor'
print({"major": f"{major + 1}.0.0", "minor": f"{major}.{minor + 1}.0", "patch": f"{major}.{minor}.{patch + 1}"}[bump])
PY
)
echo "releasing $old -> $new"
git checkout -q -b "release-${new}" main
python3 - "$old" "$new" <<'PY'
import sys
old, new = sys.argv[1], sys.argv[2]
for f in [{'path': 'VERSION', 'pattern': '{v}'}, {'path': 'pyproject.toml', 'pattern': 'version = "{v}"'}, {'path': 'src/dataweir/__init__.py', 'pattern': '__version__ = "{v}"'}]:
    path, pattern = f["path"], f["pattern"]
    text = open(path).read()
    line_old, line_new = pattern.format(v=old) + "\n", pattern.format(v=new) + "\n"
    assert line_old in text, (path, line_old)
    open(path, "w").write(text.replace(line_old, line_new, 1))
text = open("CHANGELOG.md").read()
open("CHANGELOG.md", "w").write(text.replace("## [Unreleased]\n", f"## [Unreleased]\n\n## [{new}] - 2024-09-19\n", 1))
PY
git add VERSION pyproject.toml src/dataweir/__init__.py CHANGELOG.md
git commit -q -m "Bump version to ${new}"
git tag -a "v${new}" -m "dataweir ${new}"
git log --oneline -3
