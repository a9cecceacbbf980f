"""Verify the release: one commit with exactly the version bump and CHANGELOG change, on the release
branch (main untouched) or on main, an annotated tag on it, a clean tree."""
import json
import os
import subprocess
import sys

REPO = '/app/work/dataweir'
DATA = json.loads('{"branch": "release-0.7.0", "changed": ["CHANGELOG.md", "VERSION", "pyproject.toml", "src/dataweir/__init__.py"], "expected": {"CHANGELOG.md": "# Changelog\\n\\nAll notable changes to dataweir are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [0.7.0] - 2024-09-19\\n\\n### Changed\\n- Default log level is now `info`.\\n- Faster start-up on large data directories.\\n\\n### Fixed\\n- Crash on an empty input file.\\n- Lock file left behind on SIGTERM.\\n\\n## [0.6.1] - 2024-08-15\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Timezone handling of `--since`.\\n\\n## [0.6.0] - 2024-07-16\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Wrong exit code on `--help`.\\n", "VERSION": "0.7.0\\n", "pyproject.toml": "[project]\\nname = \\"dataweir\\"\\nversion = \\"0.7.0\\"\\ndescription = \\"Schema checks for CSV drops\\"\\nrequires-python = \\">=3.9\\"\\n", "src/dataweir/__init__.py": "\\"\\"\\"dataweir: Schema checks for CSV drops.\\"\\"\\"\\n\\n__version__ = \\"0.7.0\\"\\n"}, "main_subjects": ["Tune server PORT (4 -> 100)", "CHANGELOG: note faster start-up on large data directorie", "Tune server MAX_BODY_KB (2 -> 45)", "CHANGELOG: note default log level is now `info`", "Lower PORT to 4 in server", "CHANGELOG: note lock file left behind on sigterm", "Document performance", "CHANGELOG: note crash on an empty input file", "Tune server PORT (25 -> 12)", "Initial import of dataweir 0.6.1"], "message": "Bump version to 0.7.0", "tag": "v0.7.0", "tag_message": "dataweir 0.7.0", "untracked": {}}')
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
    if DATA["branch"]:
        if subjects("refs/heads/main") != DATA["main_subjects"]:
            errors.append("main's history changed; the release commit belongs on the release branch")
        if not exists(f"refs/heads/{branch}"):
            errors.append(f"branch {branch} does not exist")
            return
    tip = git("rev-parse", f"refs/heads/{branch}").strip()
    ahead = git("rev-list", f"{old_tip}..{tip}").split()
    if ahead != [tip] or parents(tip) != [old_tip]:
        errors.append(f"{branch} must be exactly one new commit on top of the old tip of main ({len(ahead)} found)")
        return
    if subjects(old_tip) != DATA["main_subjects"]:
        errors.append("the history below the release commit was rewritten")
    if message(tip) != DATA["message"]:
        errors.append(f"release commit message is {message(tip)!r}, expected {DATA['message']!r}")
    changed = sorted(git("diff", "--name-only", old_tip, tip).split())
    if changed != DATA["changed"]:
        errors.append(f"files changed by the release commit: {changed}, expected {DATA['changed']}")
    for path, text in DATA["expected"].items():
        got = git("show", f"{tip}:{path}", check=False)
        if got != text:
            errors.append(f"{path} at the release commit is not as expected:\n--- got ---\n{got}\n--- expected ---\n{text}")
    tag = DATA["tag"]
    if git("cat-file", "-t", f"refs/tags/{tag}", check=False).strip() != "tag":
        errors.append(f"{tag} is missing or not an annotated tag")
    else:
        target = git("rev-parse", "refs/tags/" + tag + "^{commit}").strip()
        if target != tip:
            errors.append(f"tag {tag} points at {target}, expected the release commit {tip}")
        tag_msg = git("for-each-ref", "--format=%(contents)", f"refs/tags/{tag}").strip()
        if tag_msg != DATA["tag_message"]:
            errors.append(f"tag message is {tag_msg!r}, expected {DATA['tag_message']!r}")
    if head_branch() != branch:
        errors.append(f"HEAD is {head_branch() or 'detached'}, expected {branch} checked out")
    allowed = [f"?? {p}" for p in sorted(DATA["untracked"])]
    if sorted(status()) != allowed:
        errors.append(f"working tree not clean: {status()} (allowed: {allowed})")
    for path, text in DATA["untracked"].items():
        try:
            with open(os.path.join(REPO, path), encoding="utf-8") as fh:
                if fh.read() != text:
                    errors.append(f"untracked {path} was modified")
        except OSError:
            errors.append(f"untracked {path} is missing; it must stay in place")


finish(check)
