#!/bin/bash
set -euo pipefail
mkdir -p /app/ops/samples
printf '%b' 'GET /a 200
GET /b 500
retry: a.b
' > '/app/ops/samples/web 1.log'
printf '%b' 'GET /c 200
POST /d 201
' > '/app/ops/samples/web-2.log'
chmod +x /app/ops/grepcount.sh
