#!/bin/bash
# Harbor's multi-reward recipe: several scores, no `reward` key, a non-numeric note.
correct=0; style=0
[ "$(head -n1 /app/report.md 2>/dev/null)" = "# Report" ] && correct=1
[ "$(wc -l < /app/report.md 2>/dev/null || echo 0)" -ge 3 ] && style=1
printf '{"correctness": %s, "style": %s, "notes": "checked %s"}\n' "$correct" "$style" "$(date +%F)" \
    > /logs/verifier/reward.json
