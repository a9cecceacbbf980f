#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/netpulse
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
2.8.0
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
const Version = "2.8.0"
__FORGE_EOF__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 256
	BaseDelayMs = 60
	MaxDelayMs = 16
	JitterPct = 100
)
__FORGE_EOF__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of netpulse.
package report

const (
	TopN = 20
	Decimals = 128
	ColumnWidth = 10
	MaxRows = 64
)
__FORGE_EOF__
mkdir -p "$(dirname internal/server/server.go)"
cat > internal/server/server.go <<'__FORGE_EOF__'
// Package server holds the server settings of netpulse.
package server

const (
	Port = 4
	Workers = 256
	TimeoutS = 30
	MaxBodyKb = 12
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
ttl = 300
size_mb = 1024

[health]
interval = 10
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
api.example.com
cdn.example.net
git.internal
metrics.internal
queue.internal
www.example.com
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to netpulse are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [2.8.0] - 2024-04-18

### Fixed
- Unicode file names in reports.
- Timezone handling of `--since`.

## [2.7.4] - 2024-03-19

### Fixed
- Memory leak in the watcher.
- Crash when the config file is empty.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-05-08T19:21:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Initial import of netpulse 2.8.0
__FORGE_MSG__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 256
	BaseDelayMs = 60
	MaxDelayMs = 5
	JitterPct = 100
)
__FORGE_EOF__
commit 2024-05-09T04:19:00+00:00 'Matthew Santiago' matthew.santiago@netpulse.dev <<'__FORGE_MSG__'
Tune retry MaxDelayMs (16 -> 5)
__FORGE_MSG__
git checkout -q -b maint/2.8.x
mkdir -p "$(dirname docs/deployment.md)"
cat > docs/deployment.md <<'__FORGE_EOF__'
# Deployment

1. Pin the version in production deployments.
2. Keep `config/defaults.ini` under version control.
3. Rotate the log files daily.
__FORGE_EOF__
commit 2024-05-10T09:21:00+00:00 'Erin Koch' erin.koch@netpulse.dev <<'__FORGE_MSG__'
Add deployment guide
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname docs/release-process.md)"
cat > docs/release-process.md <<'__FORGE_EOF__'
# Release process

1. Run with `LOG_LEVEL=debug` to see every request.
2. Report bugs with the output of `netpulse doctor`.
3. Pin the version in production deployments.
__FORGE_EOF__
commit 2024-05-11T14:13:00+00:00 'Erin Koch' erin.koch@netpulse.dev <<'__FORGE_MSG__'
docs: add release-process page
__FORGE_MSG__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 256
	BaseDelayMs = 60
	MaxDelayMs = 5
	JitterPct = 80
)
__FORGE_EOF__
commit 2024-05-13T18:52:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Lower JitterPct to 80 in retry
__FORGE_MSG__
mkdir -p "$(dirname internal/server/server.go)"
cat > internal/server/server.go <<'__FORGE_EOF__'
// Package server holds the server settings of netpulse.
package server

const (
	Port = 128
	Workers = 256
	TimeoutS = 30
	MaxBodyKb = 12
)
__FORGE_EOF__
commit 2024-05-14T23:41:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Tune server Port (4 -> 128)
__FORGE_MSG__
git gc -q
