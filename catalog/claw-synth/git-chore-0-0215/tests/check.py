"""Verify that the secret is no longer tracked (or reachable at all, for a purge), ignored, and still on disk."""
import json
import os
import subprocess
import sys

REPO = '/app/src/palette-kit'
DATA = json.loads('{"expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n*.env\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to palette-kit are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [3.4.6] - 2024-01-22\\n\\n### Fixed\\n- Wrong exit code on `--help`.\\n- Retry delay ignored the configured maximum.\\n\\n## [3.4.5] - 2023-12-23\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Wrong exit code on `--help`.\\n", "README.md": "# palette-kit\\n\\n_Accessible colour palettes._\\n\\n**Language:** JavaScript \\u00b7 **License:** BSD-3-Clause\\n\\npalette-kit is maintained by a small team at Lee, Robinson and Hernandez. It started as an internal tool in 2016 and is now used by a few teams.\\n\\n## Features\\n\\n- Contrast checks\\n- CSS variable export\\n- A small CLI\\n- Configuration via environment variables\\n- A plugin API\\n\\n## Usage\\n\\n```\\nnpm install -g palette-kit\\npalette-kit --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `PALETTE_KIT_`:\\n\\n- `PALETTE_KIT_DATA_DIR`\\n- `PALETTE_KIT_LOG_LEVEL`\\n- `PALETTE_KIT_CACHE_TTL`\\n\\n## Maintainers\\n\\n- Amber Griffin\\n- Rebecca Nunez\\n- Jaime Wu\\n- Michael Smith\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "3.4.6\\n", "config/defaults.ini": "# palette-kit defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 90\\nretries = 2\\nlog_level = debug\\n\\n[cache]\\nttl = 300\\nsize_mb = 256\\n\\n[health]\\ninterval = 10\\nunhealthy_threshold = 3\\n", "docs/architecture.md": "# Architecture\\n\\n1. Pin the version in production deployments.\\n2. Rotate the log files daily.\\n3. Run with `LOG_LEVEL=debug` to see every request.\\n", "docs/upgrading.md": "# Upgrading\\n\\n1. Pin the version in production deployments.\\n2. Read the CHANGELOG before upgrading across a minor version.\\n3. Back up the data directory before a major upgrade.\\n", "package.json": "{\\n  \\"name\\": \\"palette-kit\\",\\n  \\"version\\": \\"3.4.6\\",\\n  \\"description\\": \\"Accessible colour palettes\\",\\n  \\"main\\": \\"src/index.js\\",\\n  \\"license\\": \\"MIT\\"\\n}\\n", "plugins.txt": "audit\\nhealthcheck\\ni18n\\nnotify-email\\nratelimit\\nthumbnails\\n", "src/report.js": "// palette-kit: report settings.\\n\\nexport const TOP_N = 45;\\nexport const DECIMALS = 12;\\nexport const COLUMN_WIDTH = 64;\\nexport const MAX_ROWS = 60;\\n", "src/storage.js": "// palette-kit: storage settings.\\n\\nexport const PAGE_SIZE = 64;\\nexport const CACHE_TTL_S = 50;\\nexport const MAX_ITEMS = 30;\\nexport const FLUSH_EVERY = 4;\\n", "src/sync.js": "// palette-kit: sync settings.\\n\\nexport const BATCH_SIZE = 16;\\nexport const INTERVAL_S = 2;\\nexport const MAX_LAG_S = 20;\\nexport const CONCURRENCY = 3;\\n"}, "history": [], "main_subjects": ["Document architecture", "docs: add upgrading page", "Local setup for the demo", "storage: raise MAX_ITEMS from 5 to 30", "Initial import of palette-kit 3.4.6"], "message": "Remove config/local.env from the repository", "path": "config/local.env", "pattern": "*.env", "purge": false, "secret": "SMTP_PASSWORD=vgcdj6amz94mwc\\nSENTRY_DSN=https://10YKXY3n44szM7y5kT5EsPStS0LsRLZJ@sentry.example.com/4\\n"}')
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
    path = DATA["path"]
    got = subjects("refs/heads/main")
    if got[1:] != DATA["main_subjects"]:
        errors.append(f"main must be its old history (same subjects) plus one new commit; its subjects are {got}")
        return
    tip = git("rev-parse", "refs/heads/main").strip()
    if message(tip) != DATA["message"]:
        errors.append(f"commit message is {message(tip)!r}, expected {DATA['message']!r}")
    same_files(tip, DATA["expected"], "main")
    if DATA["purge"]:
        reach = git("log", "--all", "--format=%h %s", "--", path).splitlines()
        if reach:
            errors.append(f"commits reachable from refs still contain {path}: {reach[:5]}")
        for rev, (subject, author, date, files) in zip(git("rev-list", "refs/heads/main").split()[1:], DATA["history"]):
            meta = git("log", "-1", "--format=%s%x00%an <%ae>%x00%aI", rev).strip().split("\0")
            if meta != [subject, author, date]:
                errors.append(f"rewritten commit {rev[:10]} has {meta}, expected {[subject, author, date]}")
            want = {p: t for p, t in files.items() if p != path}
            same_files(rev, want, f"commit {subject!r}")
    else:
        old_tip = by_subject(DATA["main_subjects"][0], "refs/heads/main")
        if parents(tip) != [old_tip]:
            errors.append("the new commit's parent must be the old tip of main (history must not be rewritten)")
    try:
        with open(os.path.join(REPO, path), encoding="utf-8") as fh:
            if fh.read() != DATA["secret"]:
                errors.append(f"{path} on disk was changed")
    except OSError:
        errors.append(f"{path} is no longer on disk; it must stay")
    if subprocess.run(["git", "-C", REPO, "check-ignore", "-q", path]).returncode != 0:
        errors.append(f"{path} is not ignored by git")
    if head_branch() != "main":
        errors.append(f"HEAD is {head_branch() or 'detached'}, expected main")
    if status():
        errors.append(f"working tree not clean: {status()}")


finish(check)
