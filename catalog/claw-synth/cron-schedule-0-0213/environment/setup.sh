#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "quarterly-close.sh ran at $(date)"\n' > /opt/jobs/quarterly-close.sh
chmod +x /opt/jobs/quarterly-close.sh
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "refresh-cache ran at $(date)"\n' > /usr/local/bin/refresh-cache
chmod +x /usr/local/bin/refresh-cache
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "vacuum-db ran at $(date)"\n' > /usr/local/bin/vacuum-db
chmod +x /usr/local/bin/vacuum-db
