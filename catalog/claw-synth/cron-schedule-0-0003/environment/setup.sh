#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "extract.sh ran at $(date)"\n' > /opt/etl/extract.sh
chmod +x /opt/etl/extract.sh
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "export-metrics.sh ran at $(date)"\n' > /opt/jobs/export-metrics.sh
chmod +x /opt/jobs/export-metrics.sh
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "renew-certs ran at $(date)"\n' > /usr/local/bin/renew-certs
chmod +x /usr/local/bin/renew-certs
