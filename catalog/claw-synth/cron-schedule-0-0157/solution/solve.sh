#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/cron.d/data-jobs)"
cat > /app/cron.d/data-jobs <<'CRON'
MAILTO=""
5 2 23 * 6 www-data /usr/local/bin/renew-certs
10 0 1 1,4,7,10 * postgres /usr/local/bin/refresh-cache
30 1 * * 0,6 backup /opt/etl/extract.sh orders
30 * * * * www-data /opt/jobs/prune-docker.sh
5 13 * 3-5 * www-data /opt/jobs/backup.sh --full
*/5 * * * * deploy /opt/search/reindex --full
15 7 * * 3,6 backup /usr/local/bin/vacuum-db --analyze
CRON
cat /app/cron.d/data-jobs
