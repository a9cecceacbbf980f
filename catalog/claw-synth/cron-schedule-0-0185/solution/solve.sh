#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/cron.d/platform-jobs)"
cat > /app/cron.d/platform-jobs <<'CRON'
*/10 * * * * postgres /usr/local/bin/vacuum-db --analyze
10 23 * * 1-5 root /opt/jobs/backup.sh --full
*/20 10-17 * * 1-5 etl /opt/jobs/rotate-logs.sh
40 3 * * 1-5 backup /opt/search/reindex --incremental
*/5 7-12 * * 1-5 postgres /opt/jobs/report.sh --weekly
15 11 1 2,5,8,11 * deploy /srv/billing/bin/reconcile --dry-run
CRON
cat /app/cron.d/platform-jobs
