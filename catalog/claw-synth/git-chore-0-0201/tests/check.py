"""Verify the revert: one new commit on main, undoing the target commit exactly, with the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/repos/shelfie'
DATA = json.loads('{"expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to shelfie are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [3.9.2] - 2024-05-26\\n\\n### Fixed\\n- Unicode file names in reports.\\n- Memory leak in the watcher.\\n\\n## [3.9.1] - 2024-04-26\\n\\n### Fixed\\n- Retry delay ignored the configured maximum.\\n- Unicode file names in reports.\\n", "README.md": "# shelfie\\n\\n_A self-hosted reading list._\\n\\n**Language:** JavaScript \\u00b7 **License:** BSD-3-Clause\\n\\nshelfie is maintained by a small team at Arnold and Sons. It started as an internal tool in 2020 and is now used by a few teams.\\n\\n## Features\\n\\n- ISBN lookup\\n- Reading stats\\n- Structured JSON logs\\n- Shell completions\\n- Offline mode\\n\\n## Usage\\n\\n```\\nnpm install -g shelfie\\nshelfie --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `SHELFIE_`:\\n\\n- `SHELFIE_TIMEOUT`\\n- `SHELFIE_CACHE_TTL`\\n- `SHELFIE_DATA_DIR`\\n\\n## Maintainers\\n\\n- Danielle Howard\\n- Molly Simmons\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "3.9.2\\n", "config/defaults.ini": "# shelfie defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 45\\nretries = 5\\nlog_level = info\\n\\n[cache]\\nttl = 60\\nsize_mb = 128\\n\\n[health]\\ninterval = 30\\nunhealthy_threshold = 2\\n", "docs/security.md": "# Security\\n\\n1. Run with `LOG_LEVEL=debug` to see every request.\\n2. Pin the version in production deployments.\\n3. Check the installed version with `shelfie --version`.\\n", "package.json": "{\\n  \\"name\\": \\"shelfie\\",\\n  \\"version\\": \\"3.9.2\\",\\n  \\"description\\": \\"A self-hosted reading list\\",\\n  \\"main\\": \\"src/index.js\\",\\n  \\"license\\": \\"MIT\\"\\n}\\n", "plugins.txt": "export-parquet\\nhealthcheck\\nmetrics\\nratelimit\\nsearch\\nthumbnails\\n", "src/retry.js": "// shelfie: retry settings.\\n\\nexport const MAX_RETRIES = 4;\\nexport const BASE_DELAY_MS = 30;\\nexport const MAX_DELAY_MS = 4;\\nexport const JITTER_PCT = 16;\\n", "src/server.js": "// shelfie: server settings.\\n\\nexport const PORT = 50;\\nexport const WORKERS = 60;\\nexport const TIMEOUT_S = 10;\\nexport const MAX_BODY_KB = 16;\\n", "src/sync.js": "// shelfie: sync settings.\\n\\nexport const BATCH_SIZE = 2;\\nexport const INTERVAL_S = 2;\\nexport const MAX_LAG_S = 25;\\nexport const CONCURRENCY = 4;\\n"}, "main_subjects": ["sync: lower MAX_LAG_S from 30 to 25", "Tune server MAX_BODY_KB (16 -> 64)", "Tune server MAX_BODY_KB (20 -> 16)", "Document security", "Initial import of shelfie 3.9.2"], "message": "Undo tune server MAX_BODY_KB (16 -> 64)", "style": "custom", "target": "Tune server MAX_BODY_KB (16 -> 64)"}')
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
