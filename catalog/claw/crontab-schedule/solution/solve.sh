#!/bin/bash
# Reference solution: append the seven entries.
set -euo pipefail
cat >> /app/crontab <<'CRON'

# nightly backup, weekdays
30 2 * * 1-5 /opt/jobs/backup.sh
# poll during business hours
*/15 9-17 * * mon-fri /opt/jobs/poll.sh
0 0 1 * * /opt/jobs/rotate-logs.sh
0 18 * * 0 /opt/jobs/report.sh --weekly
5 */2 * * * /opt/jobs/cleanup.sh
0 6 1 1,4,7,10 * /opt/jobs/quarterly.sh
45 23 15,28 * * /opt/jobs/payroll.sh
CRON
