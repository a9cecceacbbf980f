#!/bin/bash
# Reference solution: line-based edits that leave comments, order and layout alone.
set -euo pipefail
python3 - <<'PY'
import json
import re

SRC = '/app/config/mailrelay.conf'
DST = '/app/config/mailrelay.conf'
FMT = 'conf'
# The requested changes, transcribed from the instructions.
OPS = json.loads('[{"block": "tracing", "op": "enable", "section": "tracing", "values": [["tracing_exporter", "otlp"], ["tracing_endpoint", "http://tracing.internal:4317"], ["tracing_sample_ratio", "0.1"]]}, {"key": "server_max_body_kb", "new_key": "server_max_request_kb", "op": "rename", "section": "server", "values": []}, {"key": "database_connect_timeout", "op": "set", "section": "database", "value": "50", "values": []}, {"key": "server_host", "op": "remove", "section": "server", "values": []}, {"after": "database_pool_size", "key": "database_replica_host", "op": "add", "section": "database", "value": "db-replica.internal", "values": []}, {"key": "auth_audience", "op": "disable", "section": "auth", "value": "mailrelay-api", "values": []}, {"key": "queue_dead_letter", "op": "disable", "section": "queue", "value": "mailrelay.dlq", "values": []}, {"key": "auth_token_ttl", "new_key": "auth_token_lifetime", "op": "rename", "section": "auth", "values": []}]')

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
