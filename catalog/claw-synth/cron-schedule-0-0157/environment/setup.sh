#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "extract.sh ran at $(date)"\n' > /opt/etl/extract.sh
chmod +x /opt/etl/extract.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "backup.sh ran at $(date)"\n' > /opt/jobs/backup.sh
chmod +x /opt/jobs/backup.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "prune-docker.sh ran at $(date)"\n' > /opt/jobs/prune-docker.sh
chmod +x /opt/jobs/prune-docker.sh
mkdir -p /opt/search
printf '#!/bin/bash\necho "reindex ran at $(date)"\n' > /opt/search/reindex
chmod +x /opt/search/reindex
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "refresh-cache ran at $(date)"\n' > /usr/local/bin/refresh-cache
chmod +x /usr/local/bin/refresh-cache
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "renew-certs ran at $(date)"\n' > /usr/local/bin/renew-certs
chmod +x /usr/local/bin/renew-certs
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "vacuum-db ran at $(date)"\n' > /usr/local/bin/vacuum-db
chmod +x /usr/local/bin/vacuum-db
