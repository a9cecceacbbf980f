#!/bin/bash
# Reference solution: parse the manifest, hash what is on disk, then act and report.
set -euo pipefail
python3 - <<'PY'
import hashlib
import json
import os
import re
import shutil

ROOT = '/app/vaults/misty-river'
MANIFEST = '/app/vaults/misty-river/checksums.sha256'
ALGO, TAG, HEXLEN, FORMAT = 'sha256', 'SHA256', 64, 'gnu'
STATUS = {'bad': 'FAILED', 'missing': 'MISSING', 'extra': 'UNTRACKED', 'ok': 'OK'}


def digest(path):
    h = hashlib.new(ALGO)
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def parse():
    """(written path, normalised path, lowercase digest) per entry, in manifest order; malformed line numbers."""
    entries, malformed = [], []
    with open(MANIFEST, encoding="utf-8") as fh:
        text = fh.read()
    if FORMAT == "json":
        for item in json.loads(text)["files"]:
            entries.append((item["path"], item["digest"].lower()))
    else:
        for n, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1):
            if not line.strip() or line.startswith("#"):
                continue
            if FORMAT == "gnu":
                m = re.fullmatch(r"([0-9a-fA-F]{" + str(HEXLEN) + r"})(?: \*|  )(.+)", line)
                found = (m.group(2), m.group(1)) if m else None
            else:
                m = re.fullmatch(TAG + r" \((.+)\) = ([0-9a-fA-F]{" + str(HEXLEN) + "})", line)
                found = (m.group(1), m.group(2)) if m else None
            if found is None:
                malformed.append(n)
            else:
                entries.append((found[0], found[1].lower()))
    out = []
    for written, want in entries:
        norm = written[2:] if written.startswith("./") else written
        out.append((written, norm, want))
    return out, malformed


def classify(entries):
    state = {}
    for written, norm, want in entries:
        path = os.path.join(ROOT, norm)
        if not os.path.isfile(path):
            state[norm] = "missing"
        elif digest(path) != want:
            state[norm] = "bad"
        else:
            state[norm] = "ok"
    return state


def unlisted(entries):
    listed = {norm for _, norm, _ in entries}
    out = []
    for dirpath, _, filenames in os.walk(ROOT):
        for f in filenames:
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, ROOT)
            if os.path.abspath(full) == os.path.abspath(MANIFEST) or rel in listed:
                continue
            out.append(rel)
    return out


def byte_sorted(rows):
    return sorted(rows, key=lambda r: r[0].encode())


entries, malformed = parse()
state = classify(entries)
FMT, INCLUDE_OK, REPORT = 'json', False, '/app/integrity.json'
rows = [(w, STATUS[state[n]]) for w, n, _ in entries] + [(p, STATUS["extra"]) for p in unlisted(entries)]
rows = byte_sorted(rows)
with open(REPORT, "w", encoding="utf-8") as fh:
    if FMT == "lines":
        fh.writelines("%s %s\n" % (s, p) for p, s in rows if INCLUDE_OK or s != "OK")
        fh.writelines("MALFORMED line %d\n" % n for n in malformed)
    elif FMT == "csv":
        fh.write("path,status\n")
        fh.writelines("%s,%s\n" % row for row in rows)
    elif FMT == "json":
        keys = {"ok": "ok", "bad": STATUS["bad"].lower(), "missing": "missing", "extra": "extra"}
        out = {keys[k]: [p for p, s in rows if s == STATUS[k]] for k in ("ok", "bad", "missing", "extra")}
        if malformed:
            out["malformed"] = malformed
        json.dump(out, fh, indent=2)
        fh.write("\n")
    else:
        words = {"ok": "OK", "bad": "FAILED", "missing": "FAILED open or read"}
        fh.writelines("%s: %s\n" % (w, words[state[n]]) for w, n, _ in entries)
PY
