#!/bin/bash
# Reference solution: apply the rules to what is on disk.
set -euo pipefail
python3 - <<'PY'
import os
import re
import shutil

ROOT = '/app/shared'


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


JOINER, SKIP_HIDDEN, MANIFEST = '__', False, None
moves = []
for dirpath, dirnames, filenames in os.walk(ROOT):
    if SKIP_HIDDEN:
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
    if dirpath == ROOT:
        continue
    for f in filenames:
        if SKIP_HIDDEN and f.startswith("."):
            continue
        rel = os.path.relpath(os.path.join(dirpath, f), ROOT)
        moves.append((rel, rel.replace("/", JOINER)))
moves.sort(key=lambda m: m[0].encode())
for rel, flat in moves:
    assert not os.path.exists(os.path.join(ROOT, flat)), flat
    shutil.move(os.path.join(ROOT, rel), os.path.join(ROOT, flat))
for dirpath, dirnames, filenames in os.walk(ROOT, topdown=False):
    if dirpath != ROOT and not os.listdir(dirpath):
        os.rmdir(dirpath)
if MANIFEST:
    with open(MANIFEST, "w", encoding="utf-8") as fh:
        fh.writelines("%s\t%s\n" % m for m in moves)
PY
