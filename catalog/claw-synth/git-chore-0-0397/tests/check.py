"""Verify the merge: a merge commit with the right parents, the rule-defined contents, a clean tree."""
import configparser
import json
import os
import subprocess
import sys

REPO = '/app/repos/cronguard'
DATA = json.loads('{"config": {"cache": {"size_mb": "128", "ttl": "900"}, "core": {"log_level": "warning", "retries": "2", "timeout": "90"}, "health": {"interval": "5", "unhealthy_threshold": "3"}}, "expected": {".gitignore": "*.log\\n/build/\\n/dist/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to cronguard are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [2.9.4] - 2024-04-24\\n\\n### Fixed\\n- Crash when the config file is empty.\\n- Unicode file names in reports.\\n\\n## [2.9.3] - 2024-03-25\\n\\n### Fixed\\n- Retry delay ignored the configured maximum.\\n- Unicode file names in reports.\\n", "Cargo.toml": "[package]\\nname = \\"cronguard\\"\\nversion = \\"2.9.4\\"\\nedition = \\"2021\\"\\ndescription = \\"A watchdog for scheduled jobs\\"\\n", "README.md": "# cronguard\\n\\n_A watchdog for scheduled jobs._\\n\\n**Language:** Rust \\u00b7 **License:** BSD-3-Clause\\n\\ncronguard is maintained by a small team at Brown, Ware and Peters. It started as an internal tool in 2022 and is now used by a few teams.\\n\\n## Features\\n\\n- Missed-run alerts\\n- Run history\\n- Shell completions\\n- Zero runtime dependencies\\n- Offline mode\\n\\n## Usage\\n\\n```\\ncargo install cronguard\\ncronguard --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `CRONGUARD_`:\\n\\n- `CRONGUARD_DATA_DIR`\\n- `CRONGUARD_LOG_LEVEL`\\n- `CRONGUARD_CACHE_TTL`\\n\\n## Maintainers\\n\\n- David Rush\\n- John Williams\\n- Christopher Roach\\n- Jennifer Lopez\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n\\nOwned by the platform team.\\n", "VERSION": "2.9.4\\n", "docs/upgrading.md": "# Upgrading\\n\\n1. Keep `config/defaults.ini` under version control.\\n2. Rotate the log files daily.\\n3. Read the CHANGELOG before upgrading across a minor version.\\n", "plugins.txt": "audit\\nauth-ldap\\nauth-oidc\\nexport-csv\\nexport-parquet\\ngeoip\\nhealthcheck\\ni18n\\nratelimit\\nthumbnails\\nwebhooks\\n", "src/retry.rs": "//! cronguard: retry settings.\\n\\npub const MAX_RETRIES: u32 = 4;\\npub const BASE_DELAY_MS: u32 = 500;\\npub const MAX_DELAY_MS: u32 = 256;\\npub const JITTER_PCT: u32 = 256;\\n", "src/server.rs": "//! cronguard: server settings.\\n\\npub const PORT: u32 = 2;\\npub const WORKERS: u32 = 50;\\npub const TIMEOUT_S: u32 = 4;\\npub const MAX_BODY_KB: u32 = 2;\\n", "src/storage.rs": "//! cronguard: storage settings.\\n\\npub const PAGE_SIZE: u32 = 45;\\npub const CACHE_TTL_S: u32 = 64;\\npub const MAX_ITEMS: u32 = 12;\\npub const FLUSH_EVERY: u32 = 4;\\n"}, "feature": "feature/more-hosts", "feature_tip": "Raise MAX_DELAY_MS to 256 in retry", "main_before": "Update defaults and ownership note", "message": "Merge branch \'feature/more-hosts\' into main"}')
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
