"""Verify the squash: one commit on the old base with the branch's old tree and the asked message."""
import json
import os
import subprocess
import sys

REPO = '/app/repos/netpulse'
DATA = json.loads('{"base": "Tune retry JitterPct (100 -> 20)", "branch": "wip/report-tuning", "expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to netpulse are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [2.7.2] - 2024-03-29\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Memory leak in the watcher.\\n\\n## [2.7.1] - 2024-02-28\\n\\n### Fixed\\n- Timezone handling of `--since`.\\n- Wrong exit code on `--help`.\\n", "README.md": "# netpulse\\n\\n_Synthetic uptime probes._\\n\\n**Language:** Go \\u00b7 **License:** MPL-2.0\\n\\nnetpulse is maintained by a small team at Gaines, Cook and Weaver. It started as an internal tool in 2019 and is now used by a few teams.\\n\\n## Features\\n\\n- HTTP, TCP and DNS probes\\n- Prometheus metrics\\n- Structured JSON logs\\n- A small CLI\\n- Offline mode\\n\\n## Usage\\n\\n```\\ngo install example.com/netpulse@latest\\nnetpulse version\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `NETPULSE_`:\\n\\n- `NETPULSE_TIMEOUT`\\n- `NETPULSE_LOG_LEVEL`\\n- `NETPULSE_COLOR`\\n\\n## Maintainers\\n\\n- Erin Koch\\n- Larry Sutton\\n- Matthew Santiago\\n- Molly Park\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n", "VERSION": "2.7.2\\n", "allowed_hosts.txt": "api.example.com\\nauth.example.com\\ndb.internal\\nmail.example.com\\nmetrics.internal\\nstatus.example.com\\n", "config/defaults.ini": "# netpulse defaults (overridden by environment variables)\\n\\n[core]\\ntimeout = 60\\nretries = 5\\nlog_level = debug\\n\\n[cache]\\nttl = 60\\nsize_mb = 256\\n\\n[health]\\ninterval = 30\\nunhealthy_threshold = 3\\n", "docs/installation.md": "# Installation\\n\\n1. Rotate the log files daily.\\n2. Back up the data directory before a major upgrade.\\n3. Keep `config/defaults.ini` under version control.\\n", "go.mod": "module example.com/netpulse\\n\\ngo 1.21\\n", "internal/report/report.go": "// Package report holds the report settings of netpulse.\\npackage report\\n\\nconst (\\n\\tTopN = 50\\n\\tDecimals = 500\\n\\tColumnWidth = 5\\n\\tMaxRows = 1000\\n)\\n", "internal/retry/retry.go": "// Package retry holds the retry settings of netpulse.\\npackage retry\\n\\nconst (\\n\\tMaxRetries = 80\\n\\tBaseDelayMs = 4\\n\\tMaxDelayMs = 256\\n\\tJitterPct = 20\\n)\\n", "internal/server/server.go": "// Package server holds the server settings of netpulse.\\npackage server\\n\\nconst (\\n\\tPort = 2\\n\\tWorkers = 20\\n\\tTimeoutS = 500\\n\\tMaxBodyKb = 3\\n)\\n", "version.go": "package main\\n\\n// Version is the released version of netpulse.\\nconst Version = \\"2.7.2\\"\\n"}, "main_subjects": ["Document release-process", "Tune retry JitterPct (100 -> 20)", "Initial import of netpulse 2.7.2"], "message": "Report tuning", "wip": ["report: raise Decimals from 120 to 500", "Tune server Port (50 -> 2)", "Add installation guide"]}')
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
