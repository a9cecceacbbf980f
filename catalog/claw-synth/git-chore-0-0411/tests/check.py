"""Verify the merge: a merge commit with the right parents, the rule-defined contents, a clean tree."""
import configparser
import json
import os
import subprocess
import sys

REPO = '/app/repos/pgsnap'
DATA = json.loads('{"config": {"cache": {"size_mb": "256", "ttl": "600"}, "core": {"log_level": "error", "retries": "3", "timeout": "30"}, "health": {"interval": "30", "unhealthy_threshold": "5"}}, "expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to pgsnap are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [0.4.2] - 2024-01-18\\n\\n### Fixed\\n- Unicode file names in reports.\\n- Memory leak in the watcher.\\n\\n## [0.4.1] - 2023-12-19\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Memory leak in the watcher.\\n", "README.md": "# pgsnap\\n\\n_Point-in-time snapshots for PostgreSQL._\\n\\n**Language:** Go \\u00b7 **License:** BSD-3-Clause\\n\\npgsnap is maintained by a small team at Clark-Beltran. It started as an internal tool in 2017 and is now used by a few teams.\\n\\n## Features\\n\\n- Incremental snapshots\\n- S3 upload\\n- Configuration via environment variables\\n- Structured JSON logs\\n- Zero runtime dependencies\\n\\n## Usage\\n\\n```\\ngo install example.com/pgsnap@latest\\npgsnap version\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `PGSNAP_`:\\n\\n- `PGSNAP_CACHE_TTL`\\n- `PGSNAP_TIMEOUT`\\n- `PGSNAP_COLOR`\\n\\n## Maintainers\\n\\n- Calvin Harris\\n- Elijah Bryan\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n\\nOwned by the core team.\\n", "VERSION": "0.4.2\\n", "allowed_hosts.txt": "api.example.com\\nauth.example.com\\nbackup.internal\\ncdn.example.net\\ndb.internal\\ndocs.example.com\\ngit.internal\\nmetrics.internal\\nqueue.internal\\nsearch.internal\\nstatus.example.com\\nwww.example.com\\n", "docs/glossary.md": "# Glossary\\n\\n1. Keep `config/defaults.ini` under version control.\\n2. Back up the data directory before a major upgrade.\\n3. Report bugs with the output of `pgsnap doctor`.\\n", "go.mod": "module example.com/pgsnap\\n\\ngo 1.21\\n", "internal/report/report.go": "// Package report holds the report settings of pgsnap.\\npackage report\\n\\nconst (\\n\\tTopN = 16\\n\\tDecimals = 1000\\n\\tColumnWidth = 256\\n\\tMaxRows = 120\\n)\\n", "internal/retry/retry.go": "// Package retry holds the retry settings of pgsnap.\\npackage retry\\n\\nconst (\\n\\tMaxRetries = 256\\n\\tBaseDelayMs = 256\\n\\tMaxDelayMs = 120\\n\\tJitterPct = 250\\n)\\n", "internal/sync/sync.go": "// Package sync holds the sync settings of pgsnap.\\npackage sync\\n\\nconst (\\n\\tBatchSize = 1000\\n\\tIntervalS = 60\\n\\tMaxLagS = 3\\n\\tConcurrency = 20\\n)\\n", "version.go": "package main\\n\\n// Version is the released version of pgsnap.\\nconst Version = \\"0.4.2\\"\\n"}, "feature": "feature/next", "feature_tip": "Raise TopN to 16 in report", "main_before": "Raise defaults after load test", "message": "Merge feature/next"}')
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
    feature = DATA["feature"]
    if not exists(f"refs/heads/{feature}") or subjects(f"refs/heads/{feature}")[0] != DATA["feature_tip"]:
        errors.append(f"{feature} was changed or deleted")
        return
    feat_tip = git("rev-parse", f"refs/heads/{feature}").strip()
    main_before = by_subject(DATA["main_before"], "refs/heads/main")
    tip = git("rev-parse", "refs/heads/main").strip()
    if parents(tip) != [main_before, feat_tip]:
        errors.append(f"main is not a merge commit with parents [old main, {feature}]; parents: {parents(tip)}")
    if DATA["message"] is not None and message(tip) != DATA["message"]:
        errors.append(f"merge commit message is {message(tip)!r}, expected {DATA['message']!r}")
    if head_branch() != "main":
        errors.append(f"HEAD is {head_branch() or 'detached'}, expected main")
    if os.path.exists(os.path.join(REPO, ".git", "MERGE_HEAD")):
        errors.append("a merge is still in progress")
    if status():
        errors.append(f"working tree not clean: {status()}")
    expected = dict(DATA["expected"])
    got = tree(tip)
    config_text = got.pop("config/defaults.ini", None)
    same = {k: v for k, v in got.items()}
    if sorted(same) != sorted(expected):
        errors.append(f"tracked files: {sorted(got)}, expected {sorted([*expected, 'config/defaults.ini'])}")
    for path, text in sorted(expected.items()):
        if path in same and same[path] != text:
            errors.append(f"{path} is not as expected:\n--- got ---\n{same[path][:1500]}\n--- expected ---\n{text[:1500]}")
    if config_text is None:
        errors.append("config/defaults.ini is missing")
    else:
        cp = configparser.ConfigParser(interpolation=None)
        try:
            cp.read_string(config_text)
            parsed = {s: dict(cp[s]) for s in cp.sections()}
        except configparser.Error as exc:
            parsed = f"unparseable: {exc}"
        if parsed != DATA["config"]:
            errors.append(f"config/defaults.ini is {parsed!r}, expected {DATA['config']!r}")
        got["config/defaults.ini"] = config_text
    for path, body in got.items():
        for marker in ("<<<<<<<", ">>>>>>>", "|||||||"):
            if marker in body:
                errors.append(f"conflict marker {marker!r} in {path}")
        if "\n=======\n" in "\n" + body:
            errors.append(f"conflict separator in {path}")


finish(check)
