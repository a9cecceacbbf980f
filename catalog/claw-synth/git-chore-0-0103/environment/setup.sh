#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/palette-kit
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
2.8.5
__FORGE_EOF__
mkdir -p "$(dirname package.json)"
cat > package.json <<'__FORGE_EOF__'
{
  "name": "palette-kit",
  "version": "2.8.5",
  "description": "Accessible colour palettes",
  "main": "src/index.js",
  "license": "MIT"
}
__FORGE_EOF__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// palette-kit: retry settings.

export const MAX_RETRIES = 128;
export const BASE_DELAY_MS = 5;
export const MAX_DELAY_MS = 500;
export const JITTER_PCT = 250;
__FORGE_EOF__
mkdir -p "$(dirname src/report.js)"
cat > src/report.js <<'__FORGE_EOF__'
// palette-kit: report settings.

export const TOP_N = 4;
export const DECIMALS = 120;
export const COLUMN_WIDTH = 80;
export const MAX_ROWS = 3;
__FORGE_EOF__
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// palette-kit: storage settings.

export const PAGE_SIZE = 50;
export const CACHE_TTL_S = 250;
export const MAX_ITEMS = 60;
export const FLUSH_EVERY = 64;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# palette-kit defaults (overridden by environment variables)

[core]
timeout = 90
retries = 2
log_level = debug

[cache]
ttl = 600
size_mb = 512

[health]
interval = 5
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
app.example.com
ci.internal
db.internal
git.internal
mail.example.com
metrics.internal
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to palette-kit are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [2.8.5] - 2024-05-24

### Fixed
- Unicode file names in reports.
- Retry delay ignored the configured maximum.

## [2.8.4] - 2024-04-24

### Fixed
- Crash when the config file is empty.
- Wrong exit code on `--help`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-06-13T11:48:00+00:00 'Jaime Wu' jaime.wu@palettekit.dev <<'__FORGE_MSG__'
Initial import of palette-kit 2.8.5
__FORGE_MSG__
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// palette-kit: storage settings.

export const PAGE_SIZE = 50;
export const CACHE_TTL_S = 250;
export const MAX_ITEMS = 100;
export const FLUSH_EVERY = 64;
__FORGE_EOF__
commit 2024-06-15T20:02:00+00:00 'Michael Smith' michael.smith@palettekit.dev <<'__FORGE_MSG__'
storage: raise MAX_ITEMS from 60 to 100
__FORGE_MSG__
git gc -q
