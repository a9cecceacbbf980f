"""Verify that the secret is no longer tracked (or reachable at all, for a purge), ignored, and still on disk."""
import json
import os
import subprocess
import sys

REPO = '/app/src/brewlog'
DATA = json.loads('{"expected": {".gitignore": "__pycache__/\\n*.log\\n/build/\\n*.env\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to brewlog are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [3.8.2] - 2024-08-15\\n\\n### Fixed\\n- Retry delay ignored the configured maximum.\\n- Memory leak in the watcher.\\n\\n## [3.8.1] - 2024-07-16\\n\\n### Fixed\\n- Timezone handling of `--since`.\\n- Memory leak in the watcher.\\n", "README.md": "# brewlog\\n\\n_Homebrew batch tracker._\\n\\n**Language:** Python \\u00b7 **License:** MIT\\n\\nbrewlog is maintained by a small team at Gutierrez Group. It started as an internal tool in 2020 and is now used by a few teams.\\n\\n## Features\\n\\n- Recipe scaling\\n- Fermentation timeline\\n- Shell completions\\n- Structured JSON logs\\n- Configuration via environment variables\\n\\n## Usage\\n\\n```\\npip install brewlog\\nbrewlog --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `BREWLOG_`:\\n\\n- `BREWLOG_WORKERS`\\n- `BREWLOG_TIMEOUT`\\n- `BREWLOG_DATA_DIR`\\n\\n## Maintainers\\n\\n- Patricia Garner\\n- Hannah Flores\\n- Desiree Howell\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "3.8.2\\n", "config/defaults.ini": "# brewlog defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 60\\nretries = 8\\nlog_level = error\\n\\n[cache]\\nttl = 300\\nsize_mb = 512\\n\\n[health]\\ninterval = 10\\nunhealthy_threshold = 3\\n", "docs/faq.md": "# Faq\\n\\n1. Keep `config/defaults.ini` under version control.\\n2. Rotate the log files daily.\\n3. Report bugs with the output of `brewlog doctor`.\\n", "pyproject.toml": "[project]\\nname = \\"brewlog\\"\\nversion = \\"3.8.2\\"\\ndescription = \\"Homebrew batch tracker\\"\\nrequires-python = \\">=3.9\\"\\n", "regions.txt": "ap-northeast-1\\neu-central-1\\neu-west-1\\neu-west-3\\nme-south-1\\nsa-east-1\\n", "src/brewlog/__init__.py": "\\"\\"\\"brewlog: Homebrew batch tracker.\\"\\"\\"\\n\\n__version__ = \\"3.8.2\\"\\n", "src/brewlog/retry.py": "\\"\\"\\"brewlog: retry settings.\\"\\"\\"\\n\\nMAX_RETRIES = 120\\nBASE_DELAY_MS = 1000\\nMAX_DELAY_MS = 500\\nJITTER_PCT = 64\\n", "src/brewlog/storage.py": "\\"\\"\\"brewlog: storage settings.\\"\\"\\"\\n\\nPAGE_SIZE = 25\\nCACHE_TTL_S = 30\\nMAX_ITEMS = 20\\nFLUSH_EVERY = 4\\n", "src/brewlog/sync.py": "\\"\\"\\"brewlog: sync settings.\\"\\"\\"\\n\\nBATCH_SIZE = 4\\nINTERVAL_S = 120\\nMAX_LAG_S = 12\\nCONCURRENCY = 20\\n"}, "history": [], "main_subjects": ["sync: raise INTERVAL_S from 12 to 120", "Tune sync CONCURRENCY (250 -> 20)", "Local setup for the demo", "Document faq", "Initial import of brewlog 3.8.2"], "message": "Remove config/local.env from the repository", "path": "config/local.env", "pattern": "*.env", "purge": false, "secret": "SMTP_PASSWORD=h4qxmrbtxvtjwp\\nSENTRY_DSN=https://anp1RUbobZLzoPgNqxzzmhjmZUuUpEKr@sentry.example.com/4\\n"}')
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
