#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/cronguard
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'John Williams'
git config user.email john.williams@cronguard.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='John Williams' GIT_COMMITTER_EMAIL=john.williams@cronguard.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# cronguard

_A watchdog for scheduled jobs._

**Language:** Rust · **License:** BSD-3-Clause

cronguard is maintained by a small team at Brown, Ware and Peters. It started as an internal tool in 2022 and is now used by a few teams.

## Features

- Missed-run alerts
- Run history
- Shell completions
- Zero runtime dependencies
- Offline mode

## Usage

```
cargo install cronguard
cronguard --help
```

## Configuration

Settings are read from environment variables prefixed with `CRONGUARD_`:

- `CRONGUARD_DATA_DIR`
- `CRONGUARD_LOG_LEVEL`
- `CRONGUARD_CACHE_TTL`

## Maintainers

- David Rush
- John Williams
- Christopher Roach
- Jennifer Lopez

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
2.6.4
__FORGE_EOF__
mkdir -p "$(dirname Cargo.toml)"
cat > Cargo.toml <<'__FORGE_EOF__'
[package]
name = "cronguard"
version = "2.6.4"
edition = "2021"
description = "A watchdog for scheduled jobs"
__FORGE_EOF__
mkdir -p "$(dirname src/report.rs)"
cat > src/report.rs <<'__FORGE_EOF__'
//! cronguard: report settings.

pub const TOP_N: u32 = 2;
pub const DECIMALS: u32 = 45;
pub const COLUMN_WIDTH: u32 = 8;
pub const MAX_ROWS: u32 = 5;
__FORGE_EOF__
mkdir -p "$(dirname src/storage.rs)"
cat > src/storage.rs <<'__FORGE_EOF__'
//! cronguard: storage settings.

pub const PAGE_SIZE: u32 = 4;
pub const CACHE_TTL_S: u32 = 16;
pub const MAX_ITEMS: u32 = 45;
pub const FLUSH_EVERY: u32 = 10;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 1000;
pub const BASE_DELAY_MS: u32 = 4;
pub const MAX_DELAY_MS: u32 = 5;
pub const JITTER_PCT: u32 = 45;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# cronguard defaults (overridden by environment variables)

[core]
timeout = 45
retries = 2
log_level = debug

[cache]
ttl = 600
size_mb = 128

[health]
interval = 10
unhealthy_threshold = 5
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
export-csv
geoip
healthcheck
i18n
metrics
search
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to cronguard are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [2.6.4] - 2024-03-04

### Fixed
- Wrong exit code on `--help`.
- Crash when the config file is empty.

## [2.6.3] - 2024-02-03

### Fixed
- Retry delay ignored the configured maximum.
- Wrong exit code on `--help`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-03-27T17:55:00+00:00 'John Williams' john.williams@cronguard.dev <<'__FORGE_MSG__'
Initial import of cronguard 2.6.4
__FORGE_MSG__
mkdir -p "$(dirname docs/deployment.md)"
cat > docs/deployment.md <<'__FORGE_EOF__'
# Deployment

1. Keep `config/defaults.ini` under version control.
2. Pin the version in production deployments.
3. Run with `LOG_LEVEL=debug` to see every request.
__FORGE_EOF__
commit 2024-03-29T20:04:00+00:00 'Jennifer Lopez' jennifer.lopez@cronguard.dev <<'__FORGE_MSG__'
Add deployment guide
__FORGE_MSG__
git checkout -q -b release/2.6
mkdir -p "$(dirname docs/glossary.md)"
cat > docs/glossary.md <<'__FORGE_EOF__'
# Glossary

1. Check the installed version with `cronguard --version`.
2. Keep `config/defaults.ini` under version control.
3. Report bugs with the output of `cronguard doctor`.
__FORGE_EOF__
commit 2024-03-31T05:27:00+00:00 'Jennifer Lopez' jennifer.lopez@cronguard.dev <<'__FORGE_MSG__'
docs: add glossary page
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname src/report.rs)"
cat > src/report.rs <<'__FORGE_EOF__'
//! cronguard: report settings.

pub const TOP_N: u32 = 2;
pub const DECIMALS: u32 = 45;
pub const COLUMN_WIDTH: u32 = 50;
pub const MAX_ROWS: u32 = 5;
__FORGE_EOF__
commit 2024-04-02T10:04:00+00:00 'Jennifer Lopez' jennifer.lopez@cronguard.dev <<'__FORGE_MSG__'
Tune report COLUMN_WIDTH (8 -> 50)
__FORGE_MSG__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 1000;
pub const BASE_DELAY_MS: u32 = 4;
pub const MAX_DELAY_MS: u32 = 128;
pub const JITTER_PCT: u32 = 45;
__FORGE_EOF__
commit 2024-04-03T17:01:00+00:00 'David Rush' david.rush@cronguard.dev <<'__FORGE_MSG__'
Raise MAX_DELAY_MS to 128 in retry
__FORGE_MSG__
mkdir -p "$(dirname src/report.rs)"
cat > src/report.rs <<'__FORGE_EOF__'
//! cronguard: report settings.

pub const TOP_N: u32 = 2;
pub const DECIMALS: u32 = 45;
pub const COLUMN_WIDTH: u32 = 50;
pub const MAX_ROWS: u32 = 25;
__FORGE_EOF__
commit 2024-04-04T02:25:00+00:00 'Christopher Roach' christopher.roach@cronguard.dev <<'__FORGE_MSG__'
Raise MAX_ROWS to 25 in report
__FORGE_MSG__
mkdir -p "$(dirname src/storage.rs)"
cat > src/storage.rs <<'__FORGE_EOF__'
//! cronguard: storage settings.

pub const PAGE_SIZE: u32 = 4;
pub const CACHE_TTL_S: u32 = 500;
pub const MAX_ITEMS: u32 = 45;
pub const FLUSH_EVERY: u32 = 10;
__FORGE_EOF__
commit 2024-04-04T11:35:00+00:00 'Christopher Roach' christopher.roach@cronguard.dev <<'__FORGE_MSG__'
storage: raise CACHE_TTL_S from 16 to 500
__FORGE_MSG__
mkdir -p "$(dirname src/report.rs)"
cat > src/report.rs <<'__FORGE_EOF__'
//! cronguard: report settings.

pub const TOP_N: u32 = 100;
pub const DECIMALS: u32 = 45;
pub const COLUMN_WIDTH: u32 = 50;
pub const MAX_ROWS: u32 = 25;
__FORGE_EOF__
commit 2024-04-05T14:44:00+00:00 'John Williams' john.williams@cronguard.dev <<'__FORGE_MSG__'
report: raise TOP_N from 2 to 100
__FORGE_MSG__
git gc -q
