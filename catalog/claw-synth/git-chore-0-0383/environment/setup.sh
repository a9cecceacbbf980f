#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/repos/lintel
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Monica Brooks'
git config user.email monica.brooks@lintel.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Monica Brooks' GIT_COMMITTER_EMAIL=monica.brooks@lintel.dev

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
1.6.3
__FORGE_EOF__
mkdir -p "$(dirname pyproject.toml)"
cat > pyproject.toml <<'__FORGE_EOF__'
[project]
name = "lintel"
version = "1.6.3"
description = "A pluggable linter for YAML pipelines"
requires-python = ">=3.9"
__FORGE_EOF__
mkdir -p "$(dirname src/lintel/__init__.py)"
cat > src/lintel/__init__.py <<'__FORGE_EOF__'
"""lintel: A pluggable linter for YAML pipelines."""

__version__ = "1.6.3"
__FORGE_EOF__
mkdir -p "$(dirname src/lintel/sync.py)"
cat > src/lintel/sync.py <<'__FORGE_EOF__'
"""lintel: sync settings."""

BATCH_SIZE = 2
INTERVAL_S = 50
MAX_LAG_S = 500
CONCURRENCY = 2
__FORGE_EOF__
mkdir -p "$(dirname src/lintel/report.py)"
cat > src/lintel/report.py <<'__FORGE_EOF__'
"""lintel: report settings."""

TOP_N = 20
DECIMALS = 2
COLUMN_WIDTH = 1000
MAX_ROWS = 3
__FORGE_EOF__
mkdir -p "$(dirname src/lintel/storage.py)"
cat > src/lintel/storage.py <<'__FORGE_EOF__'
"""lintel: storage settings."""

PAGE_SIZE = 16
CACHE_TTL_S = 250
MAX_ITEMS = 16
FLUSH_EVERY = 3
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# lintel defaults (overridden by environment variables)

[core]
timeout = 90
retries = 5
log_level = warning

[cache]
ttl = 600
size_mb = 256

[health]
interval = 5
unhealthy_threshold = 5
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
api.example.com
auth.example.com
ci.internal
docs.example.com
git.internal
metrics.internal
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to lintel are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [1.6.3] - 2024-01-30

### Fixed
- Unicode file names in reports.
- Crash when the config file is empty.

## [1.6.2] - 2023-12-31

### Fixed
- Wrong exit code on `--help`.
- Timezone handling of `--since`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
__pycache__/
*.log
/build/
__FORGE_EOF__
commit 2024-02-19T13:21:00+00:00 'Monica Brooks' monica.brooks@lintel.dev <<'__FORGE_MSG__'
Initial import of lintel 1.6.3
__FORGE_MSG__
mkdir -p "$(dirname docs/security.md)"
cat > docs/security.md <<'__FORGE_EOF__'
# Security

1. Read the CHANGELOG before upgrading across a minor version.
2. Back up the data directory before a major upgrade.
3. Rotate the log files daily.
__FORGE_EOF__
commit 2024-02-19T16:56:00+00:00 'James Flowers' james.flowers@lintel.dev <<'__FORGE_MSG__'
Document security
__FORGE_MSG__
git checkout -q -b maint/1.6.x
mkdir -p "$(dirname docs/logging.md)"
cat > docs/logging.md <<'__FORGE_EOF__'
# Logging

1. Report bugs with the output of `lintel doctor`.
2. Back up the data directory before a major upgrade.
3. Check the installed version with `lintel --version`.
__FORGE_EOF__
commit 2024-02-22T21:05:00+00:00 'James Flowers' james.flowers@lintel.dev <<'__FORGE_MSG__'
Add logging guide
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname docs/upgrading.md)"
cat > docs/upgrading.md <<'__FORGE_EOF__'
# Upgrading

1. Keep `config/defaults.ini` under version control.
2. Report bugs with the output of `lintel doctor`.
3. Pin the version in production deployments.
__FORGE_EOF__
commit 2024-02-25T03:11:00+00:00 'James Flowers' james.flowers@lintel.dev <<'__FORGE_MSG__'
Add upgrading guide
__FORGE_MSG__
mkdir -p "$(dirname src/lintel/report.py)"
cat > src/lintel/report.py <<'__FORGE_EOF__'
"""lintel: report settings."""

TOP_N = 20
DECIMALS = 2
COLUMN_WIDTH = 20
MAX_ROWS = 3
__FORGE_EOF__
commit 2024-02-28T04:55:00+00:00 'Monica Brooks' monica.brooks@lintel.dev <<'__FORGE_MSG__'
Tune report COLUMN_WIDTH (1000 -> 20)
__FORGE_MSG__
mkdir -p "$(dirname src/lintel/sync.py)"
cat > src/lintel/sync.py <<'__FORGE_EOF__'
"""lintel: sync settings."""

BATCH_SIZE = 2
INTERVAL_S = 50
MAX_LAG_S = 80
CONCURRENCY = 2
__FORGE_EOF__
commit 2024-02-28T10:05:00+00:00 'Monica Brooks' monica.brooks@lintel.dev <<'__FORGE_MSG__'
Lower MAX_LAG_S to 80 in sync
__FORGE_MSG__
git gc -q
