#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/deploy/crontab)"
cat > /app/deploy/crontab <<'CRON'
SHELL=/bin/bash
20 21 21 8 * /opt/search/reindex --full
*/15 * * * * /usr/local/bin/refresh-cache
55 3-19/8 * * * /opt/jobs/backup.sh --full
CRON
cat /app/deploy/crontab
