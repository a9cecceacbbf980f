#!/bin/bash
# Build-time only: put the log where the task says it is.
set -euo pipefail
mkdir -p "$(dirname /var/log/httpd/access_log)"
mv /app/_logs/access_log /var/log/httpd/access_log
rm -rf /app/_logs
