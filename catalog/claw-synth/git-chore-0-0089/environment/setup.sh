#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/repos/palette-kit
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Jaime Wu'
git config user.email jaime.wu@palettekit.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Jaime Wu' GIT_COMMITTER_EMAIL=jaime.wu@palettekit.dev

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
1.9.0
__FORGE_EOF__
mkdir -p "$(dirname package.json)"
cat > package.json <<'__FORGE_EOF__'
{
  "name": "palette-kit",
  "version": "1.9.0",
  "description": "Accessible colour palettes",
  "main": "src/index.js",
  "license": "MIT"
}
__FORGE_EOF__
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// palette-kit: storage settings.

export const PAGE_SIZE = 16;
export const CACHE_TTL_S = 4;
export const MAX_ITEMS = 1000;
export const FLUSH_EVERY = 16;
__FORGE_EOF__
mkdir -p "$(dirname src/server.js)"
cat > src/server.js <<'__FORGE_EOF__'
// palette-kit: server settings.

export const PORT = 4;
export const WORKERS = 500;
export const TIMEOUT_S = 2;
export const MAX_BODY_KB = 256;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// palette-kit: retry settings.

export const MAX_RETRIES = 100;
export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 100;
export const JITTER_PCT = 20;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# palette-kit defaults (overridden by environment variables)

[core]
timeout = 30
retries = 8
log_level = debug

[cache]
ttl = 300
size_mb = 512

[health]
interval = 5
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-oidc
cache-redis
i18n
metrics
notify-slack
search
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to palette-kit are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [1.9.0] - 2024-09-08

### Fixed
- Memory leak in the watcher.
- Unicode file names in reports.

## [1.8.4] - 2024-08-09

### Fixed
- Retry delay ignored the configured maximum.
- Memory leak in the watcher.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-09-30T17:04:00+00:00 'Jaime Wu' jaime.wu@palettekit.dev <<'__FORGE_MSG__'
Initial import of palette-kit 1.9.0
__FORGE_MSG__
mkdir -p "$(dirname docs/architecture.md)"
cat > docs/architecture.md <<'__FORGE_EOF__'
# Architecture

1. Check the installed version with `palette-kit --version`.
2. Keep `config/defaults.ini` under version control.
3. Back up the data directory before a major upgrade.
__FORGE_EOF__
commit 2024-10-02T21:16:00+00:00 'Rebecca Nunez' rebecca.nunez@palettekit.dev <<'__FORGE_MSG__'
Document architecture
__FORGE_MSG__
git checkout -q -b maint/1.9.x
mkdir -p "$(dirname docs/logging.md)"
cat > docs/logging.md <<'__FORGE_EOF__'
# Logging

1. Rotate the log files daily.
2. Check the installed version with `palette-kit --version`.
3. Report bugs with the output of `palette-kit doctor`.
__FORGE_EOF__
commit 2024-10-04T01:28:00+00:00 'Rebecca Nunez' rebecca.nunez@palettekit.dev <<'__FORGE_MSG__'
Add logging guide
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// palette-kit: storage settings.

export const PAGE_SIZE = 16;
export const CACHE_TTL_S = 45;
export const MAX_ITEMS = 1000;
export const FLUSH_EVERY = 16;
__FORGE_EOF__
commit 2024-10-06T07:37:00+00:00 'Amber Griffin' amber.griffin@palettekit.dev <<'__FORGE_MSG__'
storage: raise CACHE_TTL_S from 4 to 45
__FORGE_MSG__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// palette-kit: retry settings.

export const MAX_RETRIES = 100;
export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 100;
export const JITTER_PCT = 8;
__FORGE_EOF__
commit 2024-10-08T09:50:00+00:00 'Amber Griffin' amber.griffin@palettekit.dev <<'__FORGE_MSG__'
retry: lower JITTER_PCT from 20 to 8
__FORGE_MSG__
mkdir -p "$(dirname docs/backups.md)"
cat > docs/backups.md <<'__FORGE_EOF__'
# Backups

1. Read the CHANGELOG before upgrading across a minor version.
2. Check the installed version with `palette-kit --version`.
3. Back up the data directory before a major upgrade.
__FORGE_EOF__
commit 2024-10-08T14:24:00+00:00 'Amber Griffin' amber.griffin@palettekit.dev <<'__FORGE_MSG__'
Add backups guide
__FORGE_MSG__
git gc -q
