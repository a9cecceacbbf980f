#!/bin/bash
# Reference solution: apply the edits with small scripts, then one commit with the given author.
set -euo pipefail
cd /app/quillmark
git checkout -q -b chore/docs-refresh main
{ grep -vxF thumbnails plugins.txt; printf '%s\n' export-parquet search ; } | LC_ALL=C sort -u > /tmp/list.new
mv /tmp/list.new plugins.txt
sed -i 's/QUILLMARK_/APP_QUILLMARK_/g' README.md
git add -A
git commit -q --author='Taylor Stone <taylor.stone@quillmark.dev>' -F - <<'MSG'
Housekeeping before the next release
MSG
git log -1 --format=fuller --stat
