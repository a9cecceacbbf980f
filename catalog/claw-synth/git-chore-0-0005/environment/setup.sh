#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/shelfie
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Danielle Howard'
git config user.email danielle.howard@shelfie.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Danielle Howard' GIT_COMMITTER_EMAIL=danielle.howard@shelfie.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# shelfie

_A self-hosted reading list._

**Language:** JavaScript · **License:** BSD-3-Clause

shelfie is maintained by a small team at Arnold and Sons. It started as an internal tool in 2020 and is now used by a few teams.

## Features

- ISBN lookup
- Reading stats
- Structured JSON logs
- Shell completions
- Offline mode

## Usage

```
npm install -g shelfie
shelfie --help
```

## Configuration

Settings are read from environment variables prefixed with `SHELFIE_`:

- `SHELFIE_TIMEOUT`
- `SHELFIE_CACHE_TTL`
- `SHELFIE_DATA_DIR`

## Maintainers

- Danielle Howard
- Molly Simmons

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
3.6.6
__FORGE_EOF__
mkdir -p "$(dirname package.json)"
cat > package.json <<'__FORGE_EOF__'
{
  "name": "shelfie",
  "version": "3.6.6",
  "description": "A self-hosted reading list",
  "main": "src/index.js",
  "license": "MIT"
}
__FORGE_EOF__
mkdir -p "$(dirname src/report.js)"
cat > src/report.js <<'__FORGE_EOF__'
// shelfie: report settings.

export const TOP_N = 25;
export const DECIMALS = 10;
export const COLUMN_WIDTH = 16;
export const MAX_ROWS = 20;
__FORGE_EOF__
mkdir -p "$(dirname src/sync.js)"
cat > src/sync.js <<'__FORGE_EOF__'
// shelfie: sync settings.

export const BATCH_SIZE = 120;
export const INTERVAL_S = 8;
export const MAX_LAG_S = 120;
export const CONCURRENCY = 1000;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 3;
export const BASE_DELAY_MS = 20;
export const MAX_DELAY_MS = 120;
export const JITTER_PCT = 12;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# shelfie defaults (overridden by environment variables)

[core]
timeout = 45
retries = 2
log_level = error

[cache]
ttl = 300
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
export-csv
i18n
metrics
notify-email
ratelimit
thumbnails
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to shelfie are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.6.6] - 2024-05-13

### Fixed
- Wrong exit code on `--help`.
- Retry delay ignored the configured maximum.

## [3.6.5] - 2024-04-13

### Fixed
- Timezone handling of `--since`.
- Wrong exit code on `--help`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-06-05T16:52:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Initial import of shelfie 3.6.6
__FORGE_MSG__
mkdir -p "$(dirname src/report.js)"
cat > src/report.js <<'__FORGE_EOF__'
// shelfie: report settings.

export const TOP_N = 8;
export const DECIMALS = 10;
export const COLUMN_WIDTH = 16;
export const MAX_ROWS = 20;
__FORGE_EOF__
commit 2024-06-06T19:39:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Tune report TOP_N (25 -> 8)
__FORGE_MSG__
mkdir -p "$(dirname deploy/id_deploy)"
cat > deploy/id_deploy <<'__FORGE_EOF__'
-----BEGIN OPENSSH PRIVATE KEY-----
YzcUG23oKyAeUFtJiSN3hobkCpkUqyb4
-----END OPENSSH PRIVATE KEY-----
__FORGE_EOF__
mkdir -p "$(dirname src/sync.js)"
cat > src/sync.js <<'__FORGE_EOF__'
// shelfie: sync settings.

export const BATCH_SIZE = 120;
export const INTERVAL_S = 8;
export const MAX_LAG_S = 45;
export const CONCURRENCY = 1000;
__FORGE_EOF__
commit 2024-06-07T05:37:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Local setup for the demo
__FORGE_MSG__
mkdir -p "$(dirname docs/release-process.md)"
cat > docs/release-process.md <<'__FORGE_EOF__'
# Release process

1. Check the installed version with `shelfie --version`.
2. Read the CHANGELOG before upgrading across a minor version.
3. Report bugs with the output of `shelfie doctor`.
__FORGE_EOF__
commit 2024-06-08T07:02:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
Add release-process guide
__FORGE_MSG__
git gc -q
