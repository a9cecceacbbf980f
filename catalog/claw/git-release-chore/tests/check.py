"""Verify the tinyq 1.4.0 release: branch, single commit, file contents, annotated tag, clean tree."""
import subprocess
import sys

REPO = "/app/tinyq"
errors = []


def git(*args, check=True):
    proc = subprocess.run(["git", "-C", REPO, *args], capture_output=True, text=True)
    if check and proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} failed: {proc.stderr.strip()}")
    return proc.stdout


MAIN_SUBJECTS = [
    "Fix job loss on SIGTERM",
    "Add retry backoff",
    "Add queue tests",
    "Add tinyq stats command",
    "Initial import of tinyq 1.3.2",
]

OLD_UNRELEASED_NOTES = """### Added
- `tinyq stats` command.
- Exponential retry backoff for failed jobs.

### Fixed
- Worker no longer drops the current job on SIGTERM.
"""
CHANGELOG_HEAD = """# Changelog

All notable changes to this project are documented in this file.
The format follows Keep a Changelog; versions follow Semantic Versioning.

"""
CHANGELOG_TAIL = """
## [1.3.2] - 2024-05-02

### Fixed
- Queue file is fsync'ed before rename.

## [1.3.1] - 2024-04-11

### Fixed
- `get()` on an empty queue returns None instead of raising IndexError.
"""
EXPECTED_CHANGELOG = (CHANGELOG_HEAD + "## [Unreleased]\n\n## [1.4.0] - 2024-06-14\n\n"
                      + OLD_UNRELEASED_NOTES + CHANGELOG_TAIL)
ORIGINAL_CHANGELOG = CHANGELOG_HEAD + "## [Unreleased]\n\n" + OLD_UNRELEASED_NOTES + CHANGELOG_TAIL


def check():
    # main untouched
    subjects = git("log", "--format=%s", "refs/heads/main").splitlines()
    if subjects != MAIN_SUBJECTS:
        errors.append(f"main history changed: {subjects}")
        return
    main_sha = git("rev-parse", "refs/heads/main").strip()
    if git("show", "main:VERSION") != "1.3.2\n":
        errors.append("VERSION on main changed")
    if git("show", "main:CHANGELOG.md") != ORIGINAL_CHANGELOG:
        errors.append("CHANGELOG.md on main changed")

    # release branch: exactly one commit on top of main
    if git("rev-parse", "--verify", "-q", "refs/heads/release/1.4.0", check=False).strip() == "":
        errors.append("branch release/1.4.0 does not exist")
        return
    tip = git("rev-parse", "refs/heads/release/1.4.0").strip()
    ahead = git("rev-list", f"{main_sha}..{tip}").split()
    if ahead != [tip]:
        errors.append(f"release/1.4.0 should be exactly one commit ahead of main, found {len(ahead)}")
    parents = git("rev-list", "--parents", "-n", "1", tip).split()[1:]
    if parents != [main_sha]:
        errors.append(f"release commit parents {parents} != [main tip {main_sha}]")
    message = git("log", "-1", "--format=%B", tip).strip()
    if message != "Release 1.4.0":
        errors.append(f"release commit message is {message!r}, expected 'Release 1.4.0'")

    changed = sorted(git("diff", "--name-only", main_sha, tip).split())
    want_changed = sorted(["CHANGELOG.md", "VERSION", "pyproject.toml", "tinyq/__init__.py"])
    if changed != want_changed:
        errors.append(f"files changed by the release commit: {changed}, expected {want_changed}")

    if git("show", f"{tip}:VERSION") != "1.4.0\n":
        errors.append(f"VERSION at release commit is {git('show', f'{tip}:VERSION')!r}, expected '1.4.0\\n'")
    for path, old_line, new_line in [
        ("pyproject.toml", 'version = "1.3.2"', 'version = "1.4.0"'),
        ("tinyq/__init__.py", '__version__ = "1.3.2"', '__version__ = "1.4.0"'),
    ]:
        want = git("show", f"{main_sha}:{path}").replace(old_line + "\n", new_line + "\n")
        if git("show", f"{tip}:{path}") != want:
            errors.append(f"{path} at release commit is not the original with only the version line bumped")
    got_cl = git("show", f"{tip}:CHANGELOG.md")
    if got_cl != EXPECTED_CHANGELOG:
        errors.append("CHANGELOG.md at release commit does not match the expected text:\n" + got_cl)

    # annotated tag
    if git("cat-file", "-t", "refs/tags/v1.4.0", check=False).strip() != "tag":
        errors.append("v1.4.0 is missing or not an annotated tag")
    else:
        target = git("rev-parse", "refs/tags/v1.4.0^{commit}").strip()
        if target != tip:
            errors.append(f"v1.4.0 points at {target}, expected release commit {tip}")
        tag_msg = git("for-each-ref", "--format=%(contents)", "refs/tags/v1.4.0").strip()
        if tag_msg != "tinyq 1.4.0":
            errors.append(f"tag message is {tag_msg!r}, expected 'tinyq 1.4.0'")

    # working tree
    head = git("symbolic-ref", "-q", "HEAD", check=False).strip()
    if head != "refs/heads/release/1.4.0":
        errors.append(f"HEAD is {head or 'detached'}, expected release/1.4.0 checked out")
    status = git("status", "--porcelain", "--untracked-files=all").splitlines()
    if status != ["?? scratch.txt"]:
        errors.append(f"working tree not clean apart from scratch.txt: {status}")
    try:
        with open(f"{REPO}/scratch.txt") as fh:
            if fh.read() != "TODO before 1.4.0:\n- ask Dana about the PyPI token\n":
                errors.append("scratch.txt was modified")
    except OSError:
        errors.append("scratch.txt is missing")


try:
    check()
except Exception as exc:  # noqa: BLE001
    errors.append(f"error while inspecting the repository: {exc}")

if errors:
    print("FAIL")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print("PASS")
