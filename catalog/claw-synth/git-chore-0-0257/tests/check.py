"""Verify the squash: one commit on the old base with the branch's old tree and the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/work/shelfie'
DATA = json.loads('{"base": "Add deployment guide", "branch": "feature/export", "expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to shelfie are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [1.4.5] - 2024-06-24\\n\\n### Fixed\\n- Timezone handling of `--since`.\\n- Retry delay ignored the configured maximum.\\n\\n## [1.4.4] - 2024-05-25\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Timezone handling of `--since`.\\n", "README.md": "# shelfie\\n\\n_A self-hosted reading list._\\n\\n**Language:** JavaScript \\u00b7 **License:** BSD-3-Clause\\n\\nshelfie is maintained by a small team at Arnold and Sons. It started as an internal tool in 2020 and is now used by a few teams.\\n\\n## Features\\n\\n- ISBN lookup\\n- Reading stats\\n- Structured JSON logs\\n- Shell completions\\n- Offline mode\\n\\n## Usage\\n\\n```\\nnpm install -g shelfie\\nshelfie --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `SHELFIE_`:\\n\\n- `SHELFIE_TIMEOUT`\\n- `SHELFIE_CACHE_TTL`\\n- `SHELFIE_DATA_DIR`\\n\\n## Maintainers\\n\\n- Danielle Howard\\n- Molly Simmons\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "1.4.5\\n", "config/defaults.ini": "# shelfie defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 30\\nretries = 3\\nlog_level = debug\\n\\n[cache]\\nttl = 600\\nsize_mb = 256\\n\\n[health]\\ninterval = 5\\nunhealthy_threshold = 5\\n", "docs/deployment.md": "# Deployment\\n\\n1. Check the installed version with `shelfie --version`.\\n2. Keep `config/defaults.ini` under version control.\\n3. Rotate the log files daily.\\n", "docs/installation.md": "# Installation\\n\\n1. Rotate the log files daily.\\n2. Read the CHANGELOG before upgrading across a minor version.\\n3. Keep `config/defaults.ini` under version control.\\n", "package.json": "{\\n  \\"name\\": \\"shelfie\\",\\n  \\"version\\": \\"1.4.5\\",\\n  \\"description\\": \\"A self-hosted reading list\\",\\n  \\"main\\": \\"src/index.js\\",\\n  \\"license\\": \\"MIT\\"\\n}\\n", "plugins.txt": "cache-redis\\nexport-parquet\\ni18n\\nnotify-slack\\nthumbnails\\nwebhooks\\n", "src/report.js": "// shelfie: report settings.\\n\\nexport const TOP_N = 256;\\nexport const DECIMALS = 1000;\\nexport const COLUMN_WIDTH = 80;\\nexport const MAX_ROWS = 1000;\\n", "src/retry.js": "// shelfie: retry settings.\\n\\nexport const MAX_RETRIES = 25;\\nexport const BASE_DELAY_MS = 100;\\nexport const MAX_DELAY_MS = 80;\\nexport const JITTER_PCT = 256;\\n", "src/server.js": "// shelfie: server settings.\\n\\nexport const PORT = 120;\\nexport const WORKERS = 20;\\nexport const TIMEOUT_S = 4;\\nexport const MAX_BODY_KB = 5;\\n"}, "main_subjects": ["Add architecture guide", "Add deployment guide", "Initial import of shelfie 1.4.5"], "message": "Export", "wip": ["Tune report COLUMN_WIDTH (100 -> 80)", "retry: raise BASE_DELAY_MS from 3 to 100", "Raise MAX_DELAY_MS to 80 in retry", "Add installation guide"]}')
errors = []


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout


def exists(ref):
    return subprocess.run(["git", "-C", REPO, "rev-parse", "--verify", "-q", ref + "^{commit}"],
                          capture_output=True).returncode == 0


def subjects(ref):
    return git("log", "--format=%s", ref).splitlines()


def by_subject(subject, ref="--all"):
    """The commit with this subject (the original history's subjects are unique)."""
    found = [line.split("\0", 1)[0] for line in git("log", ref, "--format=%H%x00%s").splitlines()
             if line.split("\0", 1)[1] == subject]
    if not found:
        raise RuntimeError(f"no commit with subject {subject!r}")
    return found[0]


def parents(rev):
    return git("rev-list", "--parents", "-n", "1", rev).split()[1:]


def message(rev):
    return git("log", "-1", "--format=%B", rev).strip()


def tree(rev):
    """{path: text} of every file in the commit."""
    out = {}
    for path in git("ls-tree", "-r", "--name-only", "-z", rev).split("\0"):
        if path:
            out[path] = git("show", f"{rev}:{path}")
    return out


def same_files(rev, expected, label):
    got = tree(rev)
    if sorted(got) != sorted(expected):
        missing = sorted(set(expected) - set(got))
        extra = sorted(set(got) - set(expected))
        errors.append(f"{label}: tracked files differ (missing {missing}, unexpected {extra})")
    for path, text in sorted(expected.items()):
        if path in got and got[path] != text:
            errors.append(f"{label}: {path} is not as expected:\n--- got ---\n{got[path][:1500]}\n--- expected ---\n{text[:1500]}")


def head_branch():
    return git("symbolic-ref", "-q", "HEAD", check=False).strip().removeprefix("refs/heads/")


def status(*extra):
    return git("status", "--porcelain", "--untracked-files=all", *extra).splitlines()


def finish(check):
    try:
        check()
    except Exception as exc:  # noqa: BLE001
        errors.append(f"error while inspecting the repository: {type(exc).__name__}: {exc}")
    if errors:
        print("FAIL")
        for e in errors:
            print(" -", e)
        sys.exit(1)
    print("PASS")
    sys.exit(0)


def check():
    if subjects("refs/heads/main") != DATA["main_subjects"]:
        errors.append("main changed; it must stay as it was")
    branch = DATA["branch"]
    if not exists(f"refs/heads/{branch}"):
        errors.append(f"branch {branch} is missing")
        return
    tip = git("rev-parse", f"refs/heads/{branch}").strip()
    base = by_subject(DATA["base"], "refs/heads/main")
    if parents(tip) != [base]:
        errors.append(f"{branch} must be one commit whose parent is {DATA['base']!r}; its subjects are {subjects(tip)[:6]}")
    if message(tip) != DATA["message"]:
        errors.append(f"commit message is {message(tip)!r}, expected {DATA['message']!r}")
    same_files(tip, DATA["expected"], branch)
    if head_branch() != branch:
        errors.append(f"HEAD is {head_branch() or 'detached'}, expected {branch}")
    if status():
        errors.append(f"working tree not clean: {status()}")


finish(check)
