#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/quillmark
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Sarah Johnson'
git config user.email sarah.johnson@quillmark.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Sarah Johnson' GIT_COMMITTER_EMAIL=sarah.johnson@quillmark.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# quillmark

_Markdown to PDF without LaTeX._

**Language:** Rust · **License:** MIT

quillmark is maintained by a small team at Davis-Perry. It started as an internal tool in 2018 and is now used by a few teams.

## Features

- Themes
- Table of contents
- Shell completions
- A small CLI
- Structured JSON logs

## Usage

```
cargo install quillmark
quillmark --help
```

## Configuration

Settings are read from environment variables prefixed with `QUILLMARK_`:

- `QUILLMARK_CACHE_TTL`
- `QUILLMARK_TIMEOUT`
- `QUILLMARK_WORKERS`

## Maintainers

- Sarah Johnson
- Taylor Stone

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
2.8.3
__FORGE_EOF__
mkdir -p "$(dirname Cargo.toml)"
cat > Cargo.toml <<'__FORGE_EOF__'
[package]
name = "quillmark"
version = "2.8.3"
edition = "2021"
description = "Markdown to PDF without LaTeX"
__FORGE_EOF__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! quillmark: retry settings.

pub const MAX_RETRIES: u32 = 25;
pub const BASE_DELAY_MS: u32 = 500;
pub const MAX_DELAY_MS: u32 = 20;
pub const JITTER_PCT: u32 = 45;
__FORGE_EOF__
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! quillmark: sync settings.

pub const BATCH_SIZE: u32 = 2;
pub const INTERVAL_S: u32 = 64;
pub const MAX_LAG_S: u32 = 64;
pub const CONCURRENCY: u32 = 45;
__FORGE_EOF__
mkdir -p "$(dirname src/server.rs)"
cat > src/server.rs <<'__FORGE_EOF__'
//! quillmark: server settings.

pub const PORT: u32 = 12;
pub const WORKERS: u32 = 120;
pub const TIMEOUT_S: u32 = 10;
pub const MAX_BODY_KB: u32 = 120;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# quillmark defaults (overridden by environment variables)

[core]
timeout = 45
retries = 3
log_level = debug

[cache]
ttl = 300
size_mb = 512

[health]
interval = 10
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-ldap
auth-oidc
i18n
metrics
notify-slack
search
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to quillmark are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [2.8.3] - 2024-01-19

### Fixed
- Memory leak in the watcher.
- Unicode file names in reports.

## [2.8.2] - 2023-12-20

### Fixed
- Retry delay ignored the configured maximum.
- Timezone handling of `--since`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-02-09T16:54:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Initial import of quillmark 2.8.3
__FORGE_MSG__
mkdir -p "$(dirname src/sync.rs)"
cat > src/sync.rs <<'__FORGE_EOF__'
//! quillmark: sync settings.

pub const BATCH_SIZE: u32 = 2;
pub const INTERVAL_S: u32 = 5;
pub const MAX_LAG_S: u32 = 64;
pub const CONCURRENCY: u32 = 45;
__FORGE_EOF__
commit 2024-02-11T20:44:00+00:00 'Taylor Stone' taylor.stone@quillmark.dev <<'__FORGE_MSG__'
Tune sync INTERVAL_S (64 -> 5)
__FORGE_MSG__
git checkout -q -b feature/tuning
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
audit
auth-ldap
export-parquet
healthcheck
i18n
metrics
notify-slack
search
webhooks
__FORGE_EOF__
commit 2024-02-12T06:02:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Add audit, export-parquet and more to plugins.txt
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# quillmark defaults (overridden by environment variables)

[core]
timeout = 15
retries = 4
log_level = warning

[cache]
ttl = 300
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 2
__FORGE_EOF__
commit 2024-02-15T10:37:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Tune defaults for the rollout
__FORGE_MSG__
mkdir -p "$(dirname docs/backups.md)"
cat > docs/backups.md <<'__FORGE_EOF__'
# Backups

1. Keep `config/defaults.ini` under version control.
2. Read the CHANGELOG before upgrading across a minor version.
3. Back up the data directory before a major upgrade.
__FORGE_EOF__
commit 2024-02-16T16:31:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Document backups
__FORGE_MSG__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! quillmark: retry settings.

pub const MAX_RETRIES: u32 = 25;
pub const BASE_DELAY_MS: u32 = 500;
pub const MAX_DELAY_MS: u32 = 20;
pub const JITTER_PCT: u32 = 4;
__FORGE_EOF__
commit 2024-02-19T20:50:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Lower JITTER_PCT to 4 in retry
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-ldap
auth-oidc
healthcheck
i18n
metrics
notify-email
notify-slack
search
thumbnails
__FORGE_EOF__
commit 2024-02-22T02:42:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Enable thumbnails and notify-email
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# quillmark defaults (overridden by environment variables)

[core]
timeout = 45
retries = 2
log_level = error

[cache]
ttl = 300
size_mb = 512

[health]
interval = 15
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# quillmark

_Markdown to PDF without LaTeX._

**Language:** Rust · **License:** MIT

quillmark is maintained by a small team at Davis-Perry. It started as an internal tool in 2018 and is now used by a few teams.

## Features

- Themes
- Table of contents
- Shell completions
- A small CLI
- Structured JSON logs

## Usage

```
cargo install quillmark
quillmark --help
```

## Configuration

Settings are read from environment variables prefixed with `QUILLMARK_`:

- `QUILLMARK_CACHE_TTL`
- `QUILLMARK_TIMEOUT`
- `QUILLMARK_WORKERS`

## Maintainers

- Sarah Johnson
- Taylor Stone

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.

Owned by the platform team.
__FORGE_EOF__
commit 2024-02-25T08:18:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Update defaults and ownership note
__FORGE_MSG__
git gc -q
