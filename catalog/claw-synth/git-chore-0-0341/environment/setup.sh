#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/cronguard
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Jennifer Lopez'
git config user.email jennifer.lopez@cronguard.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Jennifer Lopez' GIT_COMMITTER_EMAIL=jennifer.lopez@cronguard.dev

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
3.1.4
__FORGE_EOF__
mkdir -p "$(dirname Cargo.toml)"
cat > Cargo.toml <<'__FORGE_EOF__'
[package]
name = "cronguard"
version = "3.1.4"
edition = "2021"
description = "A watchdog for scheduled jobs"
__FORGE_EOF__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 12;
pub const BASE_DELAY_MS: u32 = 50;
pub const MAX_DELAY_MS: u32 = 16;
pub const JITTER_PCT: u32 = 4;
__FORGE_EOF__
mkdir -p "$(dirname src/storage.rs)"
cat > src/storage.rs <<'__FORGE_EOF__'
//! cronguard: storage settings.

pub const PAGE_SIZE: u32 = 80;
pub const CACHE_TTL_S: u32 = 10;
pub const MAX_ITEMS: u32 = 1000;
pub const FLUSH_EVERY: u32 = 128;
__FORGE_EOF__
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! cronguard: sync settings.

pub const BATCH_SIZE: u32 = 2;
pub const INTERVAL_S: u32 = 1000;
pub const MAX_LAG_S: u32 = 45;
pub const CONCURRENCY: u32 = 10;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# cronguard defaults (overridden by environment variables)

[core]
timeout = 15
retries = 8
log_level = debug

[cache]
ttl = 300
size_mb = 1024

[health]
interval = 5
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
af-south-1
eu-central-1
eu-north-1
eu-west-1
us-east-2
us-west-1
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to cronguard are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.1.4] - 2024-02-26

### Fixed
- Unicode file names in reports.
- Memory leak in the watcher.

## [3.1.3] - 2024-01-27

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
commit 2024-03-19T17:48:00+00:00 'Jennifer Lopez' jennifer.lopez@cronguard.dev <<'__FORGE_MSG__'
Initial import of cronguard 3.1.4
__FORGE_MSG__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 12;
pub const BASE_DELAY_MS: u32 = 50;
pub const MAX_DELAY_MS: u32 = 16;
pub const JITTER_PCT: u32 = 3;
__FORGE_EOF__
commit 2024-03-19T21:42:00+00:00 'David Rush' david.rush@cronguard.dev <<'__FORGE_MSG__'
Tune retry JITTER_PCT (4 -> 3)
__FORGE_MSG__
mkdir -p "$(dirname src/storage.rs)"
cat > src/storage.rs <<'__FORGE_EOF__'
//! cronguard: storage settings.

pub const PAGE_SIZE: u32 = 4;
pub const CACHE_TTL_S: u32 = 10;
pub const MAX_ITEMS: u32 = 1000;
pub const FLUSH_EVERY: u32 = 128;
__FORGE_EOF__
commit 2024-03-21T02:18:00+00:00 'Jennifer Lopez' jennifer.lopez@cronguard.dev <<'__FORGE_MSG__'
Lower PAGE_SIZE to 4 in storage
__FORGE_MSG__
mkdir -p "$(dirname docs/deployment.md)"
cat > docs/deployment.md <<'__FORGE_EOF__'
# Deployment

1. Back up the data directory before a major upgrade.
2. Check the installed version with `cronguard --version`.
3. Run with `LOG_LEVEL=debug` to see every request.
__FORGE_EOF__
commit 2024-03-22T04:00:00+00:00 'Christopher Roach' christopher.roach@cronguard.dev <<'__FORGE_MSG__'
docs: add deployment page
__FORGE_MSG__
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! cronguard: sync settings.

pub const BATCH_SIZE: u32 = 2;
pub const INTERVAL_S: u32 = 1000;
pub const MAX_LAG_S: u32 = 30;
pub const CONCURRENCY: u32 = 10;
__FORGE_EOF__
commit 2024-03-25T05:31:00+00:00 'Jennifer Lopez' jennifer.lopez@cronguard.dev <<'__FORGE_MSG__'
Lower MAX_LAG_S to 30 in sync
__FORGE_MSG__
git gc -q
