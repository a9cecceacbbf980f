"""Verify the backport: the fixes cherry-picked in order onto the maintenance branch, main untouched."""
import json
import os
import subprocess
import sys

REPO = '/app/src/netpulse'
DATA = json.loads('{"expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to netpulse are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [2.8.0] - 2024-04-18\\n\\n### Fixed\\n- Unicode file names in reports.\\n- Timezone handling of `--since`.\\n\\n## [2.7.4] - 2024-03-19\\n\\n### Fixed\\n- Memory leak in the watcher.\\n- Crash when the config file is empty.\\n", "README.md": "# netpulse\\n\\n_Synthetic uptime probes._\\n\\n**Language:** Go \\u00b7 **License:** MPL-2.0\\n\\nnetpulse is maintained by a small team at Gaines, Cook and Weaver. It started as an internal tool in 2019 and is now used by a few teams.\\n\\n## Features\\n\\n- HTTP, TCP and DNS probes\\n- Prometheus metrics\\n- Structured JSON logs\\n- A small CLI\\n- Offline mode\\n\\n## Usage\\n\\n```\\ngo install example.com/netpulse@latest\\nnetpulse version\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `NETPULSE_`:\\n\\n- `NETPULSE_TIMEOUT`\\n- `NETPULSE_LOG_LEVEL`\\n- `NETPULSE_COLOR`\\n\\n## Maintainers\\n\\n- Erin Koch\\n- Larry Sutton\\n- Matthew Santiago\\n- Molly Park\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "2.8.0\\n", "allowed_hosts.txt": "api.example.com\\ncdn.example.net\\ngit.internal\\nmetrics.internal\\nqueue.internal\\nwww.example.com\\n", "config/defaults.ini": "# netpulse defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 60\\nretries = 5\\nlog_level = debug\\n\\n[cache]\\nttl = 300\\nsize_mb = 1024\\n\\n[health]\\ninterval = 10\\nunhealthy_threshold = 2\\n", "docs/deployment.md": "# Deployment\\n\\n1. Pin the version in production deployments.\\n2. Keep `config/defaults.ini` under version control.\\n3. Rotate the log files daily.\\n", "go.mod": "module example.com/netpulse\\n\\ngo 1.21\\n", "internal/report/report.go": "// Package report holds the report settings of netpulse.\\npackage report\\n\\nconst (\\n\\tTopN = 20\\n\\tDecimals = 128\\n\\tColumnWidth = 10\\n\\tMaxRows = 64\\n)\\n", "internal/retry/retry.go": "// Package retry holds the retry settings of netpulse.\\npackage retry\\n\\nconst (\\n\\tMaxRetries = 256\\n\\tBaseDelayMs = 60\\n\\tMaxDelayMs = 5\\n\\tJitterPct = 80\\n)\\n", "internal/server/server.go": "// Package server holds the server settings of netpulse.\\npackage server\\n\\nconst (\\n\\tPort = 4\\n\\tWorkers = 256\\n\\tTimeoutS = 30\\n\\tMaxBodyKb = 12\\n)\\n", "version.go": "package main\\n\\n// Version is the released version of netpulse.\\nconst Version = \\"2.8.0\\"\\n"}, "fixes": ["Lower JitterPct to 80 in retry"], "main_subjects": ["Tune server Port (4 -> 128)", "Lower JitterPct to 80 in retry", "docs: add release-process page", "Tune retry MaxDelayMs (16 -> 5)", "Initial import of netpulse 2.8.0"], "maint": "maint/2.8.x", "maint_subjects": ["Add deployment guide", "Tune retry MaxDelayMs (16 -> 5)", "Initial import of netpulse 2.8.0"], "with_x": false}')
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
