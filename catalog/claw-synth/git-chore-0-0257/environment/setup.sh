#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/work/shelfie
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
1.4.5
__FORGE_EOF__
mkdir -p "$(dirname package.json)"
cat > package.json <<'__FORGE_EOF__'
{
  "name": "shelfie",
  "version": "1.4.5",
  "description": "A self-hosted reading list",
  "main": "src/index.js",
  "license": "MIT"
}
__FORGE_EOF__
mkdir -p "$(dirname src/report.js)"
cat > src/report.js <<'__FORGE_EOF__'
// shelfie: report settings.

export const TOP_N = 256;
export const DECIMALS = 1000;
export const COLUMN_WIDTH = 100;
export const MAX_ROWS = 1000;
__FORGE_EOF__
mkdir -p "$(dirname src/server.js)"
cat > src/server.js <<'__FORGE_EOF__'
// shelfie: server settings.

export const PORT = 120;
export const WORKERS = 20;
export const TIMEOUT_S = 4;
export const MAX_BODY_KB = 5;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 25;
export const BASE_DELAY_MS = 3;
export const MAX_DELAY_MS = 64;
export const JITTER_PCT = 256;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# shelfie defaults (overridden by environment variables)

[core]
timeout = 30
retries = 3
log_level = debug

[cache]
ttl = 600
size_mb = 256

[health]
interval = 5
unhealthy_threshold = 5
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
cache-redis
export-parquet
i18n
notify-slack
thumbnails
webhooks
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to shelfie are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [1.4.5] - 2024-06-24

### Fixed
- Timezone handling of `--since`.
- Retry delay ignored the configured maximum.

## [1.4.4] - 2024-05-25

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-07-14T13:30:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Initial import of shelfie 1.4.5
__FORGE_MSG__
mkdir -p "$(dirname docs/deployment.md)"
cat > docs/deployment.md <<'__FORGE_EOF__'
# Deployment

1. Check the installed version with `shelfie --version`.
2. Keep `config/defaults.ini` under version control.
3. Rotate the log files daily.
__FORGE_EOF__
commit 2024-07-16T16:28:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Add deployment guide
__FORGE_MSG__
git checkout -q -b feature/export
mkdir -p "$(dirname src/report.js)"
cat > src/report.js <<'__FORGE_EOF__'
// shelfie: report settings.

export const TOP_N = 256;
export const DECIMALS = 1000;
export const COLUMN_WIDTH = 80;
export const MAX_ROWS = 1000;
__FORGE_EOF__
commit 2024-07-18T19:22:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
Tune report COLUMN_WIDTH (100 -> 80)
__FORGE_MSG__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 25;
export const BASE_DELAY_MS = 100;
export const MAX_DELAY_MS = 64;
export const JITTER_PCT = 256;
__FORGE_EOF__
commit 2024-07-19T22:58:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
retry: raise BASE_DELAY_MS from 3 to 100
__FORGE_MSG__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 25;
export const BASE_DELAY_MS = 100;
export const MAX_DELAY_MS = 80;
export const JITTER_PCT = 256;
__FORGE_EOF__
commit 2024-07-21T01:05:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
Raise MAX_DELAY_MS to 80 in retry
__FORGE_MSG__
mkdir -p "$(dirname docs/installation.md)"
cat > docs/installation.md <<'__FORGE_EOF__'
# Installation

1. Rotate the log files daily.
2. Read the CHANGELOG before upgrading across a minor version.
3. Keep `config/defaults.ini` under version control.
__FORGE_EOF__
commit 2024-07-22T05:33:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
Add installation guide
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname docs/architecture.md)"
cat > docs/architecture.md <<'__FORGE_EOF__'
# Architecture

1. Back up the data directory before a major upgrade.
2. Check the installed version with `shelfie --version`.
3. Rotate the log files daily.
__FORGE_EOF__
commit 2024-07-23T12:03:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Add architecture guide
__FORGE_MSG__
git gc -q
