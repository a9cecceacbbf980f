"""Verify the commit: exactly the asked edits, one commit, exact message and author."""
import json
import os
import subprocess
import sys

REPO = '/app/shelfie'
DATA = json.loads('{"author": ["Danielle Howard", "danielle.howard@shelfie.dev"], "branch": null, "changed": ["CHANGELOG.md", "allowed_hosts.txt", "config/defaults.ini"], "expected": {"CHANGELOG.md": "# Changelog\\n\\nAll notable changes to shelfie are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n### Changed\\n- Document the doctor command.\\n\\n## [0.9.3] - 2024-03-15\\n\\n### Fixed\\n- Wrong exit code on `--help`.\\n- Crash when the config file is empty.\\n\\n## [0.9.2] - 2024-02-14\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Crash when the config file is empty.\\n", "allowed_hosts.txt": "auth.example.com\\ncdn.example.net\\nci.internal\\ndb.internal\\ngit.internal\\nstatus.example.com\\nwww.example.com\\n", "config/defaults.ini": "# shelfie defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 90\\nretries = 5\\nlog_level = info\\n\\n[cache]\\nttl = 60\\nsize_mb = 128\\n\\n[health]\\ninterval = 5\\nunhealthy_threshold = 2\\n"}, "main_subjects": ["server: raise PORT from 30 to 50", "Document upgrading", "Initial import of shelfie 0.9.3"], "message": "Housekeeping before the next release\\n\\nNo functional change to the code.\\nSee the ops handbook for details."}')
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
    old_tip = by_subject(DATA["main_subjects"][0], "refs/heads/main")
    branch = DATA["branch"] or "main"
    if DATA["branch"] and subjects("refs/heads/main") != DATA["main_subjects"]:
        errors.append("main changed; the commit belongs on the new branch")
    if not exists(f"refs/heads/{branch}"):
        errors.append(f"branch {branch} does not exist")
        return
    tip = git("rev-parse", f"refs/heads/{branch}").strip()
    if parents(tip) != [old_tip] or subjects(old_tip) != DATA["main_subjects"]:
        errors.append(f"{branch} must be exactly one new commit on top of the old tip of main")
        return
    if message(tip) != DATA["message"]:
        errors.append(f"commit message is {message(tip)!r}, expected {DATA['message']!r}")
    got_author = git("log", "-1", "--format=%an%x00%ae", tip).strip().split("\0")
    if got_author != DATA["author"]:
        errors.append(f"author is {got_author}, expected {DATA['author']}")
    changed = sorted(git("diff", "--name-only", old_tip, tip).split())
    if changed != DATA["changed"]:
        errors.append(f"files changed by the commit: {changed}, expected {DATA['changed']}")
    for path, text in DATA["expected"].items():
        got = git("show", f"{tip}:{path}", check=False)
        if got != text:
            errors.append(f"{path} is not as expected:\n--- got ---\n{got[:1500]}\n--- expected ---\n{text[:1500]}")
    if head_branch() != branch:
        errors.append(f"HEAD is {head_branch() or 'detached'}, expected {branch}")
    if status():
        errors.append(f"working tree not clean: {status()}")


finish(check)
