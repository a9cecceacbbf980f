#!/bin/bash
# Reference solution: apply the rules to what is on disk.
set -euo pipefail
python3 - <<'PY'
import os
import re
import shutil

ROOT = '/app/deborah/shared'


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


SEP, LOG_PATH, FMT = '-', '/app/renames.csv', 'csv'
plan, taken = [], set()
for name in top_files():
    dot = name.rfind(".")
    stem, ext = (name[:dot], name[dot + 1:]) if dot > 0 else (name, "")
    base = re.sub(r"[^a-z0-9]+", SEP, stem.lower()).strip(SEP) or "file"
    ext = re.sub(r"[^a-z0-9]", "", ext.lower())
    new, k = (base + "." + ext if ext else base), 2
    while new in taken:
        new = "%s%s%d%s" % (base, SEP, k, "." + ext if ext else "")
        k += 1
    taken.add(new)
    plan.append((name, new))
# two phases, so that no rename overwrites a file that has not been renamed yet
for i, (old, new) in enumerate(plan):
    os.rename(os.path.join(ROOT, old), os.path.join(ROOT, ".renaming-%d" % i))
for i, (old, new) in enumerate(plan):
    os.rename(os.path.join(ROOT, ".renaming-%d" % i), os.path.join(ROOT, new))
changed = [(old, new) for old, new in plan if old != new]
with open(LOG_PATH, "w", encoding="utf-8") as fh:
    if FMT == "csv":
        fh.write("old,new\n")
        fh.writelines("%s,%s\n" % pair for pair in changed)
    else:
        fh.writelines("%s => %s\n" % pair for pair in changed)
PY
