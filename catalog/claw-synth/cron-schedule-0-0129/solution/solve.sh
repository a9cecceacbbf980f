#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/cron.d/web-jobs)"
cat > /app/cron.d/web-jobs <<'CRON'
MAILTO=web@example.com
30 18 21 * 5 backup /opt/etl/extract.sh orders
55 3 21 * * etl /opt/mail/fetch-bounces
*/15 8-12 * * 1-5 www-data /opt/jobs/payroll.sh
40 */6 * * * www-data /usr/local/bin/check-disk --warn 85
8 17 7 12 * deploy /opt/jobs/export-metrics.sh
15 * * * * etl /opt/jobs/cleanup-tmp.sh
5 6 7,19 * * backup /opt/jobs/prune-docker.sh
40 0,20 * * * www-data /srv/billing/bin/invoice-run
CRON
cat /app/cron.d/web-jobs
