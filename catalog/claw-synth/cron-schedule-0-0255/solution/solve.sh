#!/bin/bash
# Reference solution: the schedules translated into cron expressions.
set -euo pipefail
mkdir -p "$(dirname /app/crontab.txt)"
# drop the lines of the retired and rescheduled jobs, keep everything else as it is
python3 - <<'PY'
import re
path = '/app/crontab.txt'
drop = ['/usr/local/bin/heartbeat --quiet', '/usr/local/bin/renew-certs']
kept = []
for line in open(path).read().splitlines():
    s = line.strip()
    fields = s.split(None, 5)
    if s and not s.startswith("#") and not re.match(r"^[A-Za-z_]+=", s) and len(fields) == 6 and " ".join(fields[5].split()) in drop:
        continue
    kept.append(line)
open(path, "w").write("\n".join(kept) + "\n")
PY
cat >> /app/crontab.txt <<'CRON'

10 23 * 1-4 * /usr/local/bin/heartbeat --quiet
55 6-22/8 * * * /opt/search/reindex --full
CRON
cat /app/crontab.txt
