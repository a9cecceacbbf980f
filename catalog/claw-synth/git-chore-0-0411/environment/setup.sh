#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/repos/pgsnap
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
0.4.2
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
const Version = "0.4.2"
__FORGE_EOF__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of pgsnap.
package report

const (
	TopN = 3
	Decimals = 1000
	ColumnWidth = 256
	MaxRows = 100
)
__FORGE_EOF__
mkdir -p "$(dirname internal/retry/retry.go)"
cat > internal/retry/retry.go <<'__FORGE_EOF__'
// Package retry holds the retry settings of pgsnap.
package retry

const (
	MaxRetries = 256
	BaseDelayMs = 256
	MaxDelayMs = 120
	JitterPct = 250
)
__FORGE_EOF__
mkdir -p "$(dirname internal/sync/sync.go)"
cat > internal/sync/sync.go <<'__FORGE_EOF__'
// Package sync holds the sync settings of pgsnap.
package sync

const (
	BatchSize = 1000
	IntervalS = 60
	MaxLagS = 3
	Concurrency = 20
)
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# pgsnap defaults (overridden by environment variables)

[core]
timeout = 45
retries = 2
log_level = error

[cache]
ttl = 60
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
auth.example.com
backup.internal
cdn.example.net
docs.example.com
status.example.com
www.example.com
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to pgsnap are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [0.4.2] - 2024-01-18

### Fixed
- Unicode file names in reports.
- Memory leak in the watcher.

## [0.4.1] - 2023-12-19

### Fixed
- Crash when the config file is empty.
- Memory leak in the watcher.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-02-08T19:03:00+00:00 'Elijah Bryan' elijah.bryan@pgsnap.dev <<'__FORGE_MSG__'
Initial import of pgsnap 0.4.2
__FORGE_MSG__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of pgsnap.
package report

const (
	TopN = 3
	Decimals = 1000
	ColumnWidth = 256
	MaxRows = 120
)
__FORGE_EOF__
commit 2024-02-09T00:15:00+00:00 'Calvin Harris' calvin.harris@pgsnap.dev <<'__FORGE_MSG__'
report: raise MaxRows from 100 to 120
__FORGE_MSG__
git checkout -q -b feature/next
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
api.example.com
auth.example.com
backup.internal
cdn.example.net
docs.example.com
git.internal
metrics.internal
queue.internal
status.example.com
www.example.com
__FORGE_EOF__
commit 2024-02-11T04:20:00+00:00 'Calvin Harris' calvin.harris@pgsnap.dev <<'__FORGE_MSG__'
Add metrics.internal, git.internal and more to allowed_hosts.txt
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# pgsnap defaults (overridden by environment variables)

[core]
timeout = 60
retries = 3
log_level = error

[cache]
ttl = 60
size_mb = 256

[health]
interval = 15
unhealthy_threshold = 5
__FORGE_EOF__
commit 2024-02-14T10:06:00+00:00 'Elijah Bryan' elijah.bryan@pgsnap.dev <<'__FORGE_MSG__'
Adjust defaults for the new hosts
__FORGE_MSG__
mkdir -p "$(dirname docs/glossary.md)"
cat > docs/glossary.md <<'__FORGE_EOF__'
# Glossary

1. Keep `config/defaults.ini` under version control.
2. Back up the data directory before a major upgrade.
3. Report bugs with the output of `pgsnap doctor`.
__FORGE_EOF__
commit 2024-02-17T19:22:00+00:00 'Calvin Harris' calvin.harris@pgsnap.dev <<'__FORGE_MSG__'
Add glossary guide
__FORGE_MSG__
mkdir -p "$(dirname internal/report/report.go)"
cat > internal/report/report.go <<'__FORGE_EOF__'
// Package report holds the report settings of pgsnap.
package report

const (
	TopN = 16
	Decimals = 1000
	ColumnWidth = 256
	MaxRows = 120
)
__FORGE_EOF__
commit 2024-02-21T04:28:00+00:00 'Elijah Bryan' elijah.bryan@pgsnap.dev <<'__FORGE_MSG__'
Raise TopN to 16 in report
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
auth.example.com
backup.internal
cdn.example.net
db.internal
docs.example.com
queue.internal
search.internal
status.example.com
www.example.com
__FORGE_EOF__
commit 2024-02-22T14:15:00+00:00 'Elijah Bryan' elijah.bryan@pgsnap.dev <<'__FORGE_MSG__'
Enable search.internal and db.internal
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# pgsnap defaults (overridden by environment variables)

[core]
timeout = 30
retries = 2
log_level = error

[cache]
ttl = 600
size_mb = 256

[health]
interval = 30
unhealthy_threshold = 3
__FORGE_EOF__
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

Owned by the core team.
__FORGE_EOF__
commit 2024-02-23T21:50:00+00:00 'Calvin Harris' calvin.harris@pgsnap.dev <<'__FORGE_MSG__'
Raise defaults after load test
__FORGE_MSG__
git gc -q
