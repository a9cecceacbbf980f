#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/repos/cronguard
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Christopher Roach'
git config user.email christopher.roach@cronguard.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Christopher Roach' GIT_COMMITTER_EMAIL=christopher.roach@cronguard.dev

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
2.9.4
__FORGE_EOF__
mkdir -p "$(dirname Cargo.toml)"
cat > Cargo.toml <<'__FORGE_EOF__'
[package]
name = "cronguard"
version = "2.9.4"
edition = "2021"
description = "A watchdog for scheduled jobs"
__FORGE_EOF__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 4;
pub const BASE_DELAY_MS: u32 = 12;
pub const MAX_DELAY_MS: u32 = 10;
pub const JITTER_PCT: u32 = 256;
__FORGE_EOF__
mkdir -p "$(dirname src/server.rs)"
cat > src/server.rs <<'__FORGE_EOF__'
//! cronguard: server settings.

pub const PORT: u32 = 2;
pub const WORKERS: u32 = 50;
pub const TIMEOUT_S: u32 = 4;
pub const MAX_BODY_KB: u32 = 2;
__FORGE_EOF__
mkdir -p "$(dirname src/storage.rs)"
cat > src/storage.rs <<'__FORGE_EOF__'
//! cronguard: storage settings.

pub const PAGE_SIZE: u32 = 45;
pub const CACHE_TTL_S: u32 = 64;
pub const MAX_ITEMS: u32 = 12;
pub const FLUSH_EVERY: u32 = 4;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# cronguard defaults (overridden by environment variables)

[core]
timeout = 30
retries = 2
log_level = info

[cache]
ttl = 300
size_mb = 256

[health]
interval = 30
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
audit
auth-oidc
cache-redis
export-csv
export-parquet
ratelimit
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to cronguard are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [2.9.4] - 2024-04-24

### Fixed
- Crash when the config file is empty.
- Unicode file names in reports.

## [2.9.3] - 2024-03-25

### Fixed
- Retry delay ignored the configured maximum.
- Unicode file names in reports.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-05-14T14:11:00+00:00 'Christopher Roach' christopher.roach@cronguard.dev <<'__FORGE_MSG__'
Initial import of cronguard 2.9.4
__FORGE_MSG__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 4;
pub const BASE_DELAY_MS: u32 = 500;
pub const MAX_DELAY_MS: u32 = 10;
pub const JITTER_PCT: u32 = 256;
__FORGE_EOF__
commit 2024-05-17T21:21:00+00:00 'John Williams' john.williams@cronguard.dev <<'__FORGE_MSG__'
retry: raise BASE_DELAY_MS from 12 to 500
__FORGE_MSG__
git checkout -q -b feature/more-hosts
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
audit
auth-oidc
export-csv
export-parquet
healthcheck
i18n
ratelimit
thumbnails
webhooks
__FORGE_EOF__
commit 2024-05-21T03:25:00+00:00 'John Williams' john.williams@cronguard.dev <<'__FORGE_MSG__'
Add thumbnails, i18n and more to plugins.txt
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# cronguard defaults (overridden by environment variables)

[core]
timeout = 90
retries = 2
log_level = info

[cache]
ttl = 900
size_mb = 128

[health]
interval = 5
unhealthy_threshold = 3
__FORGE_EOF__
commit 2024-05-24T10:07:00+00:00 'David Rush' david.rush@cronguard.dev <<'__FORGE_MSG__'
Tune defaults for the rollout
__FORGE_MSG__
mkdir -p "$(dirname docs/upgrading.md)"
cat > docs/upgrading.md <<'__FORGE_EOF__'
# Upgrading

1. Keep `config/defaults.ini` under version control.
2. Rotate the log files daily.
3. Read the CHANGELOG before upgrading across a minor version.
__FORGE_EOF__
commit 2024-05-27T13:52:00+00:00 'David Rush' david.rush@cronguard.dev <<'__FORGE_MSG__'
docs: add upgrading page
__FORGE_MSG__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! cronguard: retry settings.

pub const MAX_RETRIES: u32 = 4;
pub const BASE_DELAY_MS: u32 = 500;
pub const MAX_DELAY_MS: u32 = 256;
pub const JITTER_PCT: u32 = 256;
__FORGE_EOF__
commit 2024-05-29T20:58:00+00:00 'Christopher Roach' christopher.roach@cronguard.dev <<'__FORGE_MSG__'
Raise MAX_DELAY_MS to 256 in retry
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
audit
auth-ldap
auth-oidc
cache-redis
export-csv
export-parquet
geoip
healthcheck
ratelimit
__FORGE_EOF__
commit 2024-05-30T23:04:00+00:00 'Jennifer Lopez' jennifer.lopez@cronguard.dev <<'__FORGE_MSG__'
Enable geoip and auth-ldap
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# cronguard defaults (overridden by environment variables)

[core]
timeout = 60
retries = 2
log_level = warning

[cache]
ttl = 300
size_mb = 1024

[health]
interval = 30
unhealthy_threshold = 3
__FORGE_EOF__
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

Owned by the platform team.
__FORGE_EOF__
commit 2024-06-03T04:36:00+00:00 'David Rush' david.rush@cronguard.dev <<'__FORGE_MSG__'
Update defaults and ownership note
__FORGE_MSG__
git gc -q
