#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "extract.sh ran at $(date)"\n' > /opt/etl/extract.sh
chmod +x /opt/etl/extract.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "cleanup-tmp.sh ran at $(date)"\n' > /opt/jobs/cleanup-tmp.sh
chmod +x /opt/jobs/cleanup-tmp.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "export-metrics.sh ran at $(date)"\n' > /opt/jobs/export-metrics.sh
chmod +x /opt/jobs/export-metrics.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "payroll.sh ran at $(date)"\n' > /opt/jobs/payroll.sh
chmod +x /opt/jobs/payroll.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "prune-docker.sh ran at $(date)"\n' > /opt/jobs/prune-docker.sh
chmod +x /opt/jobs/prune-docker.sh
mkdir -p /opt/mail
printf '#!/bin/bash\necho "fetch-bounces ran at $(date)"\n' > /opt/mail/fetch-bounces
chmod +x /opt/mail/fetch-bounces
mkdir -p /srv/billing/bin
printf '#!/bin/bash\necho "invoice-run ran at $(date)"\n' > /srv/billing/bin/invoice-run
chmod +x /srv/billing/bin/invoice-run
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "check-disk ran at $(date)"\n' > /usr/local/bin/check-disk
chmod +x /usr/local/bin/check-disk
