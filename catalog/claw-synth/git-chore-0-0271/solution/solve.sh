#!/bin/bash
# Reference solution: look the fixes up on main by subject and cherry-pick them, oldest first.
set -euo pipefail
cd /app/cronguard
find_commit() {
  git log --format='%H%x09%s' main | awk -F'\t' -v s="$1" '$2 == s && !found { print $1; found = 1 }'
}
git checkout -q maint/3.9.x
sha=$(find_commit 'retry: raise MAX_RETRIES from 5 to 60')
test -n "$sha"
git cherry-pick "$sha"
git log --oneline -4
git status --short
