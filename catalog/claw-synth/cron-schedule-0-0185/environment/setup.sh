#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "report.sh ran at $(date)"\n' > /opt/jobs/report.sh
chmod +x /opt/jobs/report.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "rotate-logs.sh ran at $(date)"\n' > /opt/jobs/rotate-logs.sh
chmod +x /opt/jobs/rotate-logs.sh
mkdir -p /opt/search
printf '#!/bin/bash\necho "reindex ran at $(date)"\n' > /opt/search/reindex
chmod +x /opt/search/reindex
mkdir -p /srv/billing/bin
printf '#!/bin/bash\necho "reconcile ran at $(date)"\n' > /srv/billing/bin/reconcile
chmod +x /srv/billing/bin/reconcile
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "vacuum-db ran at $(date)"\n' > /usr/local/bin/vacuum-db
chmod +x /usr/local/bin/vacuum-db
