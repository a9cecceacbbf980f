#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/quillmark
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
1.3.1
__FORGE_EOF__
mkdir -p "$(dirname Cargo.toml)"
cat > Cargo.toml <<'__FORGE_EOF__'
[package]
name = "quillmark"
version = "1.3.1"
edition = "2021"
description = "Markdown to PDF without LaTeX"
__FORGE_EOF__
mkdir -p "$(dirname src/storage.rs)"
cat > src/storage.rs <<'__FORGE_EOF__'
//! quillmark: storage settings.

pub const PAGE_SIZE: u32 = 60;
pub const CACHE_TTL_S: u32 = 64;
pub const MAX_ITEMS: u32 = 100;
pub const FLUSH_EVERY: u32 = 5;
__FORGE_EOF__
mkdir -p "$(dirname src/report.rs)"
cat > src/report.rs <<'__FORGE_EOF__'
//! quillmark: report settings.

pub const TOP_N: u32 = 100;
pub const DECIMALS: u32 = 12;
pub const COLUMN_WIDTH: u32 = 60;
pub const MAX_ROWS: u32 = 250;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! quillmark: retry settings.

pub const MAX_RETRIES: u32 = 100;
pub const BASE_DELAY_MS: u32 = 60;
pub const MAX_DELAY_MS: u32 = 5;
pub const JITTER_PCT: u32 = 120;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# quillmark defaults (overridden by environment variables)

[core]
timeout = 30
retries = 2
log_level = error

[cache]
ttl = 300
size_mb = 256

[health]
interval = 30
unhealthy_threshold = 5
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
audit
auth-ldap
auth-oidc
i18n
metrics
thumbnails
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to quillmark are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [1.3.1] - 2024-03-27

### Fixed
- Timezone handling of `--since`.
- Crash when the config file is empty.

## [1.3.0] - 2024-02-26

### Fixed
- Memory leak in the watcher.
- Retry delay ignored the configured maximum.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-04-19T15:17:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Initial import of quillmark 1.3.1
__FORGE_MSG__
mkdir -p "$(dirname docs/faq.md)"
cat > docs/faq.md <<'__FORGE_EOF__'
# Faq

1. Report bugs with the output of `quillmark doctor`.
2. Read the CHANGELOG before upgrading across a minor version.
3. Pin the version in production deployments.
__FORGE_EOF__
commit 2024-04-19T20:01:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Add faq guide
__FORGE_MSG__
mkdir -p "$(dirname docs/deployment.md)"
cat > docs/deployment.md <<'__FORGE_EOF__'
# Deployment

1. Run with `LOG_LEVEL=debug` to see every request.
2. Report bugs with the output of `quillmark doctor`.
3. Rotate the log files daily.
__FORGE_EOF__
commit 2024-04-23T02:43:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Add deployment guide
__FORGE_MSG__
mkdir -p "$(dirname src/report.rs)"
cat > src/report.rs <<'__FORGE_EOF__'
//! quillmark: report settings.

pub const TOP_N: u32 = 100;
pub const DECIMALS: u32 = 12;
pub const COLUMN_WIDTH: u32 = 60;
pub const MAX_ROWS: u32 = 5;
__FORGE_EOF__
commit 2024-04-26T06:56:00+00:00 'Taylor Stone' taylor.stone@quillmark.dev <<'__FORGE_MSG__'
Tune report MAX_ROWS (250 -> 5)
__FORGE_MSG__
git gc -q
