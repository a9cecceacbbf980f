#!/bin/bash
# Reference solution: find the commit by its subject and revert it.
set -euo pipefail
cd /app/src/brewlog
subject='config: health.unhealthy_threshold = 5'
sha=$(git log --format='%H%x09%s' main | awk -F'\t' -v s="$subject" '$2 == s && !found { print $1; found = 1 }')
test -n "$sha"
git show --stat "$sha"
git revert --no-commit "$sha"
git commit -q -m 'Undo config: health.unhealthy_threshold = 5'
git log --oneline -3
git status --short
