#!/bin/bash
# Build-time helper: create /app/repo with a main branch and a conflicting feature branch.
set -euo pipefail
export GIT_AUTHOR_NAME="Riley Ops" GIT_AUTHOR_EMAIL="riley@example.com"
export GIT_COMMITTER_NAME="Riley Ops" GIT_COMMITTER_EMAIL="riley@example.com"
commit() { # commit <date> <message>
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q -m "$2"
}
mkdir -p /app/repo && cd /app/repo
git init -q -b main
git config user.name "Riley Ops"
git config user.email "riley@example.com"

cat > README.md <<'MD'
# edge-router

Routes edge traffic to the nearest healthy region.

- `regions.txt`: enabled regions, one per line, sorted.
- `config.ini`: service configuration.
MD
printf '%s\n' ap-northeast-1 ap-southeast-2 eu-central-1 eu-west-1 us-east-1 us-west-2 > regions.txt
cat > config.ini <<'INI'
[service]
name = edge-router
listen = 0.0.0.0:8443
timeout = 30
retries = 3
log_level = info

[cache]
ttl = 300
size_mb = 512

[health]
interval = 10
unhealthy_threshold = 3
INI
git add -A && commit "2024-05-02T09:00:00+00:00" "Initial edge-router config"

printf '%s\n' ap-northeast-1 ap-southeast-2 eu-central-1 eu-west-1 us-east-1 us-east-2 us-west-2 > regions.txt
git add -A && commit "2024-05-06T10:30:00+00:00" "Enable us-east-2"

git checkout -q -b feature/more-regions
printf '%s\n' af-south-1 ap-northeast-1 ap-southeast-2 eu-central-1 eu-south-1 eu-west-1 eu-west-2 us-east-1 us-east-2 us-west-2 > regions.txt
git add -A && commit "2024-05-08T14:00:00+00:00" "Add af-south-1, eu-south-1, eu-west-2"
sed -i 's/^timeout = 30$/timeout = 60/; s/^retries = 3$/retries = 5/' config.ini
sed -i 's/^ttl = 300$/ttl = 600/' config.ini
mkdir -p docs
cat > docs/regions.md <<'MD'
# Regions

New regions need a health check endpoint before they are enabled.
Cross-region retries are capped by `retries` in `config.ini`.
MD
git add -A && commit "2024-05-09T11:15:00+00:00" "Tune retries/cache for new regions, add region docs"

git checkout -q main
printf '%s\n' ap-northeast-1 ap-southeast-2 eu-central-1 eu-north-1 eu-west-1 eu-west-2 us-east-1 us-east-2 us-west-2 > regions.txt
git add -A && commit "2024-05-10T08:45:00+00:00" "Enable eu-north-1 and eu-west-2"
sed -i 's/^timeout = 30$/timeout = 45/' config.ini
sed -i 's/^interval = 10$/interval = 15/' config.ini
printf '\nOwned by the platform team (#platform-oncall).\n' >> README.md
git add -A && commit "2024-05-11T16:20:00+00:00" "Raise timeout to 45s, slower health checks"
git gc -q
