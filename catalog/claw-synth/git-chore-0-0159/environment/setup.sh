#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/work/netpulse
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Matthew Santiago'
git config user.email matthew.santiago@netpulse.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Matthew Santiago' GIT_COMMITTER_EMAIL=matthew.santiago@netpulse.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# netpulse

_Synthetic uptime probes._

**Language:** Go · **License:** MPL-2.0

netpulse is maintained by a small team at Gaines, Cook and Weaver. It started as an internal tool in 2019 and is now used by a few teams.

## Features

- HTTP, TCP and DNS probes
- Prometheus metrics
- Structured JSON logs
- A small CLI
- Offline mode

## Usage

```
go install example.com/netpulse@latest
netpulse version
```

## Configuration

Settings are read from environment variables prefixed with `NETPULSE_`:

- `NETPULSE_TIMEOUT`
- `NETPULSE_LOG_LEVEL`
- `NETPULSE_COLOR`

## Maintainers

- Erin Koch
- Larry Sutton
- Matthew Santiago
- Molly Park

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
1.9.0
__FORGE_EOF__
mkdir -p "$(dirname go.mod)"
cat > go.mod <<'__FORGE_EOF__'
module example.com/netpulse

go 1.21
__FORGE_EOF__
mkdir -p "$(dirname version.go)"
cat > version.go <<'__FORGE_EOF__'
package main

// Version is the released version of netpulse.
const Version = "1.9.0"
__FORGE_EOF__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 1000
	BaseDelayMs = 45
	MaxDelayMs = 8
	JitterPct = 250
)
__FORGE_EOF__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of netpulse.
package report

const (
	TopN = 45
	Decimals = 256
	ColumnWidth = 100
	MaxRows = 5
)
__FORGE_EOF__
mkdir -p "$(dirname internal/server/server.go)"
cat > internal/server/server.go <<'__FORGE_EOF__'
// Package server holds the server settings of netpulse.
package server

const (
	Port = 500
	Workers = 60
	TimeoutS = 20
	MaxBodyKb = 8
)
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# netpulse defaults (overridden by environment variables)

[core]
timeout = 15
retries = 2
log_level = warning

[cache]
ttl = 60
size_mb = 256

[health]
interval = 30
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
af-south-1
ap-south-1
ap-southeast-2
eu-west-1
sa-east-1
us-east-1
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to netpulse are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [1.9.0] - 2024-05-02

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.

## [1.8.4] - 2024-04-02

### Fixed
- Memory leak in the watcher.
- Unicode file names in reports.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-05-25T18:50:00+00:00 'Matthew Santiago' matthew.santiago@netpulse.dev <<'__FORGE_MSG__'
Initial import of netpulse 1.9.0
__FORGE_MSG__
mkdir -p "$(dirname docs/backups.md)"
cat > docs/backups.md <<'__FORGE_EOF__'
# Backups

1. Check the installed version with `netpulse --version`.
2. Report bugs with the output of `netpulse doctor`.
3. Run with `LOG_LEVEL=debug` to see every request.
__FORGE_EOF__
commit 2024-05-29T04:05:00+00:00 'Larry Sutton' larry.sutton@netpulse.dev <<'__FORGE_MSG__'
Document backups
__FORGE_MSG__
mkdir -p "$(dirname secrets/api_key.txt)"
cat > secrets/api_key.txt <<'__FORGE_EOF__'
yxwHnVqdvUQVfg2z8Be6p8qGUjCZfpK6
__FORGE_EOF__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 1000
	BaseDelayMs = 45
	MaxDelayMs = 8
	JitterPct = 120
)
__FORGE_EOF__
commit 2024-05-31T07:52:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Add deploy configuration
__FORGE_MSG__
mkdir -p "$(dirname docs/architecture.md)"
cat > docs/architecture.md <<'__FORGE_EOF__'
# Architecture

1. Pin the version in production deployments.
2. Keep `config/defaults.ini` under version control.
3. Report bugs with the output of `netpulse doctor`.
__FORGE_EOF__
commit 2024-06-02T08:56:00+00:00 'Matthew Santiago' matthew.santiago@netpulse.dev <<'__FORGE_MSG__'
Add architecture guide
__FORGE_MSG__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 1000
	BaseDelayMs = 45
	MaxDelayMs = 8
	JitterPct = 45
)
__FORGE_EOF__
commit 2024-06-03T10:21:00+00:00 'Erin Koch' erin.koch@netpulse.dev <<'__FORGE_MSG__'
Tune retry JitterPct (120 -> 45)
__FORGE_MSG__
git gc -q
