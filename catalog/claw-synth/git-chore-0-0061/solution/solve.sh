#!/bin/bash
# Reference solution: look the fixes up on main by subject and cherry-pick them, oldest first.
set -euo pipefail
cd /app/src/cronguard
find_commit() {
  git log --format='%H%x09%s' main | awk -F'\t' -v s="$1" '$2 == s && !found { print $1; found = 1 }'
}
git checkout -q release/2.6
sha=$(find_commit 'Raise MAX_DELAY_MS to 128 in retry')
test -n "$sha"
git cherry-pick -x "$sha"
sha=$(find_commit 'storage: raise CACHE_TTL_S from 16 to 500')
test -n "$sha"
git cherry-pick -x "$sha"
git log --oneline -4
git status --short
