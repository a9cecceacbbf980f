#!/bin/bash
# Build-time only: put the log where the task says it is.
set -euo pipefail
mkdir -p "$(dirname /var/log/nginx/shop.access.log)"
mv /app/_logs/shop.access.log /var/log/nginx/shop.access.log
rm -rf /app/_logs
