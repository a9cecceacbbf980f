#!/bin/bash
# Reference solution: parse the manifest, hash what is on disk, then act and report.
set -euo pipefail
python3 - <<'PY'
import hashlib
import json
import os
import re
import shutil

ROOT = '/app/dusty-pebble-export'
MANIFEST = '/app/dusty-pebble-export/SHA256SUMS.txt'
ALGO, TAG, HEXLEN, FORMAT = 'sha256', 'SHA256', 64, 'gnu'
STATUS = {'bad': 'CORRUPT', 'missing': 'MISSING', 'extra': 'UNTRACKED', 'ok': 'OK'}


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
KEEP_OLD, OLD_SUFFIX, LOG = False, '.bak', '/app/rebuild.txt'
changes = [(n, {"bad": "CHANGED", "missing": "REMOVED"}[state[n]]) for _, n, _ in entries if state[n] != "ok"]
new_files = unlisted(entries)
changes += [(p, "ADDED") for p in new_files]
if KEEP_OLD:
    shutil.copyfile(MANIFEST, MANIFEST + OLD_SUFFIX)
skip = {os.path.abspath(MANIFEST), os.path.abspath(MANIFEST + OLD_SUFFIX)}
current = []
for dirpath, _, filenames in os.walk(ROOT):
    for f in filenames:
        full = os.path.join(dirpath, f)
        if os.path.abspath(full) not in skip:
            current.append(os.path.relpath(full, ROOT))
current.sort(key=lambda p: p.encode())
with open(MANIFEST, "w", encoding="utf-8") as fh:
    if FORMAT == "json":
        files = [{"path": p, "size": os.path.getsize(os.path.join(ROOT, p)), "digest": digest(os.path.join(ROOT, p))}
                 for p in current]
        json.dump({"algorithm": ALGO, "files": files}, fh, indent=2)
        fh.write("\n")
    elif FORMAT == "gnu":
        fh.writelines("%s  %s\n" % (digest(os.path.join(ROOT, p)), p) for p in current)
    else:
        fh.writelines("%s (%s) = %s\n" % (TAG, p, digest(os.path.join(ROOT, p))) for p in current)
with open(LOG, "w", encoding="utf-8") as fh:
    fh.writelines("%s %s\n" % (s, p) for p, s in byte_sorted(changes))
PY
