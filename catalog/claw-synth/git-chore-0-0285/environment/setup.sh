#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/brewlog
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Patricia Garner'
git config user.email patricia.garner@brewlog.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Patricia Garner' GIT_COMMITTER_EMAIL=patricia.garner@brewlog.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# brewlog

_Homebrew batch tracker._

**Language:** Python · **License:** MIT

brewlog is maintained by a small team at Gutierrez Group. It started as an internal tool in 2020 and is now used by a few teams.

## Features

- Recipe scaling
- Fermentation timeline
- Shell completions
- Structured JSON logs
- Configuration via environment variables

## Usage

```
pip install brewlog
brewlog --help
```

## Configuration

Settings are read from environment variables prefixed with `BREWLOG_`:

- `BREWLOG_WORKERS`
- `BREWLOG_TIMEOUT`
- `BREWLOG_DATA_DIR`

## Maintainers

- Patricia Garner
- Hannah Flores
- Desiree Howell

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
1.6.1
__FORGE_EOF__
mkdir -p "$(dirname pyproject.toml)"
cat > pyproject.toml <<'__FORGE_EOF__'
[project]
name = "brewlog"
version = "1.6.1"
description = "Homebrew batch tracker"
requires-python = ">=3.9"
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/__init__.py)"
cat > src/brewlog/__init__.py <<'__FORGE_EOF__'
"""brewlog: Homebrew batch tracker."""

__version__ = "1.6.1"
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/server.py)"
cat > src/brewlog/server.py <<'__FORGE_EOF__'
"""brewlog: server settings."""

PORT = 16
WORKERS = 4
TIMEOUT_S = 256
MAX_BODY_KB = 500
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/sync.py)"
cat > src/brewlog/sync.py <<'__FORGE_EOF__'
"""brewlog: sync settings."""

BATCH_SIZE = 5
INTERVAL_S = 8
MAX_LAG_S = 256
CONCURRENCY = 60
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/report.py)"
cat > src/brewlog/report.py <<'__FORGE_EOF__'
"""brewlog: report settings."""

TOP_N = 80
DECIMALS = 2
COLUMN_WIDTH = 30
MAX_ROWS = 100
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# brewlog defaults (overridden by environment variables)

[core]
timeout = 15
retries = 3
log_level = warning

[cache]
ttl = 300
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
api.example.com
auth.example.com
cdn.example.net
docs.example.com
git.internal
www.example.com
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to brewlog are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [1.6.1] - 2024-07-29

### Fixed
- Crash when the config file is empty.
- Retry delay ignored the configured maximum.

## [1.6.0] - 2024-06-29

### Fixed
- Memory leak in the watcher.
- Retry delay ignored the configured maximum.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
__pycache__/
*.log
/build/
__FORGE_EOF__
commit 2024-08-19T20:17:00+00:00 'Patricia Garner' patricia.garner@brewlog.dev <<'__FORGE_MSG__'
Initial import of brewlog 1.6.1
__FORGE_MSG__
mkdir -p "$(dirname src/brewlog/report.py)"
cat > src/brewlog/report.py <<'__FORGE_EOF__'
"""brewlog: report settings."""

TOP_N = 80
DECIMALS = 2
COLUMN_WIDTH = 30
MAX_ROWS = 20
__FORGE_EOF__
commit 2024-08-21T04:39:00+00:00 'Patricia Garner' patricia.garner@brewlog.dev <<'__FORGE_MSG__'
Tune report MAX_ROWS (100 -> 20)
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# brewlog defaults (overridden by environment variables)

[core]
timeout = 15
retries = 3
log_level = warning

[cache]
ttl = 300
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 5
__FORGE_EOF__
commit 2024-08-22T07:17:00+00:00 'Desiree Howell' desiree.howell@brewlog.dev <<'__FORGE_MSG__'
config: health.unhealthy_threshold = 5
__FORGE_MSG__
mkdir -p "$(dirname src/brewlog/sync.py)"
cat > src/brewlog/sync.py <<'__FORGE_EOF__'
"""brewlog: sync settings."""

BATCH_SIZE = 50
INTERVAL_S = 8
MAX_LAG_S = 256
CONCURRENCY = 60
__FORGE_EOF__
commit 2024-08-22T10:25:00+00:00 'Patricia Garner' patricia.garner@brewlog.dev <<'__FORGE_MSG__'
sync: raise BATCH_SIZE from 5 to 50
__FORGE_MSG__
git gc -q
