#!/bin/bash
# Reference solution: apply the rules to what is on disk.
set -euo pipefail
python3 - <<'PY'
import os
import re
import shutil

ROOT = '/app/mr./old_laptop'


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


THRESHOLDS = [1000, 3000]  # in bytes
BUCKETS = ['small', 'medium', 'large']
EMPTY_DIR = None
REPORT = None
totals = {b: [0, 0] for b in BUCKETS}
for name in top_files():
    size = os.path.getsize(os.path.join(ROOT, name))
    if size == 0 and EMPTY_DIR:
        bucket = EMPTY_DIR
    else:
        bucket = BUCKETS[sum(1 for t in THRESHOLDS if size >= t)]
        totals[bucket][0] += 1
        totals[bucket][1] += size
    move(name, "%s/%s" % (bucket, name))
if REPORT:
    with open(REPORT, "w", encoding="utf-8") as fh:
        fh.write("bucket,files,bytes\n")
        fh.writelines("%s,%d,%d\n" % (b, c, s) for b, (c, s) in totals.items())
PY
