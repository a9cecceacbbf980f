#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/etl
printf '#!/bin/bash\necho "extract.sh ran at $(date)"\n' > /opt/etl/extract.sh
chmod +x /opt/etl/extract.sh
mkdir -p /opt/search
printf '#!/bin/bash\necho "reindex ran at $(date)"\n' > /opt/search/reindex
chmod +x /opt/search/reindex
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "heartbeat ran at $(date)"\n' > /usr/local/bin/heartbeat
chmod +x /usr/local/bin/heartbeat
mkdir -p /usr/local/bin
printf '#!/bin/bash\necho "renew-certs ran at $(date)"\n' > /usr/local/bin/renew-certs
chmod +x /usr/local/bin/renew-certs
