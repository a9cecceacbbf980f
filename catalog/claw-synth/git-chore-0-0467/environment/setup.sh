#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/repos/netpulse
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Molly Park'
git config user.email molly.park@netpulse.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Molly Park' GIT_COMMITTER_EMAIL=molly.park@netpulse.dev

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
2.7.2
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
const Version = "2.7.2"
__FORGE_EOF__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of netpulse.
package report

const (
	TopN = 50
	Decimals = 120
	ColumnWidth = 5
	MaxRows = 1000
)
__FORGE_EOF__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 80
	BaseDelayMs = 4
	MaxDelayMs = 256
	JitterPct = 100
)
__FORGE_EOF__
mkdir -p "$(dirname internal/server/server.go)"
cat > internal/server/server.go <<'__FORGE_EOF__'
// Package server holds the server settings of netpulse.
package server

const (
	Port = 50
	Workers = 20
	TimeoutS = 500
	MaxBodyKb = 3
)
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# netpulse defaults (overridden by environment variables)

[core]
timeout = 60
retries = 5
log_level = debug

[cache]
ttl = 60
size_mb = 256

[health]
interval = 30
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
api.example.com
auth.example.com
db.internal
mail.example.com
metrics.internal
status.example.com
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to netpulse are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [2.7.2] - 2024-03-29

### Fixed
- Crash when the config file is empty.
- Memory leak in the watcher.

## [2.7.1] - 2024-02-28

### Fixed
- Timezone handling of `--since`.
- Wrong exit code on `--help`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-04-19T14:51:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Initial import of netpulse 2.7.2
__FORGE_MSG__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 80
	BaseDelayMs = 4
	MaxDelayMs = 256
	JitterPct = 20
)
__FORGE_EOF__
commit 2024-04-19T23:52:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Tune retry JitterPct (100 -> 20)
__FORGE_MSG__
git checkout -q -b wip/report-tuning
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of netpulse.
package report

const (
	TopN = 50
	Decimals = 500
	ColumnWidth = 5
	MaxRows = 1000
)
__FORGE_EOF__
commit 2024-04-22T07:27:00+00:00 'Matthew Santiago' matthew.santiago@netpulse.dev <<'__FORGE_MSG__'
report: raise Decimals from 120 to 500
__FORGE_MSG__
mkdir -p "$(dirname internal/server/server.go)"
cat > internal/server/server.go <<'__FORGE_EOF__'
// Package server holds the server settings of netpulse.
package server

const (
	Port = 2
	Workers = 20
	TimeoutS = 500
	MaxBodyKb = 3
)
__FORGE_EOF__
commit 2024-04-23T14:14:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Tune server Port (50 -> 2)
__FORGE_MSG__
mkdir -p "$(dirname docs/installation.md)"
cat > docs/installation.md <<'__FORGE_EOF__'
# Installation

1. Rotate the log files daily.
2. Back up the data directory before a major upgrade.
3. Keep `config/defaults.ini` under version control.
__FORGE_EOF__
commit 2024-04-26T21:01:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Add installation guide
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname docs/release-process.md)"
cat > docs/release-process.md <<'__FORGE_EOF__'
# Release process

1. Rotate the log files daily.
2. Report bugs with the output of `netpulse doctor`.
3. Run with `LOG_LEVEL=debug` to see every request.
__FORGE_EOF__
commit 2024-04-28T01:22:00+00:00 'Larry Sutton' larry.sutton@netpulse.dev <<'__FORGE_MSG__'
Document release-process
__FORGE_MSG__
git gc -q
