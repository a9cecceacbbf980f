#!/bin/bash
# Reference solution: the schedules translated into cron expressions (shifted from local time to UTC).
set -euo pipefail
mkdir -p "$(dirname /app/crontab.txt)"
cat > /app/crontab.txt <<'CRON'
SHELL=/bin/bash
45 5,9 * * * /opt/jobs/backup.sh --full
0,30 8-13 * * 1-5 /opt/jobs/quarterly-close.sh
0 7-23/8 * * * /opt/jobs/backup.sh
55 12 * * * /usr/local/bin/renew-certs
0 6,23 * * * /opt/mail/fetch-bounces
20 5-23/6 * * * /usr/local/bin/check-disk --warn 85
*/10 5-11 * * 1-5 /opt/jobs/export-metrics.sh
5 21 * * 0,5 /opt/jobs/report.sh --weekly
CRON
cat /app/crontab.txt
