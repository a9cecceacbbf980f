"""Verify the squash: one commit on the old base with the branch's old tree and the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/src/lintel'
DATA = json.loads('{"base": "Raise MAX_ROWS to 20 in report", "branch": "topic/faster-sync", "expected": {".gitignore": "__pycache__/\\n*.log\\n/build/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to lintel are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [3.7.5] - 2024-05-24\\n\\n### Fixed\\n- Unicode file names in reports.\\n- Timezone handling of `--since`.\\n\\n## [3.7.4] - 2024-04-24\\n\\n### Fixed\\n- Retry delay ignored the configured maximum.\\n- Wrong exit code on `--help`.\\n", "README.md": "# lintel\\n\\n_A pluggable linter for YAML pipelines._\\n\\n**Language:** Python \\u00b7 **License:** MPL-2.0\\n\\nlintel is maintained by a small team at Hernandez, Patterson and Brown. It started as an internal tool in 2016 and is now used by a few teams.\\n\\n## Features\\n\\n- Custom rule packs\\n- SARIF output\\n- Zero runtime dependencies\\n- Configuration via environment variables\\n- A small CLI\\n\\n## Usage\\n\\n```\\npip install lintel\\nlintel --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `LINTEL_`:\\n\\n- `LINTEL_CACHE_TTL`\\n- `LINTEL_WORKERS`\\n- `LINTEL_DATA_DIR`\\n\\n## Maintainers\\n\\n- Monica Brooks\\n- Sara Wright\\n- Theresa Duncan\\n- James Flowers\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "3.7.5\\n", "config/defaults.ini": "# lintel defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 60\\nretries = 2\\nlog_level = warning\\n\\n[cache]\\nttl = 300\\nsize_mb = 1024\\n\\n[health]\\ninterval = 5\\nunhealthy_threshold = 2\\n", "docs/performance.md": "# Performance\\n\\n1. Report bugs with the output of `lintel doctor`.\\n2. Keep `config/defaults.ini` under version control.\\n3. Rotate the log files daily.\\n", "pyproject.toml": "[project]\\nname = \\"lintel\\"\\nversion = \\"3.7.5\\"\\ndescription = \\"A pluggable linter for YAML pipelines\\"\\nrequires-python = \\">=3.9\\"\\n", "regions.txt": "af-south-1\\nap-northeast-1\\neu-central-1\\neu-west-3\\nme-south-1\\nus-east-2\\n", "src/lintel/__init__.py": "\\"\\"\\"lintel: A pluggable linter for YAML pipelines.\\"\\"\\"\\n\\n__version__ = \\"3.7.5\\"\\n", "src/lintel/report.py": "\\"\\"\\"lintel: report settings.\\"\\"\\"\\n\\nTOP_N = 12\\nDECIMALS = 20\\nCOLUMN_WIDTH = 8\\nMAX_ROWS = 20\\n", "src/lintel/server.py": "\\"\\"\\"lintel: server settings.\\"\\"\\"\\n\\nPORT = 250\\nWORKERS = 50\\nTIMEOUT_S = 64\\nMAX_BODY_KB = 16\\n", "src/lintel/sync.py": "\\"\\"\\"lintel: sync settings.\\"\\"\\"\\n\\nBATCH_SIZE = 128\\nINTERVAL_S = 12\\nMAX_LAG_S = 120\\nCONCURRENCY = 128\\n"}, "main_subjects": ["Raise MAX_ROWS to 20 in report", "Initial import of lintel 3.7.5"], "message": "Squashed work from topic/faster-sync", "wip": ["Tune sync CONCURRENCY (20 -> 128)", "Tune report COLUMN_WIDTH (1000 -> 8)", "Tune server MAX_BODY_KB (20 -> 16)", "docs: add performance page"]}')
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
