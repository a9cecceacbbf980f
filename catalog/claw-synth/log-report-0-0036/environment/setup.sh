#!/bin/bash
# Build-time only: put the log where the task says it is.
set -euo pipefail
mkdir -p "$(dirname /var/log/orders/app.log)"
mv /app/_logs/app.log /var/log/orders/app.log
rm -rf /app/_logs
