"""Verify the edited config: what it parses to (sections and keys in order, values), its comment lines
(kept in order and section, the deleted ones gone, no stale commented-out copies), and the original /
backup file where the task asks for one."""
import configparser
import hashlib
import json
import re
import sys
import tomllib

DATA = json.loads('{"backup_path": "", "comments": [["", "# orderd: order intake and fulfilment API"], ["", "# Managed by the platform team -- keep the comments, they document the settings."], ["server", "; Address to bind; 0.0.0.0 listens on all interfaces"], ["server", "; debug must be off in production"], ["server", "; seconds"], ["queue", "# Message broker URL"], ["queue", "# broker = redis://localhost:6379/1"], ["queue", "# give up after this many attempts"], ["queue", "# Optional metrics settings. Uncomment to enable."]], "counts": {"# Managed by the platform team -- keep the comments, they document the settings.": 1, "# Message broker URL": 1, "# Optional metrics settings. Uncomment to enable.": 1, "# broker = redis://localhost:6379/1": 1, "# give up after this many attempts": 1, "# orderd: order intake and fulfilment API": 1, "; Address to bind; 0.0.0.0 listens on all interfaces": 1, "; debug must be off in production": 1, "; seconds": 1}, "fmt": "ini", "mode": "inplace", "original_comments": ["# Managed by the platform team -- keep the comments, they document the settings.", "# Message broker URL", "# Optional metrics settings. Uncomment to enable.", "# [metrics]", "# enabled = true", "# give up after this many attempts", "# orderd: order intake and fulfilment API", "# path = /metrics", "# port = 9102", "; Address to bind; 0.0.0.0 listens on all interfaces", "; debug must be off in production", "; seconds"], "original_sha256": "f5e9c130d06df3e1612cbd7efc56488a522a85079e710fd0678e6f513269d59f", "out_path": "/app/services/orderd/settings.ini", "path": "/app/services/orderd/settings.ini", "sections": [["server", [["host", "::"], ["port", "8080"], ["debug", "true"], ["request_timeout", "15"], ["trusted_proxy", "10.0.0.0/8"]]], ["auth", [["oidc_issuer", "https://id.example.org"], ["audience", "orderd"], ["allow_anonymous", "false"]]], ["queue", [["prefetch", "32"], ["retry_limit", "10"], ["dead_letter", "dlq"]]], ["metrics", [["enabled", "true"], ["port", "9102"], ["path", "/metrics"]]], ["smtp", [["relay_host", "relay.example.net"], ["starttls", "false"], ["sender", "ops@example.org"]]], ["logging", [["level", "warning"], ["file", "/var/log/orderd/orderd.log"], ["format", "json"]]]]}')
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
