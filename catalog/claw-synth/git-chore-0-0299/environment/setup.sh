#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/lintel
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Theresa Duncan'
git config user.email theresa.duncan@lintel.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Theresa Duncan' GIT_COMMITTER_EMAIL=theresa.duncan@lintel.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# lintel

_A pluggable linter for YAML pipelines._

**Language:** Python · **License:** MPL-2.0

lintel is maintained by a small team at Hernandez, Patterson and Brown. It started as an internal tool in 2016 and is now used by a few teams.

## Features

- Custom rule packs
- SARIF output
- Zero runtime dependencies
- Configuration via environment variables
- A small CLI

## Usage

```
pip install lintel
lintel --help
```

## Configuration

Settings are read from environment variables prefixed with `LINTEL_`:

- `LINTEL_CACHE_TTL`
- `LINTEL_WORKERS`
- `LINTEL_DATA_DIR`

## Maintainers

- Monica Brooks
- Sara Wright
- Theresa Duncan
- James Flowers

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
3.7.5
__FORGE_EOF__
mkdir -p "$(dirname pyproject.toml)"
cat > pyproject.toml <<'__FORGE_EOF__'
[project]
name = "lintel"
version = "3.7.5"
description = "A pluggable linter for YAML pipelines"
requires-python = ">=3.9"
__FORGE_EOF__
mkdir -p "$(dirname src/lintel/__init__.py)"
cat > src/lintel/__init__.py <<'__FORGE_EOF__'
"""lintel: A pluggable linter for YAML pipelines."""

__version__ = "3.7.5"
__FORGE_EOF__
mkdir -p "$(dirname src/lintel/sync.py)"
cat > src/lintel/sync.py <<'__FORGE_EOF__'
"""lintel: sync settings."""

BATCH_SIZE = 128
INTERVAL_S = 12
MAX_LAG_S = 120
CONCURRENCY = 20
__FORGE_EOF__
mkdir -p "$(dirname src/lintel/server.py)"
cat > src/lintel/server.py <<'__FORGE_EOF__'
"""lintel: server settings."""

PORT = 250
WORKERS = 50
TIMEOUT_S = 64
MAX_BODY_KB = 20
__FORGE_EOF__
mkdir -p "$(dirname src/lintel/report.py)"
cat > src/lintel/report.py <<'__FORGE_EOF__'
"""lintel: report settings."""

TOP_N = 12
DECIMALS = 20
COLUMN_WIDTH = 1000
MAX_ROWS = 2
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# lintel defaults (overridden by environment variables)

[core]
timeout = 60
retries = 2
log_level = warning

[cache]
ttl = 300
size_mb = 1024

[health]
interval = 5
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
af-south-1
ap-northeast-1
eu-central-1
eu-west-3
me-south-1
us-east-2
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to lintel are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.7.5] - 2024-05-24

### Fixed
- Unicode file names in reports.
- Timezone handling of `--since`.

## [3.7.4] - 2024-04-24

### Fixed
- Retry delay ignored the configured maximum.
- Wrong exit code on `--help`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
__pycache__/
*.log
/build/
__FORGE_EOF__
commit 2024-06-16T14:36:00+00:00 'Theresa Duncan' theresa.duncan@lintel.dev <<'__FORGE_MSG__'
Initial import of lintel 3.7.5
__FORGE_MSG__
mkdir -p "$(dirname src/lintel/report.py)"
cat > src/lintel/report.py <<'__FORGE_EOF__'
"""lintel: report settings."""

TOP_N = 12
DECIMALS = 20
COLUMN_WIDTH = 1000
MAX_ROWS = 20
__FORGE_EOF__
commit 2024-06-19T16:17:00+00:00 'Monica Brooks' monica.brooks@lintel.dev <<'__FORGE_MSG__'
Raise MAX_ROWS to 20 in report
__FORGE_MSG__
git checkout -q -b topic/faster-sync
mkdir -p "$(dirname src/lintel/sync.py)"
cat > src/lintel/sync.py <<'__FORGE_EOF__'
"""lintel: sync settings."""

BATCH_SIZE = 128
INTERVAL_S = 12
MAX_LAG_S = 120
CONCURRENCY = 128
__FORGE_EOF__
commit 2024-06-21T23:02:00+00:00 'Monica Brooks' monica.brooks@lintel.dev <<'__FORGE_MSG__'
Tune sync CONCURRENCY (20 -> 128)
__FORGE_MSG__
mkdir -p "$(dirname src/lintel/report.py)"
cat > src/lintel/report.py <<'__FORGE_EOF__'
"""lintel: report settings."""

TOP_N = 12
DECIMALS = 20
COLUMN_WIDTH = 8
MAX_ROWS = 20
__FORGE_EOF__
commit 2024-06-24T07:01:00+00:00 'James Flowers' james.flowers@lintel.dev <<'__FORGE_MSG__'
Tune report COLUMN_WIDTH (1000 -> 8)
__FORGE_MSG__
mkdir -p "$(dirname src/lintel/server.py)"
cat > src/lintel/server.py <<'__FORGE_EOF__'
"""lintel: server settings."""

PORT = 250
WORKERS = 50
TIMEOUT_S = 64
MAX_BODY_KB = 16
__FORGE_EOF__
commit 2024-06-25T13:20:00+00:00 'Monica Brooks' monica.brooks@lintel.dev <<'__FORGE_MSG__'
Tune server MAX_BODY_KB (20 -> 16)
__FORGE_MSG__
mkdir -p "$(dirname docs/performance.md)"
cat > docs/performance.md <<'__FORGE_EOF__'
# Performance

1. Report bugs with the output of `lintel doctor`.
2. Keep `config/defaults.ini` under version control.
3. Rotate the log files daily.
__FORGE_EOF__
commit 2024-06-28T18:11:00+00:00 'Theresa Duncan' theresa.duncan@lintel.dev <<'__FORGE_MSG__'
docs: add performance page
__FORGE_MSG__
git checkout -q main
git gc -q
