#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "extract.sh ran at $(date)"\n' > /opt/etl/extract.sh
chmod +x /opt/etl/extract.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "payroll.sh ran at $(date)"\n' > /opt/jobs/payroll.sh
chmod +x /opt/jobs/payroll.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "poll-queue.sh ran at $(date)"\n' > /opt/jobs/poll-queue.sh
chmod +x /opt/jobs/poll-queue.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "quarterly-close.sh ran at $(date)"\n' > /opt/jobs/quarterly-close.sh
chmod +x /opt/jobs/quarterly-close.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "report.sh ran at $(date)"\n' > /opt/jobs/report.sh
chmod +x /opt/jobs/report.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "rotate-logs.sh ran at $(date)"\n' > /opt/jobs/rotate-logs.sh
chmod +x /opt/jobs/rotate-logs.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "snapshot.sh ran at $(date)"\n' > /opt/jobs/snapshot.sh
chmod +x /opt/jobs/snapshot.sh
mkdir -p /srv/billing/bin
printf '#!/bin/bash\necho "invoice-run ran at $(date)"\n' > /srv/billing/bin/invoice-run
chmod +x /srv/billing/bin/invoice-run
