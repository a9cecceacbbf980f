#!/bin/bash
# Reference solution: line-based edits that leave comments, order and layout alone.
set -euo pipefail
python3 - <<'PY'
import json
import re

SRC = '/app/thumbnailer/conf/thumbnailer.ini'
DST = '/app/thumbnailer/conf/thumbnailer.ini'
FMT = 'ini'
# The requested changes, transcribed from the instructions.
OPS = json.loads('[{"key": "allow_anonymous", "op": "set", "section": "auth", "value": "false", "values": []}, {"block": "tracing", "op": "enable", "section": "tracing", "values": [["exporter", "jaeger"], ["endpoint", "http://localhost:4317"], ["sample_ratio", "0.1"]]}, {"key": "retry_limit", "new_key": "max_retries", "op": "rename", "section": "queue", "values": []}, {"key": "issuer", "op": "remove", "section": "auth", "values": []}, {"key": "backend", "op": "remove", "section": "storage", "values": []}]')

lines = open(SRC, encoding="utf-8").read().splitlines()


def section_at(i):
    """The section line i is in (conf files have none: the key's prefix decides)."""
    if FMT == "conf":
        return None
    for j in range(i, -1, -1):
        m = re.fullmatch(r"\[([^\]]+)\]", lines[j].strip())
        if m:
            return m.group(1)
    return None


def find(section, key):
    for i, line in enumerate(lines):
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*=\s*(.*)", line.strip())
        if m and m.group(1) == key and (FMT == "conf" or section_at(i) == section):
            return i, m.group(2)
    raise SystemExit(f"key {key} not found in {section}")


for op in OPS:
    kind = op["op"]
    if kind == "set":
        i, _ = find(op["section"], op["key"])
        lines[i] = f"{op['key']} = {op['value']}"
    elif kind == "rename":
        i, value = find(op["section"], op["key"])
        lines[i] = f"{op['new_key']} = {value}"
    elif kind == "disable":
        i, value = find(op["section"], op["key"])
        lines[i] = f"# {op['key']} = {value}"
    elif kind == "add":
        i, _ = find(op["section"], op["after"])
        lines.insert(i + 1, f"{op['key']} = {op['value']}")
    elif kind == "remove":
        i, _ = find(op["section"], op["key"])
        start = i - len(op.get("comments", []))
        assert [l.strip() for l in lines[start:i]] == op.get("comments", []), lines[start:i]
        del lines[start:i + 1]
    elif kind == "enable":
        values = dict(op["values"])
        block = op["block"]
        if FMT == "conf":  # the block starts after its "# Optional <block> settings..." comment
            h = next(i for i, l in enumerate(lines) if "Uncomment to enable" in l and f" {block} " in l)
        else:
            h = next(i for i, l in enumerate(lines) if re.fullmatch(r"[#;] \[" + re.escape(block) + r"\]", l.strip()))
            lines[h] = f"[{block}]"
        i = h + 1
        while i < len(lines) and (m := re.fullmatch(r"[#;] ([A-Za-z0-9_]+) = (.*)", lines[i].strip())):
            lines[i] = f"{m.group(1)} = {values[m.group(1)]}"
            i += 1

with open(DST, "w", encoding="utf-8") as fh:
    fh.write("\n".join(lines) + "\n")
PY
