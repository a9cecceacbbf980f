#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/pgsnap
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Elijah Bryan'
git config user.email elijah.bryan@pgsnap.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Elijah Bryan' GIT_COMMITTER_EMAIL=elijah.bryan@pgsnap.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# pgsnap

_Point-in-time snapshots for PostgreSQL._

**Language:** Go · **License:** BSD-3-Clause

pgsnap is maintained by a small team at Clark-Beltran. It started as an internal tool in 2017 and is now used by a few teams.

## Features

- Incremental snapshots
- S3 upload
- Configuration via environment variables
- Structured JSON logs
- Zero runtime dependencies

## Usage

```
go install example.com/pgsnap@latest
pgsnap version
```

## Configuration

Settings are read from environment variables prefixed with `PGSNAP_`:

- `PGSNAP_CACHE_TTL`
- `PGSNAP_TIMEOUT`
- `PGSNAP_COLOR`

## Maintainers

- Calvin Harris
- Elijah Bryan

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
3.4.1
__FORGE_EOF__
mkdir -p "$(dirname go.mod)"
cat > go.mod <<'__FORGE_EOF__'
module example.com/pgsnap

go 1.21
__FORGE_EOF__
mkdir -p "$(dirname version.go)"
cat > version.go <<'__FORGE_EOF__'
package main

// Version is the released version of pgsnap.
const Version = "3.4.1"
__FORGE_EOF__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of pgsnap.
package report

const (
	TopN = 30
	Decimals = 128
	ColumnWidth = 30
	MaxRows = 128
)
__FORGE_EOF__
mkdir -p "$(dirname internal/sync/sync.go)"
cat > internal/sync/sync.go <<'__FORGE_EOF__'
// Package sync holds the sync settings of pgsnap.
package sync

const (
	BatchSize = 16
	IntervalS = 50
	MaxLagS = 20
	Concurrency = 8
)
__FORGE_EOF__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of pgsnap.
package retry

const (
	MaxRetries = 50
	BaseDelayMs = 120
	MaxDelayMs = 64
	JitterPct = 10
)
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# pgsnap defaults (overridden by environment variables)

[core]
timeout = 90
retries = 4
log_level = warning

[cache]
ttl = 60
size_mb = 256

[health]
interval = 15
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-ldap
cache-redis
export-parquet
search
thumbnails
webhooks
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to pgsnap are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.4.1] - 2024-01-04

### Fixed
- Timezone handling of `--since`.
- Crash when the config file is empty.

## [3.4.0] - 2023-12-05

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
commit 2024-01-26T12:20:00+00:00 'Elijah Bryan' elijah.bryan@pgsnap.dev <<'__FORGE_MSG__'
Initial import of pgsnap 3.4.1
__FORGE_MSG__
mkdir -p "$(dirname docs/release-process.md)"
cat > docs/release-process.md <<'__FORGE_EOF__'
# Release process

1. Back up the data directory before a major upgrade.
2. Run with `LOG_LEVEL=debug` to see every request.
3. Pin the version in production deployments.
__FORGE_EOF__
commit 2024-01-28T21:35:00+00:00 'Calvin Harris' calvin.harris@pgsnap.dev <<'__FORGE_MSG__'
Add release-process guide
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to pgsnap are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Fixed
- Lock file left behind on SIGTERM.

## [3.4.1] - 2024-01-04

### Fixed
- Timezone handling of `--since`.
- Crash when the config file is empty.

## [3.4.0] - 2023-12-05

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.
__FORGE_EOF__
commit 2024-01-30T06:36:00+00:00 'Elijah Bryan' elijah.bryan@pgsnap.dev <<'__FORGE_MSG__'
CHANGELOG: note lock file left behind on sigterm
__FORGE_MSG__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of pgsnap.
package retry

const (
	MaxRetries = 50
	BaseDelayMs = 120
	MaxDelayMs = 64
	JitterPct = 12
)
__FORGE_EOF__
commit 2024-02-02T16:12:00+00:00 'Calvin Harris' calvin.harris@pgsnap.dev <<'__FORGE_MSG__'
Raise JitterPct to 12 in retry
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to pgsnap are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Fixed
- Lock file left behind on SIGTERM.
- Wrong totals when a row is repeated.

## [3.4.1] - 2024-01-04

### Fixed
- Timezone handling of `--since`.
- Crash when the config file is empty.

## [3.4.0] - 2023-12-05

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.
__FORGE_EOF__
commit 2024-02-04T02:05:00+00:00 'Elijah Bryan' elijah.bryan@pgsnap.dev <<'__FORGE_MSG__'
CHANGELOG: note wrong totals when a row is repeated
__FORGE_MSG__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of pgsnap.
package report

const (
	TopN = 45
	Decimals = 128
	ColumnWidth = 30
	MaxRows = 128
)
__FORGE_EOF__
commit 2024-02-05T11:26:00+00:00 'Calvin Harris' calvin.harris@pgsnap.dev <<'__FORGE_MSG__'
report: raise TopN from 30 to 45
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to pgsnap are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Added
- Support for a config file next to the binary.

### Fixed
- Lock file left behind on SIGTERM.
- Wrong totals when a row is repeated.

## [3.4.1] - 2024-01-04

### Fixed
- Timezone handling of `--since`.
- Crash when the config file is empty.

## [3.4.0] - 2023-12-05

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.
__FORGE_EOF__
commit 2024-02-05T20:32:00+00:00 'Elijah Bryan' elijah.bryan@pgsnap.dev <<'__FORGE_MSG__'
CHANGELOG: note support for a config file next to the bi
__FORGE_MSG__
mkdir -p "$(dirname internal/sync/sync.go)"
cat > internal/sync/sync.go <<'__FORGE_EOF__'
// Package sync holds the sync settings of pgsnap.
package sync

const (
	BatchSize = 16
	IntervalS = 10
	MaxLagS = 20
	Concurrency = 8
)
__FORGE_EOF__
commit 2024-02-07T00:27:00+00:00 'Calvin Harris' calvin.harris@pgsnap.dev <<'__FORGE_MSG__'
sync: lower IntervalS from 50 to 10
__FORGE_MSG__
cat > NOTES.txt <<'__FORGE_EOF__'
TODO before 4.0.0:
- ask Calvin Harris about the announcement
__FORGE_EOF__
git gc -q
