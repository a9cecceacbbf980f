#!/bin/bash
set -euo pipefail
mkdir -p /app/ops/archive
printf 'archive %s\n' '2024-06-07_db.tar.gz' > '/app/ops/archive/2024-06-07_db.tar.gz'
printf 'archive %s\n' '2024-06-09_media.tar.gz' > '/app/ops/archive/2024-06-09_media.tar.gz'
printf 'archive %s\n' '2024-06-12_db.tar.gz' > '/app/ops/archive/2024-06-12_db.tar.gz'
printf 'archive %s\n' '2024-06-13_db.tar.gz' > '/app/ops/archive/2024-06-13_db.tar.gz'
printf 'archive %s\n' '2024-06-16_db.tar.gz' > '/app/ops/archive/2024-06-16_db.tar.gz'
printf 'archive %s\n' '2024-06-28_site files.tar.gz' > '/app/ops/archive/2024-06-28_site files.tar.gz'
echo 'keep me' > '/app/ops/archive/README.txt'
chmod +x /app/ops/prune.sh
