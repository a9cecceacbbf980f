#!/bin/bash
# Build time: create the repository with a fixed history (fixed authors and dates, so every build
# makes the same commits).
set -euo pipefail
repo=/app/shelfie
mkdir -p "$repo"
cd "$repo"
git init -q -b main
git config user.name 'Molly Simmons'
git config user.email molly.simmons@shelfie.dev
git config advice.detachedHead false
export GIT_COMMITTER_NAME='Molly Simmons' GIT_COMMITTER_EMAIL=molly.simmons@shelfie.dev

commit() {  # commit <date> <author name> <author email>; the message comes on stdin
  git add -A
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" GIT_AUTHOR_NAME="$2" GIT_AUTHOR_EMAIL="$3" git commit -q -F -
}

mkdir -p "$(dirname README.md)"
cat > README.md <<'__FORGE_EOF__'
# shelfie

_A self-hosted reading list._

**Language:** JavaScript · **License:** BSD-3-Clause

shelfie is maintained by a small team at Arnold and Sons. It started as an internal tool in 2020 and is now used by a few teams.

## Features

- ISBN lookup
- Reading stats
- Structured JSON logs
- Shell completions
- Offline mode

## Usage

```
npm install -g shelfie
shelfie --help
```

## Configuration

Settings are read from environment variables prefixed with `SHELFIE_`:

- `SHELFIE_TIMEOUT`
- `SHELFIE_CACHE_TTL`
- `SHELFIE_DATA_DIR`

## Maintainers

- Danielle Howard
- Molly Simmons

## Contributing

Open an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.
__FORGE_EOF__
mkdir -p "$(dirname VERSION)"
cat > VERSION <<'__FORGE_EOF__'
0.9.3
__FORGE_EOF__
mkdir -p "$(dirname package.json)"
cat > package.json <<'__FORGE_EOF__'
{
  "name": "shelfie",
  "version": "0.9.3",
  "description": "A self-hosted reading list",
  "main": "src/index.js",
  "license": "MIT"
}
__FORGE_EOF__
mkdir -p "$(dirname src/retry.js)"
cat > src/retry.js <<'__FORGE_EOF__'
// shelfie: retry settings.

export const MAX_RETRIES = 80;
export const BASE_DELAY_MS = 64;
export const MAX_DELAY_MS = 20;
export const JITTER_PCT = 50;
__FORGE_EOF__
mkdir -p "$(dirname src/server.js)"
cat > src/server.js <<'__FORGE_EOF__'
// shelfie: server settings.

export const PORT = 30;
export const WORKERS = 2;
export const TIMEOUT_S = 1000;
export const MAX_BODY_KB = 3;
__FORGE_EOF__
mkdir -p "$(dirname src/storage.js)"
cat > src/storage.js <<'__FORGE_EOF__'
// shelfie: storage settings.

export const PAGE_SIZE = 64;
export const CACHE_TTL_S = 1000;
export const MAX_ITEMS = 128;
export const FLUSH_EVERY = 8;
__FORGE_EOF__
mkdir -p "$(dirname config/defaults.ini)"
cat > config/defaults.ini <<'__FORGE_EOF__'
# shelfie defaults (overridden by environment variables)

[core]
timeout = 90
retries = 5
log_level = info

[cache]
ttl = 60
size_mb = 128

[health]
interval = 5
unhealthy_threshold = 3
__FORGE_EOF__
mkdir -p "$(dirname allowed_hosts.txt)"
cat > allowed_hosts.txt <<'__FORGE_EOF__'
app.example.com
ci.internal
db.internal
git.internal
status.example.com
www.example.com
__FORGE_EOF__
mkdir -p "$(dirname CHANGELOG.md)"
cat > CHANGELOG.md <<'__FORGE_EOF__'
# Changelog

All notable changes to shelfie are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [0.9.3] - 2024-03-15

### Fixed
- Wrong exit code on `--help`.
- Crash when the config file is empty.

## [0.9.2] - 2024-02-14

### Fixed
- Memory leak in the watcher.
- Crash when the config file is empty.
__FORGE_EOF__
mkdir -p "$(dirname .gitignore)"
cat > .gitignore <<'__FORGE_EOF__'
*.log
/build/
/dist/
__FORGE_EOF__
commit 2024-04-07T11:51:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
Initial import of shelfie 0.9.3
__FORGE_MSG__
mkdir -p "$(dirname docs/upgrading.md)"
cat > docs/upgrading.md <<'__FORGE_EOF__'
# Upgrading

1. Run with `LOG_LEVEL=debug` to see every request.
2. Keep `config/defaults.ini` under version control.
3. Report bugs with the output of `shelfie doctor`.
__FORGE_EOF__
commit 2024-04-07T21:09:00+00:00 'Danielle Howard' danielle.howard@shelfie.dev <<'__FORGE_MSG__'
Document upgrading
__FORGE_MSG__
mkdir -p "$(dirname src/server.js)"
cat > src/server.js <<'__FORGE_EOF__'
// shelfie: server settings.

export const PORT = 50;
export const WORKERS = 2;
export const TIMEOUT_S = 1000;
export const MAX_BODY_KB = 3;
__FORGE_EOF__
commit 2024-04-10T04:06:00+00:00 'Molly Simmons' molly.simmons@shelfie.dev <<'__FORGE_MSG__'
server: raise PORT from 30 to 50
__FORGE_MSG__
git gc -q
