"""Verify the merge: a merge commit with the right parents, the rule-defined contents, a clean tree."""
import configparser
import json
import os
import subprocess
import sys

REPO = '/app/src/dataweir'
DATA = json.loads('{"config": {"cache": {"size_mb": "1024", "ttl": "60"}, "core": {"log_level": "info", "retries": "4", "timeout": "45"}, "health": {"interval": "10", "unhealthy_threshold": "2"}}, "expected": {".gitignore": "__pycache__/\\n*.log\\n/build/\\n", "CHANGELOG.md": "# Changelog\\n\\nAll notable changes to dataweir are documented in this file.\\nThe format follows Keep a Changelog; versions follow Semantic Versioning.\\n\\n## [Unreleased]\\n\\n## [0.7.1] - 2024-02-21\\n\\n### Fixed\\n- Wrong exit code on `--help`.\\n- Crash when the config file is empty.\\n\\n## [0.7.0] - 2024-01-22\\n\\n### Fixed\\n- Wrong exit code on `--help`.\\n- Memory leak in the watcher.\\n", "README.md": "# dataweir\\n\\n_Schema checks for CSV drops._\\n\\n**Language:** Python \\u00b7 **License:** Apache-2.0\\n\\ndataweir is maintained by a small team at Quinn, Baker and Maynard. It started as an internal tool in 2019 and is now used by a few teams.\\n\\n## Features\\n\\n- Column type inference\\n- Drift reports\\n- Zero runtime dependencies\\n- Configuration via environment variables\\n- Shell completions\\n\\n## Usage\\n\\n```\\npip install dataweir\\ndataweir --help\\n```\\n\\n## Configuration\\n\\nSettings are read from environment variables prefixed with `DATAWEIR_`:\\n\\n- `DATAWEIR_LOG_LEVEL`\\n- `DATAWEIR_TIMEOUT`\\n- `DATAWEIR_DATA_DIR`\\n\\n## Maintainers\\n\\n- Stephanie Paul\\n- Patricia Baker\\n\\n## Contributing\\n\\nOpen an issue before large changes. Every change needs a CHANGELOG entry under `[Unreleased]`.\\n\\nOwned by the infra team.\\n", "VERSION": "0.7.1\\n", "docs/logging.md": "# Logging\\n\\n1. Pin the version in production deployments.\\n2. Rotate the log files daily.\\n3. Run with `LOG_LEVEL=debug` to see every request.\\n", "docs/upgrading.md": "# Upgrading\\n\\n1. Check the installed version with `dataweir --version`.\\n2. Back up the data directory before a major upgrade.\\n3. Read the CHANGELOG before upgrading across a minor version.\\n", "pyproject.toml": "[project]\\nname = \\"dataweir\\"\\nversion = \\"0.7.1\\"\\ndescription = \\"Schema checks for CSV drops\\"\\nrequires-python = \\">=3.9\\"\\n", "regions.txt": "af-south-1\\nap-northeast-1\\nap-south-1\\nap-southeast-2\\nca-central-1\\neu-central-1\\neu-south-1\\neu-west-1\\neu-west-3\\nme-south-1\\nsa-east-1\\nus-east-1\\n", "src/dataweir/__init__.py": "\\"\\"\\"dataweir: Schema checks for CSV drops.\\"\\"\\"\\n\\n__version__ = \\"0.7.1\\"\\n", "src/dataweir/retry.py": "\\"\\"\\"dataweir: retry settings.\\"\\"\\"\\n\\nMAX_RETRIES = 250\\nBASE_DELAY_MS = 50\\nMAX_DELAY_MS = 250\\nJITTER_PCT = 12\\n", "src/dataweir/server.py": "\\"\\"\\"dataweir: server settings.\\"\\"\\"\\n\\nPORT = 250\\nWORKERS = 12\\nTIMEOUT_S = 10\\nMAX_BODY_KB = 25\\n", "src/dataweir/sync.py": "\\"\\"\\"dataweir: sync settings.\\"\\"\\"\\n\\nBATCH_SIZE = 80\\nINTERVAL_S = 45\\nMAX_LAG_S = 30\\nCONCURRENCY = 25\\n"}, "feature": "feature/next", "feature_tip": "Tune server WORKERS (5 -> 12)", "main_before": "Raise defaults after load test", "message": "Merge branch \'feature/next\' into main"}')
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
