#!/bin/bash
# Build-time only: put the log where the task says it is.
set -euo pipefail
mkdir -p "$(dirname /var/log/billing/billing.log)"
mv /app/_logs/billing.log /var/log/billing/billing.log
rm -rf /app/_logs
