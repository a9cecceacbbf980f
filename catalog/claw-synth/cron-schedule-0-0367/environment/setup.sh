#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "load.sh ran at $(date)"\n' > /opt/etl/load.sh
chmod +x /opt/etl/load.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "cleanup-tmp.sh ran at $(date)"\n' > /opt/jobs/cleanup-tmp.sh
chmod +x /opt/jobs/cleanup-tmp.sh
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "check-disk ran at $(date)"\n' > /usr/local/bin/check-disk
chmod +x /usr/local/bin/check-disk
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "heartbeat ran at $(date)"\n' > /usr/local/bin/heartbeat
chmod +x /usr/local/bin/heartbeat
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "vacuum-db ran at $(date)"\n' > /usr/local/bin/vacuum-db
chmod +x /usr/local/bin/vacuum-db
