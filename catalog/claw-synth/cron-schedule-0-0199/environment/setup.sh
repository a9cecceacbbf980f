#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "export-metrics.sh ran at $(date)"\n' > /opt/jobs/export-metrics.sh
chmod +x /opt/jobs/export-metrics.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "quarterly-close.sh ran at $(date)"\n' > /opt/jobs/quarterly-close.sh
chmod +x /opt/jobs/quarterly-close.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "report.sh ran at $(date)"\n' > /opt/jobs/report.sh
chmod +x /opt/jobs/report.sh
mkdir -p /opt/mail
printf '#!/bin/bash\necho "fetch-bounces ran at $(date)"\n' > /opt/mail/fetch-bounces
chmod +x /opt/mail/fetch-bounces
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "check-disk ran at $(date)"\n' > /usr/local/bin/check-disk
chmod +x /usr/local/bin/check-disk
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "renew-certs ran at $(date)"\n' > /usr/local/bin/renew-certs
chmod +x /usr/local/bin/renew-certs
