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
3.9.2
__FORGE_EOF__
mkdir -p "$(dirname package.json)"
cat > package.json <<'__FORGE_EOF__'
{
  "name": "shelfie",
  "version": "3.9.2",
  "description": "A self-hosted reading list",
  "main": "src/index.js",
  "license": "MIT"
}
__FORGE_EOF__
mkdir -p "$(dirname src/server.js)"
cat > src/server.js <<'__FORGE_EOF__'
// shelfie: server settings.

export const PORT = 25;
export const WORKERS = 45;
export const TIMEOUT_S = 25;
export const MAX_BODY_KB = 20;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 1000;
export const BASE_DELAY_MS = 10;
export const MAX_DELAY_MS = 8;
export const JITTER_PCT = 25;
__FORGE_EOF__
mkdir -p "$(dirname src/sync.js)"
cat > src/sync.js <<'__FORGE_EOF__'
// shelfie: sync settings.

export const BATCH_SIZE = 256;
export const INTERVAL_S = 100;
export const MAX_LAG_S = 500;
export const CONCURRENCY = 16;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# shelfie defaults (overridden by environment variables)

[core]
timeout = 30
retries = 3
log_level = info

[cache]
ttl = 300
size_mb = 128

[health]
interval = 30
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-ldap
export-csv
export-parquet
metrics
notify-slack
webhooks
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to shelfie are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.9.2] - 2024-08-23

### Fixed
- Timezone handling of `--since`.
- Wrong exit code on `--help`.

## [3.9.1] - 2024-07-24

### Fixed
- Unicode file names in reports.
- Crash when the config file is empty.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-09-13T11:45:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
Initial import of shelfie 3.9.2
__FORGE_MSG__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 1000;
export const BASE_DELAY_MS = 10;
export const MAX_DELAY_MS = 8;
export const JITTER_PCT = 50;
__FORGE_EOF__
commit 2024-09-16T16:18:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Tune retry JITTER_PCT (25 -> 50)
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to shelfie are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Changed
- Default log level is now `info`.

## [3.9.2] - 2024-08-23

### Fixed
- Timezone handling of `--since`.
- Wrong exit code on `--help`.

## [3.9.1] - 2024-07-24

### Fixed
- Unicode file names in reports.
- Crash when the config file is empty.
__FORGE_EOF__
commit 2024-09-19T18:31:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
CHANGELOG: note default log level is now `info`
__FORGE_MSG__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 1000;
export const BASE_DELAY_MS = 10;
export const MAX_DELAY_MS = 30;
export const JITTER_PCT = 50;
__FORGE_EOF__
commit 2024-09-22T03:32:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
Tune retry MAX_DELAY_MS (8 -> 30)
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to shelfie are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Changed
- Default log level is now `info`.

### Fixed
- Wrong totals when a row is repeated.

## [3.9.2] - 2024-08-23

### Fixed
- Timezone handling of `--since`.
- Wrong exit code on `--help`.

## [3.9.1] - 2024-07-24

### Fixed
- Unicode file names in reports.
- Crash when the config file is empty.
__FORGE_EOF__
commit 2024-09-23T12:50:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
CHANGELOG: note wrong totals when a row is repeated
__FORGE_MSG__
cat > NOTES.txt <<'__FORGE_EOF__'
TODO before 4.0.0:
- ask Danielle Howard about the announcement
__FORGE_EOF__
git gc -q
