"""Verify the squash: one commit on the old base with the branch's old tree and the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/src/tinyq'
DATA = json.loads('{"base": "Add logging guide", "branch": "feature/export", "expected": {".gitignore": "__pycache__/\\n*.log\\n/build/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to tinyq are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [3.7.4] - 2024-01-12\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Timezone handling of `--since`.\\n\\n## [3.7.3] - 2023-12-13\\n\\n### Fixed\\n- Timezone handling of `--since`.\\n- Retry delay ignored the configured maximum.\\n", "README.md": "# tinyq\\n\\n_A tiny persistent job queue._\\n\\n**Language:** Python \\u00b7 **License:** Apache-2.0\\n\\ntinyq is maintained by a small team at Curry-Vega. It started as an internal tool in 2022 and is now used by a few teams.\\n\\n## Features\\n\\n- Durable FIFO queues on local disk\\n- Retry with backoff\\n- Offline mode\\n- A small CLI\\n- A plugin API\\n\\n## Usage\\n\\n```\\npip install tinyq\\ntinyq --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `TINYQ_`:\\n\\n- `TINYQ_COLOR`\\n- `TINYQ_WORKERS`\\n- `TINYQ_LOG_LEVEL`\\n\\n## Maintainers\\n\\n- Patricia Green\\n- Nathan Hancock\\n- David Gregory\\n- Becky Williams\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "3.7.4\\n", "allowed_hosts.txt": "api.example.com\\napp.example.com\\ndocs.example.com\\nqueue.internal\\nvault.internal\\nwww.example.com\\n", "config/defaults.ini": "# tinyq defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 90\\nretries = 5\\nlog_level = error\\n\\n[cache]\\nttl = 60\\nsize_mb = 512\\n\\n[health]\\ninterval = 30\\nunhealthy_threshold = 2\\n", "docs/backups.md": "# Backups\\n\\n1. Read the CHANGELOG before upgrading across a minor version.\\n2. Rotate the log files daily.\\n3. Pin the version in production deployments.\\n", "docs/logging.md": "# Logging\\n\\n1. Check the installed version with `tinyq --version`.\\n2. Rotate the log files daily.\\n3. Read the CHANGELOG before upgrading across a minor version.\\n", "pyproject.toml": "[project]\\nname = \\"tinyq\\"\\nversion = \\"3.7.4\\"\\ndescription = \\"A tiny persistent job queue\\"\\nrequires-python = \\">=3.9\\"\\n", "src/tinyq/__init__.py": "\\"\\"\\"tinyq: A tiny persistent job queue.\\"\\"\\"\\n\\n__version__ = \\"3.7.4\\"\\n", "src/tinyq/server.py": "\\"\\"\\"tinyq: server settings.\\"\\"\\"\\n\\nPORT = 60\\nWORKERS = 2\\nTIMEOUT_S = 25\\nMAX_BODY_KB = 60\\n", "src/tinyq/storage.py": "\\"\\"\\"tinyq: storage settings.\\"\\"\\"\\n\\nPAGE_SIZE = 20\\nCACHE_TTL_S = 120\\nMAX_ITEMS = 30\\nFLUSH_EVERY = 10\\n", "src/tinyq/sync.py": "\\"\\"\\"tinyq: sync settings.\\"\\"\\"\\n\\nBATCH_SIZE = 50\\nINTERVAL_S = 2\\nMAX_LAG_S = 128\\nCONCURRENCY = 45\\n"}, "main_subjects": ["Add logging guide", "Initial import of tinyq 3.7.4"], "message": "Export\\n\\n- Tune storage CACHE_TTL_S (4 -> 120)\\n- Lower PAGE_SIZE to 20 in storage\\n- docs: add backups page\\n- Tune server MAX_BODY_KB (12 -> 60)", "wip": ["Tune storage CACHE_TTL_S (4 -> 120)", "Lower PAGE_SIZE to 20 in storage", "docs: add backups page", "Tune server MAX_BODY_KB (12 -> 60)"]}')
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
