#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/tinyq
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Patricia Green'
git config user.email patricia.green@tinyq.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Patricia Green' GIT_COMMITTER_EMAIL=patricia.green@tinyq.dev

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
3.7.4
__FORGE_EOF__
mkdir -p "$(dirname pyproject.toml)"
cat > pyproject.toml <<'__FORGE_EOF__'
[project]
name = "tinyq"
version = "3.7.4"
description = "A tiny persistent job queue"
requires-python = ">=3.9"
__FORGE_EOF__
mkdir -p "$(dirname src/tinyq/__init__.py)"
cat > src/tinyq/__init__.py <<'__FORGE_EOF__'
"""tinyq: A tiny persistent job queue."""

__version__ = "3.7.4"
__FORGE_EOF__
mkdir -p "$(dirname src/tinyq/storage.py)"
cat > src/tinyq/storage.py <<'__FORGE_EOF__'
"""tinyq: storage settings."""

PAGE_SIZE = 45
CACHE_TTL_S = 4
MAX_ITEMS = 30
FLUSH_EVERY = 10
__FORGE_EOF__
mkdir -p "$(dirname src/tinyq/sync.py)"
cat > src/tinyq/sync.py <<'__FORGE_EOF__'
"""tinyq: sync settings."""

BATCH_SIZE = 50
INTERVAL_S = 2
MAX_LAG_S = 128
CONCURRENCY = 45
__FORGE_EOF__
mkdir -p "$(dirname src/tinyq/server.py)"
cat > src/tinyq/server.py <<'__FORGE_EOF__'
"""tinyq: server settings."""

PORT = 60
WORKERS = 2
TIMEOUT_S = 25
MAX_BODY_KB = 12
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# tinyq defaults (overridden by environment variables)

[core]
timeout = 90
retries = 5
log_level = error

[cache]
ttl = 60
size_mb = 512

[health]
interval = 30
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
api.example.com
app.example.com
docs.example.com
queue.internal
vault.internal
www.example.com
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to tinyq are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [3.7.4] - 2024-01-12

### Fixed
- Crash when the config file is empty.
- Timezone handling of `--since`.

## [3.7.3] - 2023-12-13

### Fixed
- Timezone handling of `--since`.
- Retry delay ignored the configured maximum.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
__pycache__/
*.log
/build/
__FORGE_EOF__
commit 2024-02-04T15:26:00+00:00 'Patricia Green' patricia.green@tinyq.dev <<'__FORGE_MSG__'
Initial import of tinyq 3.7.4
__FORGE_MSG__
mkdir -p "$(dirname docs/logging.md)"
cat > docs/logging.md <<'__FORGE_EOF__'
# Logging

1. Check the installed version with `tinyq --version`.
2. Rotate the log files daily.
3. Read the CHANGELOG before upgrading across a minor version.
__FORGE_EOF__
commit 2024-02-04T16:47:00+00:00 'David Gregory' david.gregory@tinyq.dev <<'__FORGE_MSG__'
Add logging guide
__FORGE_MSG__
git checkout -q -b feature/export
mkdir -p "$(dirname src/tinyq/storage.py)"
cat > src/tinyq/storage.py <<'__FORGE_EOF__'
"""tinyq: storage settings."""

PAGE_SIZE = 45
CACHE_TTL_S = 120
MAX_ITEMS = 30
FLUSH_EVERY = 10
__FORGE_EOF__
commit 2024-02-05T19:29:00+00:00 'Becky Williams' becky.williams@tinyq.dev <<'__FORGE_MSG__'
Tune storage CACHE_TTL_S (4 -> 120)
__FORGE_MSG__
mkdir -p "$(dirname src/tinyq/storage.py)"
cat > src/tinyq/storage.py <<'__FORGE_EOF__'
"""tinyq: storage settings."""

PAGE_SIZE = 20
CACHE_TTL_S = 120
MAX_ITEMS = 30
FLUSH_EVERY = 10
__FORGE_EOF__
commit 2024-02-09T01:02:00+00:00 'Patricia Green' patricia.green@tinyq.dev <<'__FORGE_MSG__'
Lower PAGE_SIZE to 20 in storage
__FORGE_MSG__
mkdir -p "$(dirname docs/backups.md)"
cat > docs/backups.md <<'__FORGE_EOF__'
# Backups

1. Read the CHANGELOG before upgrading across a minor version.
2. Rotate the log files daily.
3. Pin the version in production deployments.
__FORGE_EOF__
commit 2024-02-11T08:35:00+00:00 'Patricia Green' patricia.green@tinyq.dev <<'__FORGE_MSG__'
docs: add backups page
__FORGE_MSG__
mkdir -p "$(dirname src/tinyq/server.py)"
cat > src/tinyq/server.py <<'__FORGE_EOF__'
"""tinyq: server settings."""

PORT = 60
WORKERS = 2
TIMEOUT_S = 25
MAX_BODY_KB = 60
__FORGE_EOF__
commit 2024-02-13T14:33:00+00:00 'Becky Williams' becky.williams@tinyq.dev <<'__FORGE_MSG__'
Tune server MAX_BODY_KB (12 -> 60)
__FORGE_MSG__
git checkout -q main
git gc -q
