#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "extract.sh ran at $(date)"\n' > /opt/etl/extract.sh
chmod +x /opt/etl/extract.sh
mkdir -p /opt/etl
printf '#!/bin/bash\necho "load.sh ran at $(date)"\n' > /opt/etl/load.sh
chmod +x /opt/etl/load.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "cleanup-tmp.sh ran at $(date)"\n' > /opt/jobs/cleanup-tmp.sh
chmod +x /opt/jobs/cleanup-tmp.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "payroll.sh ran at $(date)"\n' > /opt/jobs/payroll.sh
chmod +x /opt/jobs/payroll.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "prune-docker.sh ran at $(date)"\n' > /opt/jobs/prune-docker.sh
chmod +x /opt/jobs/prune-docker.sh
mkdir -p /srv/billing/bin
printf '#!/bin/bash\necho "invoice-run ran at $(date)"\n' > /srv/billing/bin/invoice-run
chmod +x /srv/billing/bin/invoice-run
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "refresh-cache ran at $(date)"\n' > /usr/local/bin/refresh-cache
chmod +x /usr/local/bin/refresh-cache
