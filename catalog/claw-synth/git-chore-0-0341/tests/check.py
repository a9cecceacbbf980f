"""Verify the revert: one new commit on main, undoing the target commit exactly, with the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/cronguard'
DATA = json.loads('{"expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to cronguard are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [3.1.4] - 2024-02-26\\n\\n### Fixed\\n- Unicode file names in reports.\\n- Memory leak in the watcher.\\n\\n## [3.1.3] - 2024-01-27\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Timezone handling of `--since`.\\n", "Cargo.toml": "[package]\\nname = \\"cronguard\\"\\nversion = \\"3.1.4\\"\\nedition = \\"2021\\"\\ndescription = \\"A watchdog for scheduled jobs\\"\\n", "README.md": "# cronguard\\n\\n_A watchdog for scheduled jobs._\\n\\n**Language:** Rust \\u00b7 **License:** BSD-3-Clause\\n\\ncronguard is maintained by a small team at Brown, Ware and Peters. It started as an internal tool in 2022 and is now used by a few teams.\\n\\n## Features\\n\\n- Missed-run alerts\\n- Run history\\n- Shell completions\\n- Zero runtime dependencies\\n- Offline mode\\n\\n## Usage\\n\\n```\\ncargo install cronguard\\ncronguard --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `CRONGUARD_`:\\n\\n- `CRONGUARD_DATA_DIR`\\n- `CRONGUARD_LOG_LEVEL`\\n- `CRONGUARD_CACHE_TTL`\\n\\n## Maintainers\\n\\n- David Rush\\n- John Williams\\n- Christopher Roach\\n- Jennifer Lopez\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "3.1.4\\n", "config/defaults.ini": "# cronguard defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 15\\nretries = 8\\nlog_level = debug\\n\\n[cache]\\nttl = 300\\nsize_mb = 1024\\n\\n[health]\\ninterval = 5\\nunhealthy_threshold = 3\\n", "docs/deployment.md": "# Deployment\\n\\n1. Back up the data directory before a major upgrade.\\n2. Check the installed version with `cronguard --version`.\\n3. Run with `LOG_LEVEL=debug` to see every request.\\n", "regions.txt": "af-south-1\\neu-central-1\\neu-north-1\\neu-west-1\\nus-east-2\\nus-west-1\\n", "src/retry.rs": "//! cronguard: retry settings.\\n\\npub const MAX_RETRIES: u32 = 12;\\npub const BASE_DELAY_MS: u32 = 50;\\npub const MAX_DELAY_MS: u32 = 16;\\npub const JITTER_PCT: u32 = 3;\\n", "src/storage.rs": "//! cronguard: storage settings.\\n\\npub const PAGE_SIZE: u32 = 80;\\npub const CACHE_TTL_S: u32 = 10;\\npub const MAX_ITEMS: u32 = 1000;\\npub const FLUSH_EVERY: u32 = 128;\\n", "src/sync.rs": "//! cronguard: sync settings.\\n\\npub const BATCH_SIZE: u32 = 2;\\npub const INTERVAL_S: u32 = 1000;\\npub const MAX_LAG_S: u32 = 30;\\npub const CONCURRENCY: u32 = 10;\\n"}, "main_subjects": ["Lower MAX_LAG_S to 30 in sync", "docs: add deployment page", "Lower PAGE_SIZE to 4 in storage", "Tune retry JITTER_PCT (4 -> 3)", "Initial import of cronguard 3.1.4"], "message": "Revert \\"Lower PAGE_SIZE to 4 in storage\\"", "style": "default", "target": "Lower PAGE_SIZE to 4 in storage"}')
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
    got = subjects("refs/heads/main")
    if got[1:] != DATA["main_subjects"]:
        errors.append(f"main must be its old history plus exactly one new commit; its subjects are {got}")
        return
    tip = git("rev-parse", "refs/heads/main").strip()
    target = by_subject(DATA["target"], "refs/heads/main")
    old_tip = by_subject(DATA["main_subjects"][0], "refs/heads/main")
    if parents(tip) != [old_tip]:
        errors.append("the revert commit's parent must be the old tip of main")
    want = DATA["message"] + (f"\n\nThis reverts commit {target}." if DATA["style"] == "default" else "")
    if message(tip) != want:
        errors.append(f"commit message is {message(tip)!r}, expected {want!r}")
    same_files(tip, DATA["expected"], "main")
    if head_branch() != "main":
        errors.append(f"HEAD is {head_branch() or 'detached'}, expected main")
    if status():
        errors.append(f"working tree not clean: {status()}")
    if os.path.exists(os.path.join(REPO, ".git", "REVERT_HEAD")):
        errors.append("a revert is still in progress")


finish(check)
