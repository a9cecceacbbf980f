"""Verify the edited config: what it parses to (sections and keys in order, values), its comment lines
(kept in order and section, the deleted ones gone, no stale commented-out copies), and the original /
backup file where the task asks for one."""
import configparser
import hashlib
import json
import re
import sys
import tomllib

DATA = json.loads('{"backup_path": "", "comments": [["", "# thumbnailer: image thumbnail worker"], ["", "# Managed by the platform team -- keep the comments, they document the settings."], ["server", "; Address to bind; 0.0.0.0 listens on all interfaces"], ["server", "; debug must be off in production"], ["server", "; seconds"], ["auth", "# seconds a token stays valid"], ["auth", "# allow_anonymous = true"], ["queue", "# Optional tracing settings. Uncomment to enable."], ["database", "# Primary database (read/write)"], ["database", "# the password comes from the environment"]], "counts": {"# Managed by the platform team -- keep the comments, they document the settings.": 1, "# Optional tracing settings. Uncomment to enable.": 1, "# Primary database (read/write)": 1, "# allow_anonymous = true": 1, "# seconds a token stays valid": 1, "# the password comes from the environment": 1, "# thumbnailer: image thumbnail worker": 1, "; Address to bind; 0.0.0.0 listens on all interfaces": 1, "; debug must be off in production": 1, "; seconds": 1}, "fmt": "ini", "mode": "newfile", "original_comments": ["# Managed by the platform team -- keep the comments, they document the settings.", "# Optional tracing settings. Uncomment to enable.", "# Primary database (read/write)", "# [tracing]", "# endpoint = http://localhost:4317", "# exporter = otlp", "# sample_ratio = 0.1", "# seconds a token stays valid", "# the password comes from the environment", "# thumbnailer: image thumbnail worker", "; Address to bind; 0.0.0.0 listens on all interfaces", "; debug must be off in production", "; seconds"], "original_sha256": "fd3df19ad93eb2daf9eebf1feb27cf6d9376437f67316a53a784272a1dc53751", "out_path": "/app/deploy/thumbnailer-next.ini", "path": "/app/deploy/thumbnailer.ini", "sections": [["server", [["host", "::"], ["port", "8000"], ["workers", "2"], ["debug_mode", "false"], ["request_timeout", "15"]]], ["auth", [["issuer", "https://id.example.org"], ["token_ttl", "900"]]], ["queue", [["broker", "redis://localhost:6379/1"], ["prefetch", "8"], ["retry_limit", "10"], ["dead_letter", "thumbnailer.dlq"]]], ["tracing", [["exporter", "jaeger"], ["endpoint", "http://tracing.internal:4317"], ["sample_ratio", "0.1"]]], ["database", [["host", "db-primary"], ["port", "3306"], ["name", "thumbnailer_main"], ["user", "thumbnailer"], ["pool_size", "5"], ["connect_timeout", "8"], ["sslmode", "prefer"]]], ["storage", [["backend", "local"], ["bucket", "thumbnailer-data"], ["path", "/var/lib/thumbnailer"]]]]}')
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
