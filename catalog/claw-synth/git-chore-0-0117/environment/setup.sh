#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/src/dataweir
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
0.7.1
__FORGE_EOF__
mkdir -p "$(dirname pyproject.toml)"
cat > pyproject.toml <<'__FORGE_EOF__'
[project]
name = "dataweir"
version = "0.7.1"
description = "Schema checks for CSV drops"
requires-python = ">=3.9"
__FORGE_EOF__
mkdir -p "$(dirname src/dataweir/__init__.py)"
cat > src/dataweir/__init__.py <<'__FORGE_EOF__'
"""dataweir: Schema checks for CSV drops."""

__version__ = "0.7.1"
__FORGE_EOF__
mkdir -p "$(dirname src/dataweir/server.py)"
cat > src/dataweir/server.py <<'__FORGE_EOF__'
"""dataweir: server settings."""

PORT = 250
WORKERS = 5
TIMEOUT_S = 10
MAX_BODY_KB = 25
__FORGE_EOF__
mkdir -p "$(dirname src/dataweir/retry.py)"
cat > src/dataweir/retry.py <<'__FORGE_EOF__'
"""dataweir: retry settings."""

MAX_RETRIES = 250
BASE_DELAY_MS = 50
MAX_DELAY_MS = 250
JITTER_PCT = 12
__FORGE_EOF__
mkdir -p "$(dirname src/dataweir/sync.py)"
cat > src/dataweir/sync.py <<'__FORGE_EOF__'
"""dataweir: sync settings."""

BATCH_SIZE = 80
INTERVAL_S = 45
MAX_LAG_S = 30
CONCURRENCY = 25
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# dataweir defaults (overridden by environment variables)

[core]
timeout = 60
retries = 2
log_level = info

[cache]
ttl = 60
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
af-south-1
ap-south-1
ap-southeast-2
eu-central-1
eu-west-1
us-east-1
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to dataweir are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [0.7.1] - 2024-02-21

### Fixed
- Wrong exit code on `--help`.
- Crash when the config file is empty.

## [0.7.0] - 2024-01-22

### Fixed
- Wrong exit code on `--help`.
- Memory leak in the watcher.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
__pycache__/
*.log
/build/
__FORGE_EOF__
commit 2024-03-15T14:46:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
Initial import of dataweir 0.7.1
__FORGE_MSG__
mkdir -p "$(dirname docs/upgrading.md)"
cat > docs/upgrading.md <<'__FORGE_EOF__'
# Upgrading

1. Check the installed version with `dataweir --version`.
2. Back up the data directory before a major upgrade.
3. Read the CHANGELOG before upgrading across a minor version.
__FORGE_EOF__
commit 2024-03-17T23:28:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
Add upgrading guide
__FORGE_MSG__
git checkout -q -b feature/next
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
af-south-1
ap-south-1
ap-southeast-2
ca-central-1
eu-central-1
eu-south-1
eu-west-1
eu-west-3
me-south-1
us-east-1
__FORGE_EOF__
commit 2024-03-19T06:18:00+00:00 'Patricia Baker' patricia.baker@dataweir.dev <<'__FORGE_MSG__'
Add ca-central-1, eu-west-3 and more to regions.txt
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# dataweir defaults (overridden by environment variables)

[core]
timeout = 45
retries = 3
log_level = info

[cache]
ttl = 60
size_mb = 1024

[health]
interval = 10
unhealthy_threshold = 3
__FORGE_EOF__
commit 2024-03-21T09:05:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
Tune defaults for the rollout
__FORGE_MSG__
mkdir -p "$(dirname docs/logging.md)"
cat > docs/logging.md <<'__FORGE_EOF__'
# Logging

1. Pin the version in production deployments.
2. Rotate the log files daily.
3. Run with `LOG_LEVEL=debug` to see every request.
__FORGE_EOF__
commit 2024-03-23T12:50:00+00:00 'Patricia Baker' patricia.baker@dataweir.dev <<'__FORGE_MSG__'
docs: add logging page
__FORGE_MSG__
mkdir -p "$(dirname src/dataweir/server.py)"
cat > src/dataweir/server.py <<'__FORGE_EOF__'
"""dataweir: server settings."""

PORT = 250
WORKERS = 12
TIMEOUT_S = 10
MAX_BODY_KB = 25
__FORGE_EOF__
commit 2024-03-26T21:32:00+00:00 'Patricia Baker' patricia.baker@dataweir.dev <<'__FORGE_MSG__'
Tune server WORKERS (5 -> 12)
__FORGE_MSG__
git checkout -q main
mkdir -p "$(dirname regions.txt)"
cat > regions.txt <<'__FORGE_EOF__'
af-south-1
ap-northeast-1
ap-south-1
ap-southeast-2
eu-central-1
eu-west-1
me-south-1
sa-east-1
us-east-1
__FORGE_EOF__
commit 2024-03-30T01:31:00+00:00 'Patricia Baker' patricia.baker@dataweir.dev <<'__FORGE_MSG__'
Enable sa-east-1 and ap-northeast-1
__FORGE_MSG__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# dataweir defaults (overridden by environment variables)

[core]
timeout = 60
retries = 4
log_level = info

[cache]
ttl = 60
size_mb = 256

[health]
interval = 10
unhealthy_threshold = 2
__FORGE_EOF__
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

Owned by the infra team.
__FORGE_EOF__
commit 2024-03-30T04:30:00+00:00 'Stephanie Paul' stephanie.paul@dataweir.dev <<'__FORGE_MSG__'
Raise defaults after load test
__FORGE_MSG__
git gc -q
