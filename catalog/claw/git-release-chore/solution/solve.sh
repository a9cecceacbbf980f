#!/bin/bash
# Reference solution for the tinyq 1.4.0 release chore.
set -euo pipefail
cd /app/tinyq
git checkout -q -b release/1.4.0 main
echo "1.4.0" > VERSION
sed -i 's/^version = "1\.3\.2"$/version = "1.4.0"/' pyproject.toml
sed -i 's/^__version__ = "1\.3\.2"$/__version__ = "1.4.0"/' tinyq/__init__.py
python3 - <<'PY'
p = "CHANGELOG.md"
s = open(p).read()
s = s.replace("## [Unreleased]\n", "## [Unreleased]\n\n## [1.4.0] - 2024-06-14\n", 1)
open(p, "w").write(s)
PY
git add VERSION pyproject.toml tinyq/__init__.py CHANGELOG.md
git commit -q -m "Release 1.4.0"
git tag -a v1.4.0 -m "tinyq 1.4.0"
