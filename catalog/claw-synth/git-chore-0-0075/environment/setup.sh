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
0.1.0
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
const Version = "0.1.0"
__FORGE_EOF__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of netpulse.
package report

const (
	TopN = 80
	Decimals = 16
	ColumnWidth = 250
	MaxRows = 100
)
__FORGE_EOF__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of netpulse.
package retry

const (
	MaxRetries = 120
	BaseDelayMs = 80
	MaxDelayMs = 4
	JitterPct = 60
)
__FORGE_EOF__
mkdir -p "$(dirname internal/storage/storage.go)"
cat > internal/storage/storage.go <<'__FORGE_EOF__'
// Package storage holds the storage settings of netpulse.
package storage

const (
	PageSize = 250
	CacheTtlS = 250
	MaxItems = 50
	FlushEvery = 250
)
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# netpulse defaults (overridden by environment variables)

[core]
timeout = 15
retries = 2
log_level = error

[cache]
ttl = 900
size_mb = 128

[health]
interval = 10
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-ldap
auth-oidc
geoip
healthcheck
search
thumbnails
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to netpulse are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [0.1.0] - 2024-03-16

### Fixed
- Timezone handling of `--since`.
- Unicode file names in reports.

## [0.0.4] - 2024-02-15

### Fixed
- Unicode file names in reports.
- Crash when the config file is empty.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-04-05T10:47:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Initial import of netpulse 0.1.0
__FORGE_MSG__
mkdir -p "$(dirname docs/installation.md)"
cat > docs/installation.md <<'__FORGE_EOF__'
# Installation

1. Keep `config/defaults.ini` under version control.
2. Run with `LOG_LEVEL=debug` to see every request.
3. Check the installed version with `netpulse --version`.
__FORGE_EOF__
commit 2024-04-07T17:32:00+00:00 'Larry Sutton' larry.sutton@netpulse.dev <<'__FORGE_MSG__'
Document installation
__FORGE_MSG__
git checkout -q -b topic/rollout
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
audit
auth-ldap
auth-oidc
geoip
healthcheck
notify-slack
ratelimit
search
thumbnails
webhooks
__FORGE_EOF__
commit 2024-04-10T02:19:00+00:00 'Erin Koch' erin.koch@netpulse.dev <<'__FORGE_MSG__'
Add ratelimit, notify-slack and more to plugins.txt
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# netpulse defaults (overridden by environment variables)

[core]
timeout = 45
retries = 3
log_level = error

[cache]
ttl = 900
size_mb = 128

[health]
interval = 30
unhealthy_threshold = 5
__FORGE_EOF__
commit 2024-04-10T10:48:00+00:00 'Matthew Santiago' matthew.santiago@netpulse.dev <<'__FORGE_MSG__'
Adjust defaults for the new hosts
__FORGE_MSG__
mkdir -p "$(dirname docs/security.md)"
cat > docs/security.md <<'__FORGE_EOF__'
# Security

1. Read the CHANGELOG before upgrading across a minor version.
2. Rotate the log files daily.
3. Check the installed version with `netpulse --version`.
__FORGE_EOF__
commit 2024-04-13T20:18:00+00:00 'Larry Sutton' larry.sutton@netpulse.dev <<'__FORGE_MSG__'
Add security guide
__FORGE_MSG__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of netpulse.
package report

const (
	TopN = 250
	Decimals = 16
	ColumnWidth = 250
	MaxRows = 100
)
__FORGE_EOF__
commit 2024-04-16T22:03:00+00:00 'Larry Sutton' larry.sutton@netpulse.dev <<'__FORGE_MSG__'
Tune report TopN (80 -> 250)
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-ldap
auth-oidc
export-csv
geoip
healthcheck
notify-email
search
thumbnails
webhooks
__FORGE_EOF__
commit 2024-04-17T23:03:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Enable export-csv and notify-email
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# netpulse defaults (overridden by environment variables)

[core]
timeout = 60
retries = 2
log_level = error

[cache]
ttl = 900
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 3
__FORGE_EOF__
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

Owned by the infra team.
__FORGE_EOF__
commit 2024-04-21T04:52:00+00:00 'Molly Park' molly.park@netpulse.dev <<'__FORGE_MSG__'
Raise defaults after load test
__FORGE_MSG__
git gc -q
