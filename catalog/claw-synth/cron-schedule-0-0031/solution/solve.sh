#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/schedules/web.cron)"
# drop the lines of the retired and rescheduled jobs, keep everything else as it is
python3 - <<'PY'
import re
path = '/app/schedules/web.cron'
drop = ['/opt/etl/load.sh warehouse', '/usr/local/bin/refresh-cache', '/srv/billing/bin/invoice-run']
kept = []
for line in open(path).read().splitlines():
    s = line.strip()
    fields = s.split(None, 5)
    if s and not s.startswith("#") and not re.match(r"^[A-Za-z_]+=", s) and len(fields) == 6 and " ".join(fields[5].split()) in drop:
        continue
    kept.append(line)
open(path, "w").write("\n".join(kept) + "\n")
PY
cat >> /app/schedules/web.cron <<'CRON'

20 */2 * * * /opt/etl/load.sh warehouse
45 16 * * * /usr/local/bin/refresh-cache
20 4-20/8 * * * /opt/jobs/backup.sh
*/20 * * * * /opt/jobs/prune-docker.sh
40 7,18 * * * /opt/jobs/cleanup-tmp.sh
CRON
cat /app/schedules/web.cron
