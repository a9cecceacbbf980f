#!/bin/bash
# Reference solution: read the timestamps from the names, compute the keep set, then act.
set -euo pipefail
python3 - <<'PY'
import datetime
import json
import os
import re
import shutil

FOLDER = '/app/git-backups'
REGEXES = {'repo': 'repo\\.(\\d{4})(\\d{2})(\\d{2})-(\\d{2})(\\d{2})\\.bundle'}  # backup set -> the exact name pattern
TODAY = datetime.date.fromisoformat('2024-11-16')

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
MAX_AGE, MIN_KEEP, FIRSTS = 14, 5, False
keep |= {b[0] for b in newest_first[:MIN_KEEP]}
keep |= {name for name, when, _ in backups if (TODAY - when.date()).days <= MAX_AGE}
if FIRSTS:
    keep |= {name for name, when, _ in backups if when.day == 1}
names = sorted((b[0] for b in backups), key=lambda n: n.encode())
drop = [n for n in names if n not in keep]
for n in drop:
    os.remove(os.path.join(FOLDER, n))
with open('/app/deleted.txt', "w") as fh:
    fh.writelines(n + "\n" for n in drop)
PY
