#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "heartbeat ran at $(date)"\n' > /usr/local/bin/heartbeat
chmod +x /usr/local/bin/heartbeat
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "vacuum-db ran at $(date)"\n' > /usr/local/bin/vacuum-db
chmod +x /usr/local/bin/vacuum-db
