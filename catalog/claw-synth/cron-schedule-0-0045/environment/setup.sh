#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "load.sh ran at $(date)"\n' > /opt/etl/load.sh
chmod +x /opt/etl/load.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "poll-queue.sh ran at $(date)"\n' > /opt/jobs/poll-queue.sh
chmod +x /opt/jobs/poll-queue.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "prune-docker.sh ran at $(date)"\n' > /opt/jobs/prune-docker.sh
chmod +x /opt/jobs/prune-docker.sh
mkdir -p /opt/mail
printf '#!/bin/bash\necho "fetch-bounces ran at $(date)"\n' > /opt/mail/fetch-bounces
chmod +x /opt/mail/fetch-bounces
