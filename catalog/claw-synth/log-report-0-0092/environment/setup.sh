#!/bin/bash
# Build-time only: put the log where the task says it is.
set -euo pipefail
mkdir -p "$(dirname /srv/gateway/requests.log)"
mv /app/_logs/requests.log /srv/gateway/requests.log
rm -rf /app/_logs
