#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/cron/infra.crontab)"
cat > /app/cron/infra.crontab <<'CRON'
MAILTO=""
*/10 * * * * /opt/jobs/quarterly-close.sh
5 11 * * * /usr/local/bin/vacuum-db --analyze
*/10 9-20 * * 1-5 /usr/local/bin/refresh-cache
CRON
cat /app/cron/infra.crontab
