"""Verify the backport: the fixes cherry-picked in order onto the maintenance branch, main untouched."""
import json
import os
import subprocess
import sys

REPO = '/app/repos/palette-kit'
DATA = json.loads('{"expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to palette-kit are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [1.9.0] - 2024-09-08\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Unicode file names in reports.\\n\\n## [1.8.4] - 2024-08-09\\n\\n### Fixed\\n- Retry delay ignored the configured maximum.\\n- Memory leak in the watcher.\\n", "README.md": "# palette-kit\\n\\n_Accessible colour palettes._\\n\\n**Language:** JavaScript \\u00b7 **License:** BSD-3-Clause\\n\\npalette-kit is maintained by a small team at Lee, Robinson and Hernandez. It started as an internal tool in 2016 and is now used by a few teams.\\n\\n## Features\\n\\n- Contrast checks\\n- CSS variable export\\n- A small CLI\\n- Configuration via environment variables\\n- A plugin API\\n\\n## Usage\\n\\n```\\nnpm install -g palette-kit\\npalette-kit --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `PALETTE_KIT_`:\\n\\n- `PALETTE_KIT_DATA_DIR`\\n- `PALETTE_KIT_LOG_LEVEL`\\n- `PALETTE_KIT_CACHE_TTL`\\n\\n## Maintainers\\n\\n- Amber Griffin\\n- Rebecca Nunez\\n- Jaime Wu\\n- Michael Smith\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "1.9.0\\n", "config/defaults.ini": "# palette-kit defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 30\\nretries = 8\\nlog_level = debug\\n\\n[cache]\\nttl = 300\\nsize_mb = 512\\n\\n[health]\\ninterval = 5\\nunhealthy_threshold = 2\\n", "docs/architecture.md": "# Architecture\\n\\n1. Check the installed version with `palette-kit --version`.\\n2. Keep `config/defaults.ini` under version control.\\n3. Back up the data directory before a major upgrade.\\n", "docs/logging.md": "# Logging\\n\\n1. Rotate the log files daily.\\n2. Check the installed version with `palette-kit --version`.\\n3. Report bugs with the output of `palette-kit doctor`.\\n", "package.json": "{\\n  \\"name\\": \\"palette-kit\\",\\n  \\"version\\": \\"1.9.0\\",\\n  \\"description\\": \\"Accessible colour palettes\\",\\n  \\"main\\": \\"src/index.js\\",\\n  \\"license\\": \\"MIT\\"\\n}\\n", "plugins.txt": "auth-oidc\\ncache-redis\\ni18n\\nmetrics\\nnotify-slack\\nsearch\\n", "src/retry.js": "// palette-kit: retry settings.\\n\\nexport const MAX_RETRIES = 100;\\nexport const BASE_DELAY_MS = 1000;\\nexport const MAX_DELAY_MS = 100;\\nexport const JITTER_PCT = 8;\\n", "src/server.js": "// palette-kit: server settings.\\n\\nexport const PORT = 4;\\nexport const WORKERS = 500;\\nexport const TIMEOUT_S = 2;\\nexport const MAX_BODY_KB = 256;\\n", "src/storage.js": "// palette-kit: storage settings.\\n\\nexport const PAGE_SIZE = 16;\\nexport const CACHE_TTL_S = 4;\\nexport const MAX_ITEMS = 1000;\\nexport const FLUSH_EVERY = 16;\\n"}, "fixes": ["retry: lower JITTER_PCT from 20 to 8"], "main_subjects": ["Add backups guide", "retry: lower JITTER_PCT from 20 to 8", "storage: raise CACHE_TTL_S from 4 to 45", "Document architecture", "Initial import of palette-kit 1.9.0"], "maint": "maint/1.9.x", "maint_subjects": ["Add logging guide", "Document architecture", "Initial import of palette-kit 1.9.0"], "with_x": true}')
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
