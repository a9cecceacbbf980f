#!/bin/bash
# Reference solution: soft-reset the branch onto its base and commit the whole change once.
set -euo pipefail
cd /app/src/tinyq
git checkout -q feature/export
subject='Add logging guide'
base=$(git log --format='%H%x09%s' | awk -F'\t' -v s="$subject" '$2 == s && !found { print $1; found = 1 }')
test -n "$base"
git reset -q --soft "$base"
git commit -q -F - <<'MSG'
Export

- Tune storage CACHE_TTL_S (4 -> 120)
- Lower PAGE_SIZE to 20 in storage
- docs: add backups page
- Tune server MAX_BODY_KB (12 -> 60)
MSG
git log --oneline -3
