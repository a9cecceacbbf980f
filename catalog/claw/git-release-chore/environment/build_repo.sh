#!/bin/bash
# Build the tinyq repository with a short, realistic history (fixed dates => reproducible).
set -euo pipefail
git config --system user.name "Release Bot"
git config --system user.email "release-bot@tinyq.dev"
git config --system init.defaultBranch main
git config --system advice.detachedHead false

repo=/app/tinyq
mkdir -p "$repo" && cd "$repo"
git init -q

n=0
commit() {  # commit "<message>"
  n=$((n + 1))
  export GIT_AUTHOR_DATE="2024-05-$((10 + 3 * n))T1$n:2$n:00+02:00"
  export GIT_COMMITTER_DATE="$GIT_AUTHOR_DATE"
  git add -A
  git commit -q -m "$1"
}

mkdir -p tinyq tests
cat > README.md <<'EOF'
# tinyq

A tiny persistent job queue for Python.

    pip install tinyq==1.3.2

See CHANGELOG.md for release notes.
EOF
echo "1.3.2" > VERSION
cat > pyproject.toml <<'EOF'
[project]
name = "tinyq"
version = "1.3.2"
description = "A tiny persistent job queue"
requires-python = ">=3.9"

[project.scripts]
tinyq = "tinyq.cli:main"
EOF
cat > tinyq/__init__.py <<'EOF'
"""tinyq: a tiny persistent job queue."""

__version__ = "1.3.2"
MIN_SUPPORTED_VERSION = "1.0.0"

from .queue import Queue  # noqa: E402,F401
EOF
cat > tinyq/queue.py <<'EOF'
class Queue:
    def __init__(self, path):
        self.path = path
        self.jobs = []

    def put(self, job):
        self.jobs.append(job)

    def get(self):
        return self.jobs.pop(0) if self.jobs else None
EOF
cat > CHANGELOG.md <<'EOF'
# Changelog

All notable changes to this project are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

## [Unreleased]

## [1.3.2] - 2024-05-02

### Fixed
- Queue file is fsync'ed before rename.

## [1.3.1] - 2024-04-11

### Fixed
- `get()` on an empty queue returns None instead of raising IndexError.
EOF
commit "Initial import of tinyq 1.3.2"

cat > tinyq/cli.py <<'EOF'
import sys


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["stats"]:
        print("jobs: 0")
        return 0
    print("usage: tinyq stats")
    return 2
EOF
python3 - <<'EOF'
p = "CHANGELOG.md"
s = open(p).read()
s = s.replace("## [Unreleased]\n", "## [Unreleased]\n\n### Added\n- `tinyq stats` command.\n", 1)
open(p, "w").write(s)
EOF
commit "Add tinyq stats command"

cat > tests/test_queue.py <<'EOF'
from tinyq import Queue


def test_fifo(tmp_path):
    q = Queue(tmp_path / "q")
    q.put(1)
    q.put(2)
    assert q.get() == 1
EOF
commit "Add queue tests"

cat >> tinyq/queue.py <<'EOF'


def backoff(attempt, base=0.5, cap=30.0):
    """Exponential retry backoff in seconds."""
    return min(cap, base * 2 ** attempt)
EOF
python3 - <<'EOF'
p = "CHANGELOG.md"
s = open(p).read()
s = s.replace("- `tinyq stats` command.\n", "- `tinyq stats` command.\n- Exponential retry backoff for failed jobs.\n", 1)
open(p, "w").write(s)
EOF
commit "Add retry backoff"

python3 - <<'EOF'
p = "CHANGELOG.md"
s = open(p).read()
s = s.replace("- Exponential retry backoff for failed jobs.\n",
              "- Exponential retry backoff for failed jobs.\n\n### Fixed\n- Worker no longer drops the current job on SIGTERM.\n", 1)
open(p, "w").write(s)
EOF
sed -i 's/return self.jobs.pop(0) if self.jobs else None/return self.jobs.pop(0) if self.jobs else None  # keep FIFO/' tinyq/queue.py
commit "Fix job loss on SIGTERM"

# untracked scratch notes that must not end up in the release
printf 'TODO before 1.4.0:\n- ask Dana about the PyPI token\n' > scratch.txt
