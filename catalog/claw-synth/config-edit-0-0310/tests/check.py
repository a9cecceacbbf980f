"""Verify the edited config: what it parses to (sections and keys in order, values), its comment lines
(kept in order and section, the deleted ones gone, no stale commented-out copies), and the original /
backup file where the task asks for one."""
import configparser
import hashlib
import json
import re
import sys
import tomllib

DATA = json.loads('{"backup_path": "", "comments": [["", "# geofence: geofencing event processor"], ["", "# Managed by the platform team -- keep the comments, they document the settings."], ["", "# ---- server ----"], ["", "# Address to bind; 0.0.0.0 listens on all interfaces"], ["", "# debug must be off in production"], ["", "# ---- logging ----"], ["", "# rotated daily by logrotate"], ["", "# logging_file = /var/log/geofence/geofence.log"], ["", "# ---- rate_limit ----"], ["", "# what a limit is counted per"], ["", "# Optional cache settings. Uncomment to enable."], ["", "# ---- auth ----"], ["", "# seconds a token stays valid"], ["", "# auth_token_ttl = 3600"]], "counts": {"# ---- auth ----": 1, "# ---- logging ----": 1, "# ---- rate_limit ----": 1, "# ---- server ----": 1, "# Address to bind; 0.0.0.0 listens on all interfaces": 1, "# Managed by the platform team -- keep the comments, they document the settings.": 1, "# Optional cache settings. Uncomment to enable.": 1, "# auth_token_ttl = 3600": 1, "# debug must be off in production": 1, "# geofence: geofencing event processor": 1, "# logging_file = /var/log/geofence/geofence.log": 1, "# rotated daily by logrotate": 1, "# seconds a token stays valid": 1, "# what a limit is counted per": 1}, "fmt": "conf", "mode": "newfile", "original_comments": ["# ---- auth ----", "# ---- logging ----", "# ---- rate_limit ----", "# ---- server ----", "# Address to bind; 0.0.0.0 listens on all interfaces", "# Managed by the platform team -- keep the comments, they document the settings.", "# Optional cache settings. Uncomment to enable.", "# cache_backend = redis", "# cache_ttl = 300", "# cache_url = redis://localhost:6379/0", "# debug must be off in production", "# geofence: geofencing event processor", "# rotated daily by logrotate", "# seconds a token stays valid", "# what a limit is counted per"], "original_sha256": "973e25ca877f7ac4a5fbcee66845d34475cb5c3ddb34a45ef6c74ab9fcc54a4c", "out_path": "/app/deploy/geofence.new.conf", "path": "/app/deploy/geofence.conf", "sections": [["", [["server_host", "0.0.0.0"], ["server_workers", "2"], ["server_trusted_proxy", "10.0.0.0/8"], ["server_debug_mode", "yes"], ["server_request_timeout", "30"], ["server_max_body_kb", "512"], ["logging_level", "warning"], ["logging_rotate_days", "30"], ["rate_limit_requests_per_minute", "30"], ["rate_limit_burst", "20"], ["rate_limit_by", "ip"], ["cache_backend", "memcached"], ["cache_url", "redis://10.0.9.4:6380/1"], ["cache_ttl", "300"], ["auth_audience", "geofence-api"], ["auth_allow_anonymous", "yes"]]]]}')
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
