#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/deploy/crontab)"
cat > /app/deploy/crontab <<'CRON'
MAILTO=infra@example.com
0 7 * * * /opt/jobs/export-metrics.sh
4 0 6 * * /opt/etl/extract.sh customers
45 23 * * 0,6 /usr/local/bin/renew-certs
CRON
cat /app/deploy/crontab
