#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/work/shelfie
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Molly Simmons'
git config user.email molly.simmons@shelfie.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Molly Simmons' GIT_COMMITTER_EMAIL=molly.simmons@shelfie.dev

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
3.6.5
__FORGE_EOF__
mkdir -p "$(dirname package.json)"
cat > package.json <<'__FORGE_EOF__'
{
  "name": "shelfie",
  "version": "3.6.5",
  "description": "A self-hosted reading list",
  "main": "src/index.js",
  "license": "MIT"
}
__FORGE_EOF__
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// shelfie: storage settings.

export const PAGE_SIZE = 45;
export const CACHE_TTL_S = 8;
export const MAX_ITEMS = 25;
export const FLUSH_EVERY = 8;
__FORGE_EOF__
mkdir -p "$(dirname src/sync.js)"
cat > src/sync.js <<'__FORGE_EOF__'
// shelfie: sync settings.

export const BATCH_SIZE = 128;
export const INTERVAL_S = 20;
export const MAX_LAG_S = 3;
export const CONCURRENCY = 250;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 45;
export const BASE_DELAY_MS = 120;
export const MAX_DELAY_MS = 120;
export const JITTER_PCT = 500;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# shelfie defaults (overridden by environment variables)

[core]
timeout = 60
retries = 8
log_level = debug

[cache]
ttl = 900
size_mb = 128

[health]
interval = 30
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-oidc
export-csv
export-parquet
geoip
i18n
search
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to shelfie are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.6.5] - 2024-07-13

### Fixed
- Wrong exit code on `--help`.
- Retry delay ignored the configured maximum.

## [3.6.4] - 2024-06-13

### Fixed
- Wrong exit code on `--help`.
- Retry delay ignored the configured maximum.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-08-03T19:49:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
Initial import of shelfie 3.6.5
__FORGE_MSG__
mkdir -p "$(dirname docs/backups.md)"
cat > docs/backups.md <<'__FORGE_EOF__'
# Backups

1. Run with `LOG_LEVEL=debug` to see every request.
2. Report bugs with the output of `shelfie doctor`.
3. Read the CHANGELOG before upgrading across a minor version.
__FORGE_EOF__
commit 2024-08-07T01:16:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Document backups
__FORGE_MSG__
mkdir -p "$(dirname docs/faq.md)"
cat > docs/faq.md <<'__FORGE_EOF__'
# Faq

1. Report bugs with the output of `shelfie doctor`.
2. Check the installed version with `shelfie --version`.
3. Read the CHANGELOG before upgrading across a minor version.
__FORGE_EOF__
commit 2024-08-07T07:36:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Document faq
__FORGE_MSG__
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// shelfie: storage settings.

export const PAGE_SIZE = 45;
export const CACHE_TTL_S = 8;
export const MAX_ITEMS = 45;
export const FLUSH_EVERY = 8;
__FORGE_EOF__
commit 2024-08-09T12:40:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Tune storage MAX_ITEMS (25 -> 45)
__FORGE_MSG__
git gc -q
