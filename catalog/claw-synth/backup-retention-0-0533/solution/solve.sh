#!/bin/bash
# Reference solution: read the timestamps from the names, compute the keep set, then act.
set -euo pipefail
python3 - <<'PY'
import datetime
import json
import os
import re
import shutil

FOLDER = '/app/srv/logs/old'
REGEXES = {'logs': 'logs-(\\d{4})-(\\d{2})-(\\d{2})\\.log\\.gz', 'db': 'db-(\\d{4})-(\\d{2})-(\\d{2})\\.log\\.gz', 'catalog-logs': 'catalog\\-logs-(\\d{4})-(\\d{2})-(\\d{2})\\.log\\.gz'}  # backup set -> the exact name pattern
TODAY = datetime.date.fromisoformat('2026-01-29')

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
for prefix, count in {'logs': 2, 'db': 8, 'catalog-logs': 8}.items():
    keep |= {b[0] for b in newest_first if b[2] == prefix}.intersection(
        [b[0] for b in newest_first if b[2] == prefix][:count])
names = sorted((b[0] for b in backups), key=lambda n: n.encode())
drop = [n for n in names if n not in keep]
FMT, WITH_REASONS = 'json', False
order = list(BUCKET)
with open('/app/prune-plan.json', "w") as fh:
    if FMT == "lines":
        for n in names:
            if n in keep:
                why = " " + ",".join(sorted(reasons[n], key=order.index)) if WITH_REASONS else ""
                fh.write("KEEP %s%s\n" % (n, why))
            else:
                fh.write("DELETE %s\n" % n)
    elif FMT == "csv":
        fh.write("name,action\n")
        fh.writelines("%s,%s\n" % (n, "keep" if n in keep else "delete") for n in names)
    else:
        json.dump({"keep": [n for n in names if n in keep], "delete": drop}, fh, indent=2)
        fh.write("\n")
PY
