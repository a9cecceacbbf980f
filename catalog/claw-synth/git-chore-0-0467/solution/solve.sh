#!/bin/bash
# Reference solution: soft-reset the branch onto its base and commit the whole change once.
set -euo pipefail
cd /app/repos/netpulse
git checkout -q wip/report-tuning
subject='Tune retry JitterPct (100 -> 20)'
base=$(git log --format='%H%x09%s' | awk -F'\t' -v s="$subject" '$2 == s && !found { print $1; found = 1 }')
test -n "$base"
git reset -q --soft "$base"
git commit -q -F - <<'MSG'
Report tuning
MSG
git log --oneline -3
