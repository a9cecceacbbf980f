#!/bin/bash
# Build time: stub job scripts, so the commands the crontab names exist.
set -euo pipefail
mkdir -p /opt/jobs
printf '#!/bin/bash\necho "sync-partners.sh ran at $(date)"\n' > /opt/jobs/sync-partners.sh
chmod +x /opt/jobs/sync-partners.sh
mkdir -p /srv/billing/bin
printf '#!/bin/bash\necho "invoice-run ran at $(date)"\n' > /srv/billing/bin/invoice-run
chmod +x /srv/billing/bin/invoice-run
