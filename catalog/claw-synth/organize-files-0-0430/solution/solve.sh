#!/bin/bash
# Reference solution: apply the rules to what is on disk.
set -euo pipefail
python3 - <<'PY'
import os
import re
import shutil

ROOT = '/app/phone_dump'


def top_files():
    """Regular, non-hidden files directly in ROOT, in byte order of their names."""
    names = [n for n in os.listdir(ROOT) if not n.startswith(".")]
    names = [n for n in names if os.path.isfile(os.path.join(ROOT, n)) and not os.path.islink(os.path.join(ROOT, n))]
    return sorted(names, key=lambda n: n.encode())


def move(src_name, dest_rel):
    dest = os.path.join(ROOT, dest_rel)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    assert not os.path.exists(dest), dest
    shutil.move(os.path.join(ROOT, src_name), dest)


import hashlib
import json

KEEP, ACTION, DUP_ROOT = 'shallow', 'link', None
EMPTY_RULE = None
REPORT, FMT = '/app/dupes.csv', 'csv'
groups = {}
for dirpath, dirnames, filenames in os.walk(ROOT):
    for f in filenames:
        full = os.path.join(dirpath, f)
        if os.path.islink(full) or not os.path.isfile(full):
            continue
        if EMPTY_RULE == "ignore" and os.path.getsize(full) == 0:
            continue
        with open(full, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
        groups.setdefault(digest, []).append(os.path.relpath(full, ROOT))
pairs = []
for paths in groups.values():
    if len(paths) < 2:
        continue
    key = (lambda p: (p.count("/"), p.encode())) if KEEP == "shallow" else (lambda p: p.encode())
    kept = min(paths, key=key)
    for p in paths:
        if p == kept:
            continue
        pairs.append((p, kept))
        full = os.path.join(ROOT, p)
        if ACTION == "delete":
            os.remove(full)
        elif ACTION == "move":
            dest = os.path.join(DUP_ROOT, p)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.move(full, dest)
        else:
            os.remove(full)
            os.symlink(os.path.join(ROOT, kept), full)
pairs.sort(key=lambda pair: pair[0].encode())
with open(REPORT, "w", encoding="utf-8") as fh:
    if FMT == "json":
        out = {}
        for dup, kept in pairs:
            out.setdefault(kept, []).append(dup)
        json.dump({k: sorted(v, key=lambda p: p.encode()) for k, v in sorted(out.items())}, fh, indent=2)
        fh.write("\n")
    else:
        if FMT == "csv":
            fh.write("duplicate,kept\n")
        sep = "\t" if FMT == "tsv" else ","
        fh.writelines("%s%s%s\n" % (dup, sep, kept) for dup, kept in pairs)
PY
