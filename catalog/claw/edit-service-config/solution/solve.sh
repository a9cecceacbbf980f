#!/bin/bash
# Reference solution: line-based edits that leave comments and layout alone.
set -euo pipefail
python3 - <<'PY'
import re
path = "/app/config/service.ini"
changes = {
    ("server", "port"): "9090", ("server", "workers"): "8", ("server", "debug"): "false",
    ("database", "host"): "db.internal", ("database", "pool_size"): "20",
    ("logging", "level"): "warning", ("metrics", "enabled"): "true",
}
cache = {"# [cache]": "[cache]", "# backend = redis": "backend = redis",
         "# url = redis://localhost:6379/0": "url = redis://cache.internal:6379/0", "# ttl = 300": "ttl = 600"}
out, section = [], None
for line in open(path).read().splitlines():
    stripped = line.strip()
    if stripped in cache:
        line = cache[stripped]
        stripped = line
    m = re.fullmatch(r"\[(.+)\]", stripped)
    if m:
        section = m.group(1)
    kv = re.fullmatch(r"([A-Za-z_]+)\s*=\s*(.*)", stripped)
    if kv and (section, kv.group(1)) in changes:
        line = f"{kv.group(1)} = {changes[(section, kv.group(1))]}"
    out.append(line)
open(path, "w").write("\n".join(out) + "\n")
PY
