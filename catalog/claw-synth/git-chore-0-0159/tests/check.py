"""Verify that the secret is no longer tracked (or reachable at all, for a purge), ignored, and still on disk."""
import json
import os
import subprocess
import sys

REPO = '/app/work/netpulse'
DATA = json.loads('{"expected": {".gitignore": "*.log\\n/build/\\n/dist/\\nsecrets/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to netpulse are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [1.9.0] - 2024-05-02\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Timezone handling of `--since`.\\n\\n## [1.8.4] - 2024-04-02\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Unicode file names in reports.\\n", "README.md": "# netpulse\\n\\n_Synthetic uptime probes._\\n\\n**Language:** Go \\u00b7 **License:** MPL-2.0\\n\\nnetpulse is maintained by a small team at Gaines, Cook and Weaver. It started as an internal tool in 2019 and is now used by a few teams.\\n\\n## Features\\n\\n- HTTP, TCP and DNS probes\\n- Prometheus metrics\\n- Structured JSON logs\\n- A small CLI\\n- Offline mode\\n\\n## Usage\\n\\n```\\ngo install example.com/netpulse@latest\\nnetpulse version\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `NETPULSE_`:\\n\\n- `NETPULSE_TIMEOUT`\\n- `NETPULSE_LOG_LEVEL`\\n- `NETPULSE_COLOR`\\n\\n## Maintainers\\n\\n- Erin Koch\\n- Larry Sutton\\n- Matthew Santiago\\n- Molly Park\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "1.9.0\\n", "config/defaults.ini": "# netpulse defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 15\\nretries = 2\\nlog_level = warning\\n\\n[cache]\\nttl = 60\\nsize_mb = 256\\n\\n[health]\\ninterval = 30\\nunhealthy_threshold = 2\\n", "docs/architecture.md": "# Architecture\\n\\n1. Pin the version in production deployments.\\n2. Keep `config/defaults.ini` under version control.\\n3. Report bugs with the output of `netpulse doctor`.\\n", "docs/backups.md": "# Backups\\n\\n1. Check the installed version with `netpulse --version`.\\n2. Report bugs with the output of `netpulse doctor`.\\n3. Run with `LOG_LEVEL=debug` to see every request.\\n", "go.mod": "module example.com/netpulse\\n\\ngo 1.21\\n", "internal/report/report.go": "// Package report holds the report settings of netpulse.\\npackage report\\n\\nconst (\\n\\tTopN = 45\\n\\tDecimals = 256\\n\\tColumnWidth = 100\\n\\tMaxRows = 5\\n)\\n", "internal/retry/retry.go": "// Package retry holds the retry settings of netpulse.\\npackage retry\\n\\nconst (\\n\\tMaxRetries = 1000\\n\\tBaseDelayMs = 45\\n\\tMaxDelayMs = 8\\n\\tJitterPct = 45\\n)\\n", "internal/server/server.go": "// Package server holds the server settings of netpulse.\\npackage server\\n\\nconst (\\n\\tPort = 500\\n\\tWorkers = 60\\n\\tTimeoutS = 20\\n\\tMaxBodyKb = 8\\n)\\n", "regions.txt": "af-south-1\\nap-south-1\\nap-southeast-2\\neu-west-1\\nsa-east-1\\nus-east-1\\n", "version.go": "package main\\n\\n// Version is the released version of netpulse.\\nconst Version = \\"1.9.0\\"\\n"}, "history": [], "main_subjects": ["Tune retry JitterPct (120 -> 45)", "Add architecture guide", "Add deploy configuration", "Document backups", "Initial import of netpulse 1.9.0"], "message": "Untrack secrets/api_key.txt and ignore it", "path": "secrets/api_key.txt", "pattern": "secrets/", "purge": false, "secret": "yxwHnVqdvUQVfg2z8Be6p8qGUjCZfpK6\\n"}')
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
