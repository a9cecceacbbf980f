"""Verify the edited config: what it parses to (sections and keys in order, values), its comment lines
(kept in order and section, the deleted ones gone, no stale commented-out copies), and the original /
backup file where the task asks for one."""
import configparser
import hashlib
import json
import re
import sys
import tomllib

DATA = json.loads('{"backup_path": "", "comments": [["", "# billing-gw: payment gateway adapter"], ["", "# Managed by the platform team -- keep the comments, they document the settings."], ["server", "# Address to bind; 0.0.0.0 listens on all interfaces"], ["server", "# Optional cache settings. Uncomment to enable."], ["logging", "# rotated daily by logrotate"], ["rate_limit", "# what a limit is counted per"], ["storage", "; local cache directory"], ["queue", "; give up after this many attempts"]], "counts": {"# Address to bind; 0.0.0.0 listens on all interfaces": 1, "# Managed by the platform team -- keep the comments, they document the settings.": 1, "# Optional cache settings. Uncomment to enable.": 1, "# billing-gw: payment gateway adapter": 1, "# rotated daily by logrotate": 1, "# what a limit is counted per": 1, "; give up after this many attempts": 1, "; local cache directory": 1}, "fmt": "ini", "mode": "inplace", "original_comments": ["# Address to bind; 0.0.0.0 listens on all interfaces", "# Managed by the platform team -- keep the comments, they document the settings.", "# Optional cache settings. Uncomment to enable.", "# [cache]", "# backend = redis", "# billing-gw: payment gateway adapter", "# rotated daily by logrotate", "# ttl = 300", "# url = redis://localhost:6379/0", "# what a limit is counted per", "; give up after this many attempts", "; local cache directory"], "original_sha256": "0083d6bc6a78887e2ac37b8f771aea20806a24170351e092211c11e01595b244", "out_path": "/app/config/billing-gw.ini", "path": "/app/config/billing-gw.ini", "sections": [["server", [["host", "0.0.0.0"], ["port", "8000"], ["read_timeout", "15"], ["max_body_kb", "1024"]]], ["cache", [["backend", "redis"], ["url", "redis://10.0.9.4:6380/1"], ["ttl", "3000"]]], ["logging", [["level", "info"], ["max_file_mb", "100"], ["file", "/var/log/billing-gw/billing-gw.log"], ["format", "json"], ["rotate_days", "30"]]], ["rate_limit", [["requests_per_minute", "60"], ["burst", "20"], ["exempt_ip", "127.0.0.1"], ["by", "token"]]], ["storage", [["backend", "s3"], ["path", "/data/billing-gw"], ["max_size_gb", "200"], ["retention_days", "90"]]], ["queue", [["retry_limit", "10"], ["dead_letter", "billing-gw.dlq"]]]]}')
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
