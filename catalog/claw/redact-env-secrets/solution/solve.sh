#!/bin/bash
# Reference solution: line-wise redaction of .env, recursive walk of settings.json.
set -euo pipefail
python3 - <<'PY'
import json, re

MASK = "***REDACTED***"

def sensitive(key):
    k = key.lower()
    return any(w in k for w in ("secret", "password", "passwd", "token")) or k.endswith("key")

listed = []

def note(entry):
    if entry not in listed:
        listed.append(entry)

# .env
with open("/app/config/.env", encoding="utf-8", newline="") as fh:
    lines = fh.read().split("\n")
out = []
for line in lines:
    m = re.match(r"^(export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$", line)
    if m and sensitive(m.group(2)) and m.group(3) not in ("", '""', "''"):
        line = line[: line.index("=") + 1] + MASK
        note(".env:" + m.group(2))
    out.append(line)
with open("/app/config/.env", "w", encoding="utf-8", newline="") as fh:
    fh.write("\n".join(out))

# settings.json
def walk(node, path):
    if isinstance(node, dict):
        for k, v in node.items():
            p = path + [k]
            if sensitive(k) and isinstance(v, str) and v != "":
                node[k] = MASK
                note("settings.json:" + ".".join(p))
            elif isinstance(v, (dict, list)):
                walk(v, p)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk(v, path + [str(i)])

with open("/app/config/settings.json", encoding="utf-8") as fh:
    doc = json.load(fh)
walk(doc, [])
with open("/app/config/settings.json", "w", encoding="utf-8") as fh:
    json.dump(doc, fh, indent=2, ensure_ascii=False)
    fh.write("\n")

with open("/app/redacted_keys.txt", "w", encoding="utf-8") as fh:
    fh.write("".join(e + "\n" for e in listed))
PY
