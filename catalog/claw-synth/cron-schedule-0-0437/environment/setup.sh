#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /opt/search
printf '#!/bin/bash\necho "reindex ran at $(date)"\n' > /opt/search/reindex
chmod +x /opt/search/reindex
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "refresh-cache ran at $(date)"\n' > /usr/local/bin/refresh-cache
chmod +x /usr/local/bin/refresh-cache
