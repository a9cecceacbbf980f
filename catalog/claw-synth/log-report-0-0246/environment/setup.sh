#!/bin/bash
# Build-time only: put the log where the task says it is.
set -euo pipefail
mkdir -p "$(dirname /srv/logs/edge/access.log)"
mv /app/_logs/access.log /srv/logs/edge/access.log
rm -rf /app/_logs
