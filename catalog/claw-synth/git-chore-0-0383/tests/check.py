"""Verify the backport: the fixes cherry-picked in order onto the maintenance branch, main untouched."""
import json
import os
import subprocess
import sys

REPO = '/app/repos/lintel'
DATA = json.loads('{"expected": {".gitignore": "__pycache__/\\n*.log\\n/build/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to lintel are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [1.6.3] - 2024-01-30\\n\\n### Fixed\\n- Unicode file names in reports.\\n- Crash when the config file is empty.\\n\\n## [1.6.2] - 2023-12-31\\n\\n### Fixed\\n- Wrong exit code on `--help`.\\n- Timezone handling of `--since`.\\n", "README.md": "# lintel\\n\\n_A pluggable linter for YAML pipelines._\\n\\n**Language:** Python \\u00b7 **License:** MPL-2.0\\n\\nlintel is maintained by a small team at Hernandez, Patterson and Brown. It started as an internal tool in 2016 and is now used by a few teams.\\n\\n## Features\\n\\n- Custom rule packs\\n- SARIF output\\n- Zero runtime dependencies\\n- Configuration via environment variables\\n- A small CLI\\n\\n## Usage\\n\\n```\\npip install lintel\\nlintel --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `LINTEL_`:\\n\\n- `LINTEL_CACHE_TTL`\\n- `LINTEL_WORKERS`\\n- `LINTEL_DATA_DIR`\\n\\n## Maintainers\\n\\n- Monica Brooks\\n- Sara Wright\\n- Theresa Duncan\\n- James Flowers\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "1.6.3\\n", "allowed_hosts.txt": "api.example.com\\nauth.example.com\\nci.internal\\ndocs.example.com\\ngit.internal\\nmetrics.internal\\n", "config/defaults.ini": "# lintel defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 90\\nretries = 5\\nlog_level = warning\\n\\n[cache]\\nttl = 600\\nsize_mb = 256\\n\\n[health]\\ninterval = 5\\nunhealthy_threshold = 5\\n", "docs/logging.md": "# Logging\\n\\n1. Report bugs with the output of `lintel doctor`.\\n2. Back up the data directory before a major upgrade.\\n3. Check the installed version with `lintel --version`.\\n", "docs/security.md": "# Security\\n\\n1. Read the CHANGELOG before upgrading across a minor version.\\n2. Back up the data directory before a major upgrade.\\n3. Rotate the log files daily.\\n", "pyproject.toml": "[project]\\nname = \\"lintel\\"\\nversion = \\"1.6.3\\"\\ndescription = \\"A pluggable linter for YAML pipelines\\"\\nrequires-python = \\">=3.9\\"\\n", "src/lintel/__init__.py": "\\"\\"\\"lintel: A pluggable linter for YAML pipelines.\\"\\"\\"\\n\\n__version__ = \\"1.6.3\\"\\n", "src/lintel/report.py": "\\"\\"\\"lintel: report settings.\\"\\"\\"\\n\\nTOP_N = 20\\nDECIMALS = 2\\nCOLUMN_WIDTH = 20\\nMAX_ROWS = 3\\n", "src/lintel/storage.py": "\\"\\"\\"lintel: storage settings.\\"\\"\\"\\n\\nPAGE_SIZE = 16\\nCACHE_TTL_S = 250\\nMAX_ITEMS = 16\\nFLUSH_EVERY = 3\\n", "src/lintel/sync.py": "\\"\\"\\"lintel: sync settings.\\"\\"\\"\\n\\nBATCH_SIZE = 2\\nINTERVAL_S = 50\\nMAX_LAG_S = 500\\nCONCURRENCY = 2\\n"}, "fixes": ["Tune report COLUMN_WIDTH (1000 -> 20)"], "main_subjects": ["Lower MAX_LAG_S to 80 in sync", "Tune report COLUMN_WIDTH (1000 -> 20)", "Add upgrading guide", "Document security", "Initial import of lintel 1.6.3"], "maint": "maint/1.6.x", "maint_subjects": ["Add logging guide", "Document security", "Initial import of lintel 1.6.3"], "with_x": true}')
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
