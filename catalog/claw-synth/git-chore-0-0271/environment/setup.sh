#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/cronguard
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
3.9.5
__FORGE_EOF__
mkdir -p "$(dirname Cargo.toml)"
cat > Cargo.toml <<'__FORGE_EOF__'
[package]
name = "cronguard"
version = "3.9.5"
edition = "2021"
description = "A watchdog for scheduled jobs"
__FORGE_EOF__
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! cronguard: sync settings.

pub const BATCH_SIZE: u32 = 120;
pub const INTERVAL_S: u32 = 256;
pub const MAX_LAG_S: u32 = 60;
pub const CONCURRENCY: u32 = 45;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 5;
pub const BASE_DELAY_MS: u32 = 100;
pub const MAX_DELAY_MS: u32 = 8;
pub const JITTER_PCT: u32 = 50;
__FORGE_EOF__
mkdir -p "$(dirname src/storage.rs)"
cat > src/storage.rs <<'__FORGE_EOF__'
//! cronguard: storage settings.

pub const PAGE_SIZE: u32 = 50;
pub const CACHE_TTL_S: u32 = 12;
pub const MAX_ITEMS: u32 = 500;
pub const FLUSH_EVERY: u32 = 8;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# cronguard defaults (overridden by environment variables)

[core]
timeout = 90
retries = 3
log_level = info

[cache]
ttl = 900
size_mb = 1024

[health]
interval = 10
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
app.example.com
auth.example.com
mail.example.com
metrics.internal
search.internal
vault.internal
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to cronguard are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.9.5] - 2024-01-01

### Fixed
- Crash when the config file is empty.
- Timezone handling of `--since`.

## [3.9.4] - 2023-12-02

### Fixed
- Crash when the config file is empty.
- Retry delay ignored the configured maximum.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-01-23T14:52:00+00:00 'David Rush' david.rush@cronguard.dev <<'__FORGE_MSG__'
Initial import of cronguard 3.9.5
__FORGE_MSG__
mkdir -p "$(dirname docs/release-process.md)"
cat > docs/release-process.md <<'__FORGE_EOF__'
# Release process

1. Run with `LOG_LEVEL=debug` to see every request.
2. Pin the version in production deployments.
3. Report bugs with the output of `cronguard doctor`.
__FORGE_EOF__
commit 2024-01-24T21:46:00+00:00 'Jennifer Lopez' jennifer.lopez@cronguard.dev <<'__FORGE_MSG__'
docs: add release-process page
__FORGE_MSG__
git checkout -q -b maint/3.9.x
mkdir -p "$(dirname docs/installation.md)"
cat > docs/installation.md <<'__FORGE_EOF__'
# Installation

1. Keep `config/defaults.ini` under version control.
2. Read the CHANGELOG before upgrading across a minor version.
3. Report bugs with the output of `cronguard doctor`.
__FORGE_EOF__
commit 2024-01-27T05:23:00+00:00 'Christopher Roach' christopher.roach@cronguard.dev <<'__FORGE_MSG__'
Document installation
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! cronguard: sync settings.

pub const BATCH_SIZE: u32 = 120;
pub const INTERVAL_S: u32 = 30;
pub const MAX_LAG_S: u32 = 60;
pub const CONCURRENCY: u32 = 45;
__FORGE_EOF__
commit 2024-01-27T13:08:00+00:00 'Christopher Roach' christopher.roach@cronguard.dev <<'__FORGE_MSG__'
sync: lower INTERVAL_S from 256 to 30
__FORGE_MSG__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 60;
pub const BASE_DELAY_MS: u32 = 100;
pub const MAX_DELAY_MS: u32 = 8;
pub const JITTER_PCT: u32 = 50;
__FORGE_EOF__
commit 2024-01-27T15:21:00+00:00 'John Williams' john.williams@cronguard.dev <<'__FORGE_MSG__'
retry: raise MAX_RETRIES from 5 to 60
__FORGE_MSG__
git gc -q
