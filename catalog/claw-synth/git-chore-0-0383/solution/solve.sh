#!/bin/bash
# Reference solution: look the fixes up on main by subject and cherry-pick them, oldest first.
set -euo pipefail
cd /app/repos/lintel
find_commit() {
  git log --format='%H%x09%s' main | awk -F'\t' -v s="$1" '$2 == s && !found { print $1; found = 1 }'
}
git checkout -q maint/1.6.x
sha=$(find_commit 'Tune report COLUMN_WIDTH (1000 -> 20)')
test -n "$sha"
git cherry-pick -x "$sha"
git log --oneline -4
git status --short
