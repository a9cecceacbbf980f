#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/tinyq
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'David Gregory'
git config user.email david.gregory@tinyq.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='David Gregory' GIT_COMMITTER_EMAIL=david.gregory@tinyq.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# tinyq

_A tiny persistent job queue._

**Language:** Python · **License:** Apache-2.0

tinyq is maintained by a small team at Curry-Vega. It started as an internal tool in 2022 and is now used by a few teams.

## Features

- Durable FIFO queues on local disk
- Retry with backoff
- Offline mode
- A small CLI
- A plugin API

## Usage

```
pip install tinyq
tinyq --help
```

## Configuration

Settings are read from environment variables prefixed with `TINYQ_`:

- `TINYQ_COLOR`
- `TINYQ_WORKERS`
- `TINYQ_LOG_LEVEL`

## Maintainers

- Patricia Green
- Nathan Hancock
- David Gregory
- Becky Williams

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
0.6.6
__FORGE_EOF__
mkdir -p "$(dirname pyproject.toml)"
cat > pyproject.toml <<'__FORGE_EOF__'
[project]
name = "tinyq"
version = "0.6.6"
description = "A tiny persistent job queue"
requires-python = ">=3.9"
__FORGE_EOF__
mkdir -p "$(dirname src/tinyq/__init__.py)"
cat > src/tinyq/__init__.py <<'__FORGE_EOF__'
"""tinyq: A tiny persistent job queue."""

__version__ = "0.6.6"
__FORGE_EOF__
mkdir -p "$(dirname src/tinyq/sync.py)"
cat > src/tinyq/sync.py <<'__FORGE_EOF__'
"""tinyq: sync settings."""

BATCH_SIZE = 8
INTERVAL_S = 128
MAX_LAG_S = 1000
CONCURRENCY = 100
__FORGE_EOF__
mkdir -p "$(dirname src/tinyq/storage.py)"
cat > src/tinyq/storage.py <<'__FORGE_EOF__'
"""tinyq: storage settings."""

PAGE_SIZE = 16
CACHE_TTL_S = 10
MAX_ITEMS = 2
FLUSH_EVERY = 16
__FORGE_EOF__
mkdir -p "$(dirname src/tinyq/report.py)"
cat > src/tinyq/report.py <<'__FORGE_EOF__'
"""tinyq: report settings."""

TOP_N = 25
DECIMALS = 45
COLUMN_WIDTH = 500
MAX_ROWS = 120
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# tinyq defaults (overridden by environment variables)

[core]
timeout = 15
retries = 8
log_level = error

[cache]
ttl = 300
size_mb = 1024

[health]
interval = 5
unhealthy_threshold = 5
__FORGE_EOF__
mkdir -p "$(dirname plugins.txt)"
cat > plugins.txt <<'__FORGE_EOF__'
auth-oidc
export-csv
i18n
notify-email
ratelimit
thumbnails
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to tinyq are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [0.6.6] - 2024-02-18

### Fixed
- Retry delay ignored the configured maximum.
- Unicode file names in reports.

## [0.6.5] - 2024-01-19

### Fixed
- Crash when the config file is empty.
- Retry delay ignored the configured maximum.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
__pycache__/
*.log
/build/
__FORGE_EOF__
commit 2024-03-10T10:38:00+00:00 'David Gregory' david.gregory@tinyq.dev <<'__FORGE_MSG__'
Initial import of tinyq 0.6.6
__FORGE_MSG__
mkdir -p "$(dirname src/tinyq/sync.py)"
cat > src/tinyq/sync.py <<'__FORGE_EOF__'
"""tinyq: sync settings."""

BATCH_SIZE = 8
INTERVAL_S = 5
MAX_LAG_S = 1000
CONCURRENCY = 100
__FORGE_EOF__
commit 2024-03-11T14:27:00+00:00 'Patricia Green' patricia.green@tinyq.dev <<'__FORGE_MSG__'
Tune sync INTERVAL_S (128 -> 5)
__FORGE_MSG__
mkdir -p "$(dirname docs/performance.md)"
cat > docs/performance.md <<'__FORGE_EOF__'
# Performance

1. Rotate the log files daily.
2. Check the installed version with `tinyq --version`.
3. Read the CHANGELOG before upgrading across a minor version.
__FORGE_EOF__
commit 2024-03-14T23:46:00+00:00 'Nathan Hancock' nathan.hancock@tinyq.dev <<'__FORGE_MSG__'
Document performance
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# tinyq defaults (overridden by environment variables)

[core]
timeout = 15
retries = 3
log_level = error

[cache]
ttl = 300
size_mb = 1024

[health]
interval = 5
unhealthy_threshold = 5
__FORGE_EOF__
commit 2024-03-18T06:30:00+00:00 'Becky Williams' becky.williams@tinyq.dev <<'__FORGE_MSG__'
config: core.retries = 3
__FORGE_MSG__
mkdir -p "$(dirname docs/upgrading.md)"
cat > docs/upgrading.md <<'__FORGE_EOF__'
# Upgrading

1. Run with `LOG_LEVEL=debug` to see every request.
2. Rotate the log files daily.
3. Keep `config/defaults.ini` under version control.
__FORGE_EOF__
commit 2024-03-21T14:18:00+00:00 'David Gregory' david.gregory@tinyq.dev <<'__FORGE_MSG__'
docs: add upgrading page
__FORGE_MSG__
mkdir -p "$(dirname docs/troubleshooting.md)"
cat > docs/troubleshooting.md <<'__FORGE_EOF__'
# Troubleshooting

1. Check the installed version with `tinyq --version`.
2. Rotate the log files daily.
3. Run with `LOG_LEVEL=debug` to see every request.
__FORGE_EOF__
commit 2024-03-24T15:59:00+00:00 'Nathan Hancock' nathan.hancock@tinyq.dev <<'__FORGE_MSG__'
Add troubleshooting guide
__FORGE_MSG__
git gc -q
