#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "extract.sh ran at $(date)"\n' > /opt/etl/extract.sh
chmod +x /opt/etl/extract.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /srv/billing/bin
printf '#!/bin/bash\necho "reconcile ran at $(date)"\n' > /srv/billing/bin/reconcile
chmod +x /srv/billing/bin/reconcile
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "check-disk ran at $(date)"\n' > /usr/local/bin/check-disk
chmod +x /usr/local/bin/check-disk
