#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/cron/search.crontab)"
# drop the lines of the retired and rescheduled jobs, keep everything else as it is
python3 - <<'PY'
import re
path = '/app/cron/search.crontab'
drop = ['/opt/jobs/rotate-logs.sh', '/opt/jobs/report.sh --weekly', '/opt/jobs/quarterly-close.sh']
kept = []
for line in open(path).read().splitlines():
    s = line.strip()
    fields = s.split(None, 5)
    if s and not s.startswith("#") and not re.match(r"^[A-Za-z_]+=", s) and len(fields) == 6 and " ".join(fields[5].split()) in drop:
        continue
    kept.append(line)
open(path, "w").write("\n".join(kept) + "\n")
PY
cat >> /app/cron/search.crontab <<'CRON'

55 3-23/4 * * * /opt/jobs/rotate-logs.sh
50 3 * * 0,6 /opt/jobs/quarterly-close.sh
5 11 * * 2,3,4 /opt/jobs/snapshot.sh --label $(date +\%Y\%m\%d)
40 11 * 6-9 * /opt/etl/extract.sh customers
20 16 * * 0,6 /srv/billing/bin/invoice-run
47 16 * * 1-5 /opt/jobs/poll-queue.sh
30 15 * 7-9 * /opt/jobs/payroll.sh
CRON
cat /app/cron/search.crontab
