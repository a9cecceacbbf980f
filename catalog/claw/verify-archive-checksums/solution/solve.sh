#!/bin/bash
# Reference solution: parse SHA256SUMS, classify entries, quarantine corrupted files, write the report.
set -euo pipefail
python3 - <<'PY'
import hashlib, os, re, shutil

root, quarantine = "/app/archive", "/app/quarantine"
entries = []
with open(os.path.join(root, "SHA256SUMS"), encoding="utf-8") as fh:
    for line in fh:
        line = line.rstrip("\n")
        m = re.fullmatch(r"([0-9a-fA-F]{64}) [ *](.+)", line)
        if m:
            entries.append((m.group(1).lower(), m.group(2)))

def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()

report = []
for want, rel in entries:
    path = os.path.join(root, rel)
    if not os.path.isfile(path):
        report.append((rel, "MISSING"))
    elif digest(path) != want:
        report.append((rel, "CORRUPT"))
        dest = os.path.join(quarantine, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.move(path, dest)
os.makedirs(quarantine, exist_ok=True)
report.sort(key=lambda r: r[0].encode("utf-8"))
with open("/app/verify_report.txt", "w", encoding="utf-8") as fh:
    fh.write("".join("%s %s\n" % (status, rel) for rel, status in report))
PY
cat /app/verify_report.txt
