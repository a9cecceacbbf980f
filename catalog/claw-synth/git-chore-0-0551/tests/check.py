"""Verify the revert: one new commit on main, undoing the target commit exactly, with the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/src/tinyq'
DATA = json.loads('{"expected": {".gitignore": "__pycache__/\\n*.log\\n/build/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to tinyq are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [0.6.6] - 2024-02-18\\n\\n### Fixed\\n- Retry delay ignored the configured maximum.\\n- Unicode file names in reports.\\n\\n## [0.6.5] - 2024-01-19\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Retry delay ignored the configured maximum.\\n", "README.md": "# tinyq\\n\\n_A tiny persistent job queue._\\n\\n**Language:** Python \\u00b7 **License:** Apache-2.0\\n\\ntinyq is maintained by a small team at Curry-Vega. It started as an internal tool in 2022 and is now used by a few teams.\\n\\n## Features\\n\\n- Durable FIFO queues on local disk\\n- Retry with backoff\\n- Offline mode\\n- A small CLI\\n- A plugin API\\n\\n## Usage\\n\\n```\\npip install tinyq\\ntinyq --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `TINYQ_`:\\n\\n- `TINYQ_COLOR`\\n- `TINYQ_WORKERS`\\n- `TINYQ_LOG_LEVEL`\\n\\n## Maintainers\\n\\n- Patricia Green\\n- Nathan Hancock\\n- David Gregory\\n- Becky Williams\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "0.6.6\\n", "config/defaults.ini": "# tinyq defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 15\\nretries = 8\\nlog_level = error\\n\\n[cache]\\nttl = 300\\nsize_mb = 1024\\n\\n[health]\\ninterval = 5\\nunhealthy_threshold = 5\\n", "docs/performance.md": "# Performance\\n\\n1. Rotate the log files daily.\\n2. Check the installed version with `tinyq --version`.\\n3. Read the CHANGELOG before upgrading across a minor version.\\n", "docs/troubleshooting.md": "# Troubleshooting\\n\\n1. Check the installed version with `tinyq --version`.\\n2. Rotate the log files daily.\\n3. Run with `LOG_LEVEL=debug` to see every request.\\n", "docs/upgrading.md": "# Upgrading\\n\\n1. Run with `LOG_LEVEL=debug` to see every request.\\n2. Rotate the log files daily.\\n3. Keep `config/defaults.ini` under version control.\\n", "plugins.txt": "auth-oidc\\nexport-csv\\ni18n\\nnotify-email\\nratelimit\\nthumbnails\\n", "pyproject.toml": "[project]\\nname = \\"tinyq\\"\\nversion = \\"0.6.6\\"\\ndescription = \\"A tiny persistent job queue\\"\\nrequires-python = \\">=3.9\\"\\n", "src/tinyq/__init__.py": "\\"\\"\\"tinyq: A tiny persistent job queue.\\"\\"\\"\\n\\n__version__ = \\"0.6.6\\"\\n", "src/tinyq/report.py": "\\"\\"\\"tinyq: report settings.\\"\\"\\"\\n\\nTOP_N = 25\\nDECIMALS = 45\\nCOLUMN_WIDTH = 500\\nMAX_ROWS = 120\\n", "src/tinyq/storage.py": "\\"\\"\\"tinyq: storage settings.\\"\\"\\"\\n\\nPAGE_SIZE = 16\\nCACHE_TTL_S = 10\\nMAX_ITEMS = 2\\nFLUSH_EVERY = 16\\n", "src/tinyq/sync.py": "\\"\\"\\"tinyq: sync settings.\\"\\"\\"\\n\\nBATCH_SIZE = 8\\nINTERVAL_S = 5\\nMAX_LAG_S = 1000\\nCONCURRENCY = 100\\n"}, "main_subjects": ["Add troubleshooting guide", "docs: add upgrading page", "config: core.retries = 3", "Document performance", "Tune sync INTERVAL_S (128 -> 5)", "Initial import of tinyq 0.6.6"], "message": "Revert \\"config: core.retries = 3\\"", "style": "default", "target": "config: core.retries = 3"}')
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
