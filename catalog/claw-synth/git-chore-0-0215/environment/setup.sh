#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/palette-kit
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Amber Griffin'
git config user.email amber.griffin@palettekit.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Amber Griffin' GIT_COMMITTER_EMAIL=amber.griffin@palettekit.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# palette-kit

_Accessible colour palettes._

**Language:** JavaScript · **License:** BSD-3-Clause

palette-kit is maintained by a small team at Lee, Robinson and Hernandez. It started as an internal tool in 2016 and is now used by a few teams.

## Features

- Contrast checks
- CSS variable export
- A small CLI
- Configuration via environment variables
- A plugin API

## Usage

```
npm install -g palette-kit
palette-kit --help
```

## Configuration

Settings are read from environment variables prefixed with `PALETTE_KIT_`:

- `PALETTE_KIT_DATA_DIR`
- `PALETTE_KIT_LOG_LEVEL`
- `PALETTE_KIT_CACHE_TTL`

## Maintainers

- Amber Griffin
- Rebecca Nunez
- Jaime Wu
- Michael Smith

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
3.4.6
__FORGE_EOF__
mkdir -p "$(dirname package.json)"
cat > package.json <<'__FORGE_EOF__'
{
  "name": "palette-kit",
  "version": "3.4.6",
  "description": "Accessible colour palettes",
  "main": "src/index.js",
  "license": "MIT"
}
__FORGE_EOF__
mkdir -p "$(dirname src/sync.js)"
cat > src/sync.js <<'__FORGE_EOF__'
// palette-kit: sync settings.

export const BATCH_SIZE = 16;
export const INTERVAL_S = 2;
export const MAX_LAG_S = 20;
export const CONCURRENCY = 45;
__FORGE_EOF__
mkdir -p "$(dirname src/report.js)"
cat > src/report.js <<'__FORGE_EOF__'
// palette-kit: report settings.

export const TOP_N = 45;
export const DECIMALS = 12;
export const COLUMN_WIDTH = 64;
export const MAX_ROWS = 60;
__FORGE_EOF__
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// palette-kit: storage settings.

export const PAGE_SIZE = 64;
export const CACHE_TTL_S = 50;
export const MAX_ITEMS = 5;
export const FLUSH_EVERY = 4;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# palette-kit defaults (overridden by environment variables)

[core]
timeout = 90
retries = 2
log_level = debug

[cache]
ttl = 300
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
audit
healthcheck
i18n
notify-email
ratelimit
thumbnails
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to palette-kit are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.4.6] - 2024-01-22

### Fixed
- Wrong exit code on `--help`.
- Retry delay ignored the configured maximum.

## [3.4.5] - 2023-12-23

### Fixed
- Memory leak in the watcher.
- Wrong exit code on `--help`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-02-14T12:37:00+00:00 'Amber Griffin' amber.griffin@palettekit.dev <<'__FORGE_MSG__'
Initial import of palette-kit 3.4.6
__FORGE_MSG__
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// palette-kit: storage settings.

export const PAGE_SIZE = 64;
export const CACHE_TTL_S = 50;
export const MAX_ITEMS = 30;
export const FLUSH_EVERY = 4;
__FORGE_EOF__
commit 2024-02-16T20:18:00+00:00 'Rebecca Nunez' rebecca.nunez@palettekit.dev <<'__FORGE_MSG__'
storage: raise MAX_ITEMS from 5 to 30
__FORGE_MSG__
mkdir -p "$(dirname config/local.env)"
cat > config/local.env <<'__FORGE_EOF__'
SMTP_PASSWORD=vgcdj6amz94mwc
SENTRY_DSN=https://10YKXY3n44szM7y5kT5EsPStS0LsRLZJ@sentry.example.com/4
__FORGE_EOF__
mkdir -p "$(dirname src/sync.js)"
cat > src/sync.js <<'__FORGE_EOF__'
// palette-kit: sync settings.

export const BATCH_SIZE = 16;
export const INTERVAL_S = 2;
export const MAX_LAG_S = 20;
export const CONCURRENCY = 3;
__FORGE_EOF__
commit 2024-02-17T06:13:00+00:00 'Amber Griffin' amber.griffin@palettekit.dev <<'__FORGE_MSG__'
Local setup for the demo
__FORGE_MSG__
mkdir -p "$(dirname docs/upgrading.md)"
cat > docs/upgrading.md <<'__FORGE_EOF__'
# Upgrading

1. Pin the version in production deployments.
2. Read the CHANGELOG before upgrading across a minor version.
3. Back up the data directory before a major upgrade.
__FORGE_EOF__
commit 2024-02-17T13:34:00+00:00 'Rebecca Nunez' rebecca.nunez@palettekit.dev <<'__FORGE_MSG__'
docs: add upgrading page
__FORGE_MSG__
mkdir -p "$(dirname docs/architecture.md)"
cat > docs/architecture.md <<'__FORGE_EOF__'
# Architecture

1. Pin the version in production deployments.
2. Rotate the log files daily.
3. Run with `LOG_LEVEL=debug` to see every request.
__FORGE_EOF__
commit 2024-02-18T23:05:00+00:00 'Rebecca Nunez' rebecca.nunez@palettekit.dev <<'__FORGE_MSG__'
Document architecture
__FORGE_MSG__
git gc -q
