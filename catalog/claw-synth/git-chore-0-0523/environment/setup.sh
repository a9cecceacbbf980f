#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/work/dataweir
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Stephanie Paul'
git config user.email stephanie.paul@dataweir.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Stephanie Paul' GIT_COMMITTER_EMAIL=stephanie.paul@dataweir.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# dataweir

_Schema checks for CSV drops._

**Language:** Python · **License:** Apache-2.0

dataweir is maintained by a small team at Quinn, Baker and Maynard. It started as an internal tool in 2019 and is now used by a few teams.

## Features

- Column type inference
- Drift reports
- Zero runtime dependencies
- Configuration via environment variables
- Shell completions

## Usage

```
pip install dataweir
dataweir --help
```

## Configuration

Settings are read from environment variables prefixed with `DATAWEIR_`:

- `DATAWEIR_LOG_LEVEL`
- `DATAWEIR_TIMEOUT`
- `DATAWEIR_DATA_DIR`

## Maintainers

- Stephanie Paul
- Patricia Baker

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
0.6.1
__FORGE_EOF__
mkdir -p "$(dirname pyproject.toml)"
cat > pyproject.toml <<'__FORGE_EOF__'
[project]
name = "dataweir"
version = "0.6.1"
description = "Schema checks for CSV drops"
requires-python = ">=3.9"
__FORGE_EOF__
mkdir -p "$(dirname src/dataweir/__init__.py)"
cat > src/dataweir/__init__.py <<'__FORGE_EOF__'
"""dataweir: Schema checks for CSV drops."""

__version__ = "0.6.1"
__FORGE_EOF__
mkdir -p "$(dirname src/dataweir/server.py)"
cat > src/dataweir/server.py <<'__FORGE_EOF__'
"""dataweir: server settings."""

PORT = 25
WORKERS = 10
TIMEOUT_S = 2
MAX_BODY_KB = 2
__FORGE_EOF__
mkdir -p "$(dirname src/dataweir/retry.py)"
cat > src/dataweir/retry.py <<'__FORGE_EOF__'
"""dataweir: retry settings."""

MAX_RETRIES = 100
BASE_DELAY_MS = 2
MAX_DELAY_MS = 20
JITTER_PCT = 1000
__FORGE_EOF__
mkdir -p "$(dirname src/dataweir/storage.py)"
cat > src/dataweir/storage.py <<'__FORGE_EOF__'
"""dataweir: storage settings."""

PAGE_SIZE = 16
CACHE_TTL_S = 20
MAX_ITEMS = 10
FLUSH_EVERY = 60
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# dataweir defaults (overridden by environment variables)

[core]
timeout = 30
retries = 8
log_level = error

[cache]
ttl = 900
size_mb = 512

[health]
interval = 30
unhealthy_threshold = 2
__FORGE_EOF__
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
af-south-1
ap-northeast-1
eu-west-1
eu-west-3
me-south-1
us-west-2
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to dataweir are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [0.6.1] - 2024-08-15

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.

## [0.6.0] - 2024-07-16

### Fixed
- Memory leak in the watcher.
- Wrong exit code on `--help`.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
__pycache__/
*.log
/build/
__FORGE_EOF__
commit 2024-09-07T16:02:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
Initial import of dataweir 0.6.1
__FORGE_MSG__
mkdir -p "$(dirname src/dataweir/server.py)"
cat > src/dataweir/server.py <<'__FORGE_EOF__'
"""dataweir: server settings."""

PORT = 12
WORKERS = 10
TIMEOUT_S = 2
MAX_BODY_KB = 2
__FORGE_EOF__
commit 2024-09-08T17:41:00+00:00 'Patricia Baker' patricia.baker@dataweir.dev <<'__FORGE_MSG__'
Tune server PORT (25 -> 12)
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to dataweir are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Fixed
- Crash on an empty input file.

## [0.6.1] - 2024-08-15

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.

## [0.6.0] - 2024-07-16

### Fixed
- Memory leak in the watcher.
- Wrong exit code on `--help`.
__FORGE_EOF__
commit 2024-09-11T21:39:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
CHANGELOG: note crash on an empty input file
__FORGE_MSG__
mkdir -p "$(dirname docs/performance.md)"
cat > docs/performance.md <<'__FORGE_EOF__'
# Performance

1. Back up the data directory before a major upgrade.
2. Check the installed version with `dataweir --version`.
3. Read the CHANGELOG before upgrading across a minor version.
__FORGE_EOF__
commit 2024-09-12T00:37:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
Document performance
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to dataweir are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Fixed
- Crash on an empty input file.
- Lock file left behind on SIGTERM.

## [0.6.1] - 2024-08-15

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.

## [0.6.0] - 2024-07-16

### Fixed
- Memory leak in the watcher.
- Wrong exit code on `--help`.
__FORGE_EOF__
commit 2024-09-12T07:46:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
CHANGELOG: note lock file left behind on sigterm
__FORGE_MSG__
mkdir -p "$(dirname src/dataweir/server.py)"
cat > src/dataweir/server.py <<'__FORGE_EOF__'
"""dataweir: server settings."""

PORT = 4
WORKERS = 10
TIMEOUT_S = 2
MAX_BODY_KB = 2
__FORGE_EOF__
commit 2024-09-12T12:07:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
Lower PORT to 4 in server
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to dataweir are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Changed
- Default log level is now `info`.

### Fixed
- Crash on an empty input file.
- Lock file left behind on SIGTERM.

## [0.6.1] - 2024-08-15

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.

## [0.6.0] - 2024-07-16

### Fixed
- Memory leak in the watcher.
- Wrong exit code on `--help`.
__FORGE_EOF__
commit 2024-09-12T17:36:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
CHANGELOG: note default log level is now `info`
__FORGE_MSG__
mkdir -p "$(dirname src/dataweir/server.py)"
cat > src/dataweir/server.py <<'__FORGE_EOF__'
"""dataweir: server settings."""

PORT = 4
WORKERS = 10
TIMEOUT_S = 2
MAX_BODY_KB = 45
__FORGE_EOF__
commit 2024-09-12T21:41:00+00:00 'Patricia Baker' patricia.baker@dataweir.dev <<'__FORGE_MSG__'
Tune server MAX_BODY_KB (2 -> 45)
__FORGE_MSG__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to dataweir are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

### Changed
- Default log level is now `info`.
- Faster start-up on large data directories.

### Fixed
- Crash on an empty input file.
- Lock file left behind on SIGTERM.

## [0.6.1] - 2024-08-15

### Fixed
- Memory leak in the watcher.
- Timezone handling of `--since`.

## [0.6.0] - 2024-07-16

### Fixed
- Memory leak in the watcher.
- Wrong exit code on `--help`.
__FORGE_EOF__
commit 2024-09-15T07:27:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
CHANGELOG: note faster start-up on large data directorie
__FORGE_MSG__
mkdir -p "$(dirname src/dataweir/server.py)"
cat > src/dataweir/server.py <<'__FORGE_EOF__'
"""dataweir: server settings."""

PORT = 100
WORKERS = 10
TIMEOUT_S = 2
MAX_BODY_KB = 45
__FORGE_EOF__
commit 2024-09-18T12:49:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
Tune server PORT (4 -> 100)
__FORGE_MSG__
git gc -q
