#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/brewlog
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Desiree Howell'
git config user.email desiree.howell@brewlog.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Desiree Howell' GIT_COMMITTER_EMAIL=desiree.howell@brewlog.dev

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
3.8.2
__FORGE_EOF__
mkdir -p "$(dirname pyproject.toml)"
cat > pyproject.toml <<'__FORGE_EOF__'
[project]
name = "brewlog"
version = "3.8.2"
description = "Homebrew batch tracker"
requires-python = ">=3.9"
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/__init__.py)"
cat > src/brewlog/__init__.py <<'__FORGE_EOF__'
"""brewlog: Homebrew batch tracker."""

__version__ = "3.8.2"
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/sync.py)"
cat > src/brewlog/sync.py <<'__FORGE_EOF__'
"""brewlog: sync settings."""

BATCH_SIZE = 4
INTERVAL_S = 120
MAX_LAG_S = 12
CONCURRENCY = 250
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/storage.py)"
cat > src/brewlog/storage.py <<'__FORGE_EOF__'
"""brewlog: storage settings."""

PAGE_SIZE = 25
CACHE_TTL_S = 30
MAX_ITEMS = 20
FLUSH_EVERY = 4
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/retry.py)"
cat > src/brewlog/retry.py <<'__FORGE_EOF__'
"""brewlog: retry settings."""

MAX_RETRIES = 120
BASE_DELAY_MS = 1000
MAX_DELAY_MS = 500
JITTER_PCT = 64
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# brewlog defaults (overridden by environment variables)

[core]
timeout = 60
retries = 8
log_level = error

[cache]
ttl = 300
size_mb = 512

[health]
interval = 10
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
ap-northeast-1
eu-central-1
eu-west-1
eu-west-3
me-south-1
sa-east-1
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to brewlog are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.8.2] - 2024-08-15

### Fixed
- Retry delay ignored the configured maximum.
- Memory leak in the watcher.

## [3.8.1] - 2024-07-16

### Fixed
- Timezone handling of `--since`.
- Memory leak in the watcher.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
__pycache__/
*.log
/build/
__FORGE_EOF__
commit 2024-09-05T17:56:00+00:00 'Desiree Howell' desiree.howell@brewlog.dev <<'__FORGE_MSG__'
Initial import of brewlog 3.8.2
__FORGE_MSG__
mkdir -p "$(dirname docs/faq.md)"
cat > docs/faq.md <<'__FORGE_EOF__'
# Faq

1. Keep `config/defaults.ini` under version control.
2. Rotate the log files daily.
3. Report bugs with the output of `brewlog doctor`.
__FORGE_EOF__
commit 2024-09-06T19:39:00+00:00 'Hannah Flores' hannah.flores@brewlog.dev <<'__FORGE_MSG__'
Document faq
__FORGE_MSG__
mkdir -p "$(dirname config/local.env)"
cat > config/local.env <<'__FORGE_EOF__'
SMTP_PASSWORD=h4qxmrbtxvtjwp
SENTRY_DSN=https://anp1RUbobZLzoPgNqxzzmhjmZUuUpEKr@sentry.example.com/4
__FORGE_EOF__
mkdir -p "$(dirname src/brewlog/sync.py)"
cat > src/brewlog/sync.py <<'__FORGE_EOF__'
"""brewlog: sync settings."""

BATCH_SIZE = 4
INTERVAL_S = 12
MAX_LAG_S = 12
CONCURRENCY = 250
__FORGE_EOF__
commit 2024-09-07T00:25:00+00:00 'Patricia Garner' patricia.garner@brewlog.dev <<'__FORGE_MSG__'
Local setup for the demo
__FORGE_MSG__
mkdir -p "$(dirname src/brewlog/sync.py)"
cat > src/brewlog/sync.py <<'__FORGE_EOF__'
"""brewlog: sync settings."""

BATCH_SIZE = 4
INTERVAL_S = 12
MAX_LAG_S = 12
CONCURRENCY = 20
__FORGE_EOF__
commit 2024-09-09T07:17:00+00:00 'Desiree Howell' desiree.howell@brewlog.dev <<'__FORGE_MSG__'
Tune sync CONCURRENCY (250 -> 20)
__FORGE_MSG__
mkdir -p "$(dirname src/brewlog/sync.py)"
cat > src/brewlog/sync.py <<'__FORGE_EOF__'
"""brewlog: sync settings."""

BATCH_SIZE = 4
INTERVAL_S = 120
MAX_LAG_S = 12
CONCURRENCY = 20
__FORGE_EOF__
commit 2024-09-12T10:41:00+00:00 'Patricia Garner' patricia.garner@brewlog.dev <<'__FORGE_MSG__'
sync: raise INTERVAL_S from 12 to 120
__FORGE_MSG__
git gc -q
