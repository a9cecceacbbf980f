#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/schedules/infra.cron)"
cat > /app/schedules/infra.cron <<'CRON'
MAILTO=infra@example.com
20 9,16 * * * /opt/jobs/sync-partners.sh --since 1h
0 4 * * * /srv/billing/bin/invoice-run
15 15 13,17 * * python3 /srv/webapp/manage.py send_digest
CRON
cat /app/schedules/infra.cron
