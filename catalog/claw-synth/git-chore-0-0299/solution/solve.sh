#!/bin/bash
# Reference solution: soft-reset the branch onto its base and commit the whole change once.
set -euo pipefail
cd /app/src/lintel
git checkout -q topic/faster-sync
subject='Raise MAX_ROWS to 20 in report'
base=$(git log --format='%H%x09%s' | awk -F'\t' -v s="$subject" '$2 == s && !found { print $1; found = 1 }')
test -n "$base"
git reset -q --soft "$base"
git commit -q -F - <<'MSG'
Squashed work from topic/faster-sync
MSG
git log --oneline -3
