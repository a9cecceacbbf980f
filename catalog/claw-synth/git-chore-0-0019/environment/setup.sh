#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/repos/cronguard
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'David Rush'
git config user.email david.rush@cronguard.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='David Rush' GIT_COMMITTER_EMAIL=david.rush@cronguard.dev

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
2.3.0
__FORGE_EOF__
mkdir -p "$(dirname Cargo.toml)"
cat > Cargo.toml <<'__FORGE_EOF__'
[package]
name = "cronguard"
version = "2.3.0"
edition = "2021"
description = "A watchdog for scheduled jobs"
__FORGE_EOF__
mkdir -p "$(dirname src/storage.rs)"
cat > src/storage.rs <<'__FORGE_EOF__'
//! cronguard: storage settings.

pub const PAGE_SIZE: u32 = 5;
pub const CACHE_TTL_S: u32 = 50;
pub const MAX_ITEMS: u32 = 10;
pub const FLUSH_EVERY: u32 = 20;
__FORGE_EOF__
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! cronguard: sync settings.

pub const BATCH_SIZE: u32 = 60;
pub const INTERVAL_S: u32 = 16;
pub const MAX_LAG_S: u32 = 80;
pub const CONCURRENCY: u32 = 1000;
__FORGE_EOF__
mkdir -p "$(dirname src/server.rs)"
cat > src/server.rs <<'__FORGE_EOF__'
//! cronguard: server settings.

pub const PORT: u32 = 8;
pub const WORKERS: u32 = 120;
pub const TIMEOUT_S: u32 = 16;
pub const MAX_BODY_KB: u32 = 100;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# cronguard defaults (overridden by environment variables)

[core]
timeout = 90
retries = 4
log_level = info

[cache]
ttl = 300
size_mb = 512

[health]
interval = 5
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
ap-south-1
ca-central-1
eu-south-1
eu-west-2
us-east-1
us-west-2
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to cronguard are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [2.3.0] - 2024-05-24

### Fixed
- Wrong exit code on `--help`.
- Timezone handling of `--since`.

## [2.2.4] - 2024-04-24

### Fixed
- Unicode file names in reports.
- Memory leak in the watcher.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-06-15T13:52:00+00:00 'David Rush' david.rush@cronguard.dev <<'__FORGE_MSG__'
Initial import of cronguard 2.3.0
__FORGE_MSG__
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! cronguard: sync settings.

pub const BATCH_SIZE: u32 = 5;
pub const INTERVAL_S: u32 = 16;
pub const MAX_LAG_S: u32 = 80;
pub const CONCURRENCY: u32 = 1000;
__FORGE_EOF__
commit 2024-06-15T21:40:00+00:00 'Christopher Roach' christopher.roach@cronguard.dev <<'__FORGE_MSG__'
sync: lower BATCH_SIZE from 60 to 5
__FORGE_MSG__
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! cronguard: sync settings.

pub const BATCH_SIZE: u32 = 5;
pub const INTERVAL_S: u32 = 5;
pub const MAX_LAG_S: u32 = 80;
pub const CONCURRENCY: u32 = 1000;
__FORGE_EOF__
commit 2024-06-19T00:29:00+00:00 'David Rush' david.rush@cronguard.dev <<'__FORGE_MSG__'
sync: lower INTERVAL_S from 16 to 5
__FORGE_MSG__
git gc -q
