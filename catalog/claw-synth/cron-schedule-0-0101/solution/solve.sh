#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/schedules/web.cron)"
cat >> /app/schedules/web.cron <<'CRON'

*/15 * * * * /opt/etl/extract.sh orders
*/15 10-17 * * * /usr/local/bin/check-disk --warn 85
55 16 4 * * python3 /srv/webapp/manage.py clearsessions
40 12 * * * /opt/jobs/backup.sh
45 18 * * 1-5 /srv/billing/bin/reconcile --dry-run
CRON
cat /app/schedules/web.cron
