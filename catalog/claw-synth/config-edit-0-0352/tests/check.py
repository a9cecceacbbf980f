"""Verify the edited config: what it parses to (sections and keys in order, values), its comment lines
(kept in order and section, the deleted ones gone, no stale commented-out copies), and the original /
backup file where the task asks for one."""
import configparser
import hashlib
import json
import re
import sys
import tomllib

DATA = json.loads('{"backup_path": "", "comments": [["", "# feedsync: partner feed synchroniser"], ["", "# Managed by the platform team -- keep the comments, they document the settings."], ["", "# Format: TOML. Strings are quoted, numbers and booleans are not."], ["server", "# One worker per CPU core is a good default"], ["server", "# debug must be off in production"], ["server", "# seconds"], ["database", "# Primary database (read/write)"], ["auth", "# Optional metrics settings. Uncomment to enable."], ["queue", "# Message broker URL"]], "counts": {"# Format: TOML. Strings are quoted, numbers and booleans are not.": 1, "# Managed by the platform team -- keep the comments, they document the settings.": 1, "# Message broker URL": 1, "# One worker per CPU core is a good default": 1, "# Optional metrics settings. Uncomment to enable.": 1, "# Primary database (read/write)": 1, "# debug must be off in production": 1, "# feedsync: partner feed synchroniser": 1, "# seconds": 1}, "fmt": "toml", "mode": "inplace", "original_comments": ["# Address to bind; 0.0.0.0 listens on all interfaces", "# Format: TOML. Strings are quoted, numbers and booleans are not.", "# Managed by the platform team -- keep the comments, they document the settings.", "# Message broker URL", "# One worker per CPU core is a good default", "# Optional metrics settings. Uncomment to enable.", "# Primary database (read/write)", "# [metrics]", "# debug must be off in production", "# enabled = true", "# feedsync: partner feed synchroniser", "# path = \\"/metrics\\"", "# port = 9102", "# seconds"], "original_sha256": "5423cda0f9a299a084e7356a00b84d515b8ac3623034abccd40ebb86e76e71b5", "out_path": "/app/etc/feedsync/feedsync.toml", "path": "/app/etc/feedsync/feedsync.toml", "sections": [["server", [["port", 9000], ["workers", 4], ["debug", true], ["request_timeout", 15], ["max_body_kb", 4096]]], ["storage", [["backend", "local"], ["bucket", "feedsync-archive"], ["path", "/data/feedsync"], ["max_size_gb", 150]]], ["database", [["host", "db-primary"], ["port", 3306], ["name", "feedsync_prod"], ["pool_size", 10], ["connect_timeout", 3], ["sslmode", "prefer"]]], ["auth", [["issuer", "https://id.example.org"], ["audience", "feedsync"], ["allow_anonymous", true]]], ["metrics", [["enabled", true], ["port", 8443], ["path", "/mnt/feedsync/cache"]]], ["queue", [["broker", "amqp://mq.internal:5672/"], ["retry_limit", 3], ["dead_letter", "feedsync.dlq"]]]]}')
FMT = DATA["fmt"]
errors = []


def load(text):
    if FMT == "ini":
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(text)
        return [[s, [[k, v] for k, v in parser.items(s)]] for s in parser.sections()]
    if FMT == "toml":
        data = tomllib.loads(text)
        out = []
        for name, table in data.items():
            if not isinstance(table, dict):
                raise ValueError(f"top-level key {name!r} outside any table")
            out.append([name, [[k, v] for k, v in table.items()]])
        return out
    pairs, seen = [], set()
    for no, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if not s or s.startswith("#"):
            continue
        if "=" not in s:
            raise ValueError(f"line {no}: {raw!r} is neither a comment nor key = value")
        k, _, v = s.partition("=")
        k = k.strip()
        if k in seen:
            raise ValueError(f"key {k!r} appears twice")
        seen.add(k)
        pairs.append([k, v.strip()])
    return [["", pairs]]


def comments_of(text):
    out, section = [], ""
    for raw in text.splitlines():
        s = raw.strip()
        if FMT != "conf" and re.fullmatch(r"\[[^\]]+\]", s):
            section = s[1:-1].strip()
        elif s.startswith("#") or (FMT == "ini" and s.startswith(";")):
            out.append([section, s])
    return out


def typed(v):
    return [type(v).__name__, v]


def main():
    try:
        with open(DATA["out_path"], encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        print(f"FAIL: cannot read {DATA['out_path']}: {exc}")
        return 1
    try:
        got = load(text)
    except Exception as exc:  # noqa: BLE001
        print(f"FAIL: {DATA['out_path']} does not load: {type(exc).__name__}: {exc}")
        return 1
    want = DATA["sections"]
    if [s for s, _ in got] != [s for s, _ in want]:
        errors.append(f"sections are {[s for s, _ in got]}, expected {[s for s, _ in want]}")
    got_by = dict((s, kv) for s, kv in got)
    for section, pairs in want:
        have = got_by.get(section)
        if have is None:
            continue
        label = f"[{section}]" if section else "the file"
        if [k for k, _ in have] != [k for k, _ in pairs]:
            errors.append(f"keys of {label} are {[k for k, _ in have]}, expected (in this order) {[k for k, _ in pairs]}")
        have_d = dict((k, v) for k, v in have)
        for k, v in pairs:
            if k in have_d and typed(have_d[k]) != typed(v):
                errors.append(f"{label} {k} = {have_d[k]!r}, expected {v!r}")

    comments = comments_of(text)
    it = iter(comments)
    for c in DATA["comments"]:
        if not any(g == c for g in it):
            errors.append(f"comment missing, changed, moved or out of order: {c[1]!r}" + (f" in [{c[0]}]" if c[0] else ""))
            it = iter(comments)
    counts = {}
    for _, c in comments:
        counts[c] = counts.get(c, 0) + 1
    code_like = re.compile(r"[#;]\s*(\[[A-Za-z0-9_.]+\]\s*$|[A-Za-z0-9_.]+\s*=)")
    for c, n in counts.items():
        allowed = DATA["counts"].get(c, 0)
        if (c in ORIGINAL_COMMENTS or code_like.match(c)) and n > allowed:
            errors.append(f"comment line {c!r} appears {n} time(s), expected {allowed} (deleted or stale commented-out line?)")

    if DATA["mode"] == "newfile":
        try:
            with open(DATA["path"], "rb") as fh:
                if hashlib.sha256(fh.read()).hexdigest() != DATA["original_sha256"]:
                    errors.append(f"{DATA['path']} was modified; it must stay as it was")
        except OSError:
            errors.append(f"{DATA['path']} is missing; it must stay as it was")
    if DATA["mode"] == "backup":
        try:
            with open(DATA["backup_path"], "rb") as fh:
                if hashlib.sha256(fh.read()).hexdigest() != DATA["original_sha256"]:
                    errors.append(f"{DATA['backup_path']} is not an exact copy of the original file")
        except OSError:
            errors.append(f"backup {DATA['backup_path']} is missing")

    if errors:
        print("FAIL")
        for e in errors:
            print(" -", e)
        return 1
    print("PASS")
    return 0


ORIGINAL_COMMENTS = set(DATA["original_comments"])
sys.exit(main())
