#!/bin/bash
# Reference solution: read the timestamps from the names, compute the keep set, then act.
set -euo pipefail
python3 - <<'PY'
import datetime
import json
import os
import re
import shutil

FOLDER = '/app/photo-backups'
REGEXES = {'camera': 'camera\\.(\\d{4})(\\d{2})(\\d{2})-(\\d{2})(\\d{2})\\.tar'}  # backup set -> the exact name pattern
TODAY = datetime.date.fromisoformat('2024-01-23')

backups = []  # (name, timestamp, set)
for name in sorted(os.listdir(FOLDER)):
    if not os.path.isfile(os.path.join(FOLDER, name)):
        continue
    for prefix, regex in REGEXES.items():
        m = re.fullmatch(regex, name)
        if not m:
            continue
        parts = [int(g) for g in m.groups()] + [0, 0]
        try:
            when = datetime.datetime(parts[0], parts[1], parts[2], parts[3], parts[4])
        except ValueError:
            continue
        backups.append((name, when, prefix))
newest_first = sorted(backups, key=lambda b: b[1], reverse=True)
BUCKET = {
    "daily": lambda w: w.date(),
    "weekly": lambda w: w.isocalendar()[:2],
    "monthly": lambda w: (w.year, w.month),
    "yearly": lambda w: w.year,
}


def newest_per(items, rule, count=None):
    kept, seen = [], set()
    for name, when, _ in items:
        bucket = BUCKET[rule](when)
        if bucket in seen:
            continue
        if count is not None and len(seen) >= count:
            break
        seen.add(bucket)
        kept.append(name)
    return kept


keep, reasons = set(), {}
A, B, MID, OLD = 7, 60, 'daily', 'weekly'
age = lambda b: (TODAY - b[1].date()).days
keep |= {b[0] for b in newest_first if age(b) < A}
keep |= set(newest_per([b for b in newest_first if A <= age(b) < B], MID))
keep |= set(newest_per([b for b in newest_first if age(b) >= B], OLD))
names = sorted((b[0] for b in backups), key=lambda n: n.encode())
drop = [n for n in names if n not in keep]
for n in drop:
    os.remove(os.path.join(FOLDER, n))
with open('/app/removed-backups.txt', "w") as fh:
    fh.writelines(n + "\n" for n in drop)
PY
