"""Verify the backport: the fixes cherry-picked in order onto the maintenance branch, main untouched."""
import json
import os
import subprocess
import sys

REPO = '/app/cronguard'
DATA = json.loads('{"expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to cronguard are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [3.9.5] - 2024-01-01\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Timezone handling of `--since`.\\n\\n## [3.9.4] - 2023-12-02\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Retry delay ignored the configured maximum.\\n", "Cargo.toml": "[package]\\nname = \\"cronguard\\"\\nversion = \\"3.9.5\\"\\nedition = \\"2021\\"\\ndescription = \\"A watchdog for scheduled jobs\\"\\n", "README.md": "# cronguard\\n\\n_A watchdog for scheduled jobs._\\n\\n**Language:** Rust \\u00b7 **License:** BSD-3-Clause\\n\\ncronguard is maintained by a small team at Brown, Ware and Peters. It started as an internal tool in 2022 and is now used by a few teams.\\n\\n## Features\\n\\n- Missed-run alerts\\n- Run history\\n- Shell completions\\n- Zero runtime dependencies\\n- Offline mode\\n\\n## Usage\\n\\n```\\ncargo install cronguard\\ncronguard --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `CRONGUARD_`:\\n\\n- `CRONGUARD_DATA_DIR`\\n- `CRONGUARD_LOG_LEVEL`\\n- `CRONGUARD_CACHE_TTL`\\n\\n## Maintainers\\n\\n- David Rush\\n- John Williams\\n- Christopher Roach\\n- Jennifer Lopez\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "3.9.5\\n", "allowed_hosts.txt": "app.example.com\\nauth.example.com\\nmail.example.com\\nmetrics.internal\\nsearch.internal\\nvault.internal\\n", "config/defaults.ini": "# cronguard defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 90\\nretries = 3\\nlog_level = info\\n\\n[cache]\\nttl = 900\\nsize_mb = 1024\\n\\n[health]\\ninterval = 10\\nunhealthy_threshold = 3\\n", "docs/installation.md": "# Installation\\n\\n1. Keep `config/defaults.ini` under version control.\\n2. Read the CHANGELOG before upgrading across a minor version.\\n3. Report bugs with the output of `cronguard doctor`.\\n", "docs/release-process.md": "# Release process\\n\\n1. Run with `LOG_LEVEL=debug` to see every request.\\n2. Pin the version in production deployments.\\n3. Report bugs with the output of `cronguard doctor`.\\n", "src/retry.rs": "//! cronguard: retry settings.\\n\\npub const MAX_RETRIES: u32 = 60;\\npub const BASE_DELAY_MS: u32 = 100;\\npub const MAX_DELAY_MS: u32 = 8;\\npub const JITTER_PCT: u32 = 50;\\n", "src/storage.rs": "//! cronguard: storage settings.\\n\\npub const PAGE_SIZE: u32 = 50;\\npub const CACHE_TTL_S: u32 = 12;\\npub const MAX_ITEMS: u32 = 500;\\npub const FLUSH_EVERY: u32 = 8;\\n", "src/sync.rs": "//! cronguard: sync settings.\\n\\npub const BATCH_SIZE: u32 = 120;\\npub const INTERVAL_S: u32 = 256;\\npub const MAX_LAG_S: u32 = 60;\\npub const CONCURRENCY: u32 = 45;\\n"}, "fixes": ["retry: raise MAX_RETRIES from 5 to 60"], "main_subjects": ["retry: raise MAX_RETRIES from 5 to 60", "sync: lower INTERVAL_S from 256 to 30", "docs: add release-process page", "Initial import of cronguard 3.9.5"], "maint": "maint/3.9.x", "maint_subjects": ["Document installation", "docs: add release-process page", "Initial import of cronguard 3.9.5"], "with_x": false}')
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


def author(rev):
    return git("log", "-1", "--format=%an <%ae>", rev).strip()


def check():
    if subjects("refs/heads/main") != DATA["main_subjects"]:
        errors.append("main changed; it must stay as it was")
    maint = DATA["maint"]
    if not exists(f"refs/heads/{maint}"):
        errors.append(f"branch {maint} is missing")
        return
    got = subjects(f"refs/heads/{maint}")
    n = len(DATA["fixes"])
    if got[n:] != DATA["maint_subjects"] or len(got) != len(DATA["maint_subjects"]) + n:
        errors.append(f"{maint} must be its old history plus {n} new commit(s); its subjects are {got}")
        return
    new = git("rev-list", "--reverse", f"refs/heads/{maint}", "-n", str(n)).split()
    chain = git("rev-list", "--first-parent", f"refs/heads/{maint}", "-n", str(n + 1)).split()[::-1]
    old_tip = by_subject(DATA["maint_subjects"][0], f"refs/heads/{maint}")
    if chain[0] != old_tip or any(len(parents(c)) != 1 for c in chain[1:]):
        errors.append(f"the new commits must sit directly on the old tip of {maint}, without merges")
    for rev, subject in zip(chain[1:], DATA["fixes"]):
        original = by_subject(subject, "refs/heads/main")
        want = message(original) + (f"\n\n(cherry picked from commit {original})" if DATA["with_x"] else "")
        if message(rev) != want:
            errors.append(f"commit {rev[:10]}: message {message(rev)!r}, expected {want!r}")
        if author(rev) != author(original):
            errors.append(f"commit {rev[:10]}: author {author(rev)!r}, expected the original's {author(original)!r}")
    same_files(f"refs/heads/{maint}", DATA["expected"], maint)
    if head_branch() != maint:
        errors.append(f"HEAD is {head_branch() or 'detached'}, expected {maint}")
    if status():
        errors.append(f"working tree not clean: {status()}")
    if os.path.exists(os.path.join(REPO, ".git", "CHERRY_PICK_HEAD")):
        errors.append("a cherry-pick is still in progress")


finish(check)
