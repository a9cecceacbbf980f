"""Verify the revert: one new commit on main, undoing the target commit exactly, with the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/src/brewlog'
DATA = json.loads('{"expected": {".gitignore": "__pycache__/\\n*.log\\n/build/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to brewlog are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [1.6.1] - 2024-07-29\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Retry delay ignored the configured maximum.\\n\\n## [1.6.0] - 2024-06-29\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Retry delay ignored the configured maximum.\\n", "README.md": "# brewlog\\n\\n_Homebrew batch tracker._\\n\\n**Language:** Python \\u00b7 **License:** MIT\\n\\nbrewlog is maintained by a small team at Gutierrez Group. It started as an internal tool in 2020 and is now used by a few teams.\\n\\n## Features\\n\\n- Recipe scaling\\n- Fermentation timeline\\n- Shell completions\\n- Structured JSON logs\\n- Configuration via environment variables\\n\\n## Usage\\n\\n```\\npip install brewlog\\nbrewlog --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `BREWLOG_`:\\n\\n- `BREWLOG_WORKERS`\\n- `BREWLOG_TIMEOUT`\\n- `BREWLOG_DATA_DIR`\\n\\n## Maintainers\\n\\n- Patricia Garner\\n- Hannah Flores\\n- Desiree Howell\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "1.6.1\\n", "allowed_hosts.txt": "api.example.com\\nauth.example.com\\ncdn.example.net\\ndocs.example.com\\ngit.internal\\nwww.example.com\\n", "config/defaults.ini": "# brewlog defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 15\\nretries = 3\\nlog_level = warning\\n\\n[cache]\\nttl = 300\\nsize_mb = 256\\n\\n[health]\\ninterval = 10\\nunhealthy_threshold = 2\\n", "pyproject.toml": "[project]\\nname = \\"brewlog\\"\\nversion = \\"1.6.1\\"\\ndescription = \\"Homebrew batch tracker\\"\\nrequires-python = \\">=3.9\\"\\n", "src/brewlog/__init__.py": "\\"\\"\\"brewlog: Homebrew batch tracker.\\"\\"\\"\\n\\n__version__ = \\"1.6.1\\"\\n", "src/brewlog/report.py": "\\"\\"\\"brewlog: report settings.\\"\\"\\"\\n\\nTOP_N = 80\\nDECIMALS = 2\\nCOLUMN_WIDTH = 30\\nMAX_ROWS = 20\\n", "src/brewlog/server.py": "\\"\\"\\"brewlog: server settings.\\"\\"\\"\\n\\nPORT = 16\\nWORKERS = 4\\nTIMEOUT_S = 256\\nMAX_BODY_KB = 500\\n", "src/brewlog/sync.py": "\\"\\"\\"brewlog: sync settings.\\"\\"\\"\\n\\nBATCH_SIZE = 50\\nINTERVAL_S = 8\\nMAX_LAG_S = 256\\nCONCURRENCY = 60\\n"}, "main_subjects": ["sync: raise BATCH_SIZE from 5 to 50", "config: health.unhealthy_threshold = 5", "Tune report MAX_ROWS (100 -> 20)", "Initial import of brewlog 1.6.1"], "message": "Undo config: health.unhealthy_threshold = 5", "style": "custom", "target": "config: health.unhealthy_threshold = 5"}')
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
