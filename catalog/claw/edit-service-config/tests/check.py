"""Verify /app/config/service.ini: values changed, cache enabled, all comments kept in place."""
import configparser
import re
import sys

PATH = "/app/config/service.ini"

EXPECTED = {
    "server": {"host": "0.0.0.0", "port": "9090", "workers": "8", "debug": "false", "request_timeout": "30"},
    "database": {"host": "db.internal", "port": "5432", "name": "orders", "user": "orderd", "pool_size": "20"},
    "logging": {"level": "warning", "file": "/var/log/orderd/orderd.log",
                "format": "%(asctime)s %(levelname)s [%(name)s] %(message)s"},
    "cache": {"backend": "redis", "url": "redis://cache.internal:6379/0", "ttl": "600"},
    "metrics": {"enabled": "true", "port": "9102", "path": "/metrics"},
}
# (section the comment lives in, comment text) in file order; None = before the first section
EXPECTED_COMMENTS = [
    (None, "# Service configuration for orderd"),
    (None, "# Managed by ops -- keep the comments, they are our documentation."),
    ("server", "# Address to bind; 0.0.0.0 listens on all interfaces"),
    ("server", "# One worker per CPU core is a good default"),
    ("server", "; debug must be off in production"),
    ("database", "# Primary database (read/write)"),
    ("database", "; the password comes from the ORDERD_DB_PASSWORD environment variable"),
    ("logging", "# Log file path; rotated daily by logrotate"),
    ("logging", "# Optional response cache. Uncomment to enable."),
    ("metrics", "# Prometheus exporter"),
]
STALE_CACHE = re.compile(r"^[#;]\s*(\[cache\]|backend\s*=|url\s*=|ttl\s*=)")

errors = []
try:
    text = open(PATH).read()
except OSError as exc:
    print(f"FAIL: cannot read {PATH}: {exc}")
    sys.exit(1)

parser = configparser.ConfigParser(interpolation=None)
try:
    parser.read_string(text)
except configparser.Error as exc:
    print(f"FAIL: configparser cannot load the file: {exc}")
    sys.exit(1)

if parser.sections() != list(EXPECTED):
    errors.append(f"sections {parser.sections()} != expected {list(EXPECTED)}")
for section, want in EXPECTED.items():
    if not parser.has_section(section):
        continue
    got = dict(parser.items(section))
    if got != want:
        errors.append(f"[{section}] is {got}, expected {want}")

comments, section = [], None
for raw in text.splitlines():
    line = raw.strip()
    m = re.fullmatch(r"\[([^\]]+)\]", line)
    if m:
        section = m.group(1).strip()
    elif line.startswith(("#", ";")):
        if STALE_CACHE.match(line):
            errors.append(f"commented-out cache line still present: {raw!r}")
        comments.append((section, line))
# every expected comment must appear, in order, in its section (extra comments are tolerated)
it = iter(comments)
for want in EXPECTED_COMMENTS:
    if not any(got == want for got in it):
        errors.append(f"comment missing, changed, moved or out of order: {want}")
        it = iter(comments)

if errors:
    print("FAIL")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print("PASS")
