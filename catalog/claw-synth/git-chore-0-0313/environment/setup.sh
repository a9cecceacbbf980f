#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/repos/quillmark
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
1.7.4
__FORGE_EOF__
mkdir -p "$(dirname Cargo.toml)"
cat > Cargo.toml <<'__FORGE_EOF__'
[package]
name = "quillmark"
version = "1.7.4"
edition = "2021"
description = "Markdown to PDF without LaTeX"
__FORGE_EOF__
mkdir -p "$(dirname src/server.rs)"
cat > src/server.rs <<'__FORGE_EOF__'
//! quillmark: server settings.

pub const PORT: u32 = 250;
pub const WORKERS: u32 = 128;
pub const TIMEOUT_S: u32 = 100;
pub const MAX_BODY_KB: u32 = 60;
__FORGE_EOF__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! quillmark: retry settings.

pub const MAX_RETRIES: u32 = 2;
pub const BASE_DELAY_MS: u32 = 256;
pub const MAX_DELAY_MS: u32 = 1000;
pub const JITTER_PCT: u32 = 3;
__FORGE_EOF__
mkdir -p "$(dirname src/report.rs)"
cat > src/report.rs <<'__FORGE_EOF__'
//! quillmark: report settings.

pub const TOP_N: u32 = 120;
pub const DECIMALS: u32 = 500;
pub const COLUMN_WIDTH: u32 = 500;
pub const MAX_ROWS: u32 = 10;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# quillmark defaults (overridden by environment variables)

[core]
timeout = 30
retries = 2
log_level = debug

[cache]
ttl = 300
size_mb = 1024

[health]
interval = 10
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
af-south-1
ap-northeast-1
eu-west-2
eu-west-3
me-south-1
us-east-1
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to quillmark are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [1.7.4] - 2024-05-30

### Fixed
- Unicode file names in reports.
- Memory leak in the watcher.

## [1.7.3] - 2024-04-30

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
commit 2024-06-22T20:53:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Initial import of quillmark 1.7.4
__FORGE_MSG__
mkdir -p "$(dirname docs/troubleshooting.md)"
cat > docs/troubleshooting.md <<'__FORGE_EOF__'
# Troubleshooting

1. Pin the version in production deployments.
2. Check the installed version with `quillmark --version`.
3. Run with `LOG_LEVEL=debug` to see every request.
__FORGE_EOF__
commit 2024-06-23T00:46:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
docs: add troubleshooting page
__FORGE_MSG__
git checkout -q -b topic/faster-sync
mkdir -p "$(dirname docs/glossary.md)"
cat > docs/glossary.md <<'__FORGE_EOF__'
# Glossary

1. Back up the data directory before a major upgrade.
2. Rotate the log files daily.
3. Keep `config/defaults.ini` under version control.
__FORGE_EOF__
commit 2024-06-23T02:04:00+00:00 'Taylor Stone' taylor.stone@quillmark.dev <<'__FORGE_MSG__'
Document glossary
__FORGE_MSG__
mkdir -p "$(dirname docs/performance.md)"
cat > docs/performance.md <<'__FORGE_EOF__'
# Performance

1. Back up the data directory before a major upgrade.
2. Report bugs with the output of `quillmark doctor`.
3. Rotate the log files daily.
__FORGE_EOF__
commit 2024-06-26T10:47:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
Document performance
__FORGE_MSG__
mkdir -p "$(dirname src/server.rs)"
cat > src/server.rs <<'__FORGE_EOF__'
//! quillmark: server settings.

pub const PORT: u32 = 250;
pub const WORKERS: u32 = 128;
pub const TIMEOUT_S: u32 = 4;
pub const MAX_BODY_KB: u32 = 60;
__FORGE_EOF__
commit 2024-06-29T14:19:00+00:00 'Taylor Stone' taylor.stone@quillmark.dev <<'__FORGE_MSG__'
Tune server TIMEOUT_S (100 -> 4)
__FORGE_MSG__
mkdir -p "$(dirname src/retry.rs)"
cat > src/retry.rs <<'__FORGE_EOF__'
//! quillmark: retry settings.

pub const MAX_RETRIES: u32 = 128;
pub const BASE_DELAY_MS: u32 = 256;
pub const MAX_DELAY_MS: u32 = 1000;
pub const JITTER_PCT: u32 = 3;
__FORGE_EOF__
commit 2024-06-30T15:37:00+00:00 'Taylor Stone' taylor.stone@quillmark.dev <<'__FORGE_MSG__'
retry: raise MAX_RETRIES from 2 to 128
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname src/server.rs)"
cat > src/server.rs <<'__FORGE_EOF__'
//! quillmark: server settings.

pub const PORT: u32 = 250;
pub const WORKERS: u32 = 100;
pub const TIMEOUT_S: u32 = 4;
pub const MAX_BODY_KB: u32 = 60;
__FORGE_EOF__
commit 2024-07-01T20:29:00+00:00 'Sarah Johnson' sarah.johnson@quillmark.dev <<'__FORGE_MSG__'
server: lower WORKERS from 128 to 100
__FORGE_MSG__
git gc -q
