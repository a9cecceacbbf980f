#!/bin/bash
# Reference solution: the schedules translated into cron expressions (shifted from local time to UTC).
set -euo pipefail
mkdir -p "$(dirname /app/crontab.txt)"
cat > /app/crontab.txt <<'CRON'
MAILTO=infra@example.com
30 11 * * * python3 /srv/webapp/manage.py send_digest
5 17 * * 3,5,6 /opt/jobs/cleanup-tmp.sh
*/10 23 * * 0 /usr/local/bin/check-disk --warn 85
*/10 0-2,23 * * 1-4 /usr/local/bin/check-disk --warn 85
*/10 0-2 * * 5 /usr/local/bin/check-disk --warn 85
58 20 * * 5,6 /usr/local/bin/heartbeat --quiet
40 10 * * 1-5 /opt/etl/load.sh warehouse
45 8 * * 0,1,4 /usr/local/bin/vacuum-db --analyze
CRON
cat /app/crontab.txt
