"""Verify the squash: one commit on the old base with the branch's old tree and the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/repos/quillmark'
DATA = json.loads('{"base": "docs: add troubleshooting page", "branch": "topic/faster-sync", "expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to quillmark are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [1.7.4] - 2024-05-30\\n\\n### Fixed\\n- Unicode file names in reports.\\n- Memory leak in the watcher.\\n\\n## [1.7.3] - 2024-04-30\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Retry delay ignored the configured maximum.\\n", "Cargo.toml": "[package]\\nname = \\"quillmark\\"\\nversion = \\"1.7.4\\"\\nedition = \\"2021\\"\\ndescription = \\"Markdown to PDF without LaTeX\\"\\n", "README.md": "# quillmark\\n\\n_Markdown to PDF without LaTeX._\\n\\n**Language:** Rust \\u00b7 **License:** MIT\\n\\nquillmark is maintained by a small team at Davis-Perry. It started as an internal tool in 2018 and is now used by a few teams.\\n\\n## Features\\n\\n- Themes\\n- Table of contents\\n- Shell completions\\n- A small CLI\\n- Structured JSON logs\\n\\n## Usage\\n\\n```\\ncargo install quillmark\\nquillmark --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `QUILLMARK_`:\\n\\n- `QUILLMARK_CACHE_TTL`\\n- `QUILLMARK_TIMEOUT`\\n- `QUILLMARK_WORKERS`\\n\\n## Maintainers\\n\\n- Sarah Johnson\\n- Taylor Stone\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "1.7.4\\n", "config/defaults.ini": "# quillmark defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 30\\nretries = 2\\nlog_level = debug\\n\\n[cache]\\nttl = 300\\nsize_mb = 1024\\n\\n[health]\\ninterval = 10\\nunhealthy_threshold = 3\\n", "docs/glossary.md": "# Glossary\\n\\n1. Back up the data directory before a major upgrade.\\n2. Rotate the log files daily.\\n3. Keep `config/defaults.ini` under version control.\\n", "docs/performance.md": "# Performance\\n\\n1. Back up the data directory before a major upgrade.\\n2. Report bugs with the output of `quillmark doctor`.\\n3. Rotate the log files daily.\\n", "docs/troubleshooting.md": "# Troubleshooting\\n\\n1. Pin the version in production deployments.\\n2. Check the installed version with `quillmark --version`.\\n3. Run with `LOG_LEVEL=debug` to see every request.\\n", "regions.txt": "af-south-1\\nap-northeast-1\\neu-west-2\\neu-west-3\\nme-south-1\\nus-east-1\\n", "src/report.rs": "//! quillmark: report settings.\\n\\npub const TOP_N: u32 = 120;\\npub const DECIMALS: u32 = 500;\\npub const COLUMN_WIDTH: u32 = 500;\\npub const MAX_ROWS: u32 = 10;\\n", "src/retry.rs": "//! quillmark: retry settings.\\n\\npub const MAX_RETRIES: u32 = 128;\\npub const BASE_DELAY_MS: u32 = 256;\\npub const MAX_DELAY_MS: u32 = 1000;\\npub const JITTER_PCT: u32 = 3;\\n", "src/server.rs": "//! quillmark: server settings.\\n\\npub const PORT: u32 = 250;\\npub const WORKERS: u32 = 128;\\npub const TIMEOUT_S: u32 = 4;\\npub const MAX_BODY_KB: u32 = 60;\\n"}, "main_subjects": ["server: lower WORKERS from 128 to 100", "docs: add troubleshooting page", "Initial import of quillmark 1.7.4"], "message": "Faster sync", "wip": ["Document glossary", "Document performance", "Tune server TIMEOUT_S (100 -> 4)", "retry: raise MAX_RETRIES from 2 to 128"]}')
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
