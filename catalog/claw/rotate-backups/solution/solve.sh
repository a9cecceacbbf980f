#!/bin/bash
# Reference solution: compute the keep set from the dates in the file names, delete the rest.
set -euo pipefail
python3 - <<'PY'
import datetime, os, re

root = "/app/backups"
backups = {}
for name in os.listdir(root):
    m = re.fullmatch(r"db-(\d{4})-(\d{2})-(\d{2})\.tar\.gz", name)
    if not m or not os.path.isfile(os.path.join(root, name)):
        continue
    try:
        backups[name] = datetime.date(*map(int, m.groups()))
    except ValueError:
        continue  # not a real calendar date
newest_first = sorted(backups, key=backups.get, reverse=True)
keep = set(newest_first[:7])
keep |= set([n for n in newest_first if backups[n].weekday() == 6][:4])
deleted = sorted(set(backups) - keep)
for name in deleted:
    os.remove(os.path.join(root, name))
with open("/app/deleted.txt", "w") as fh:
    fh.write("".join(n + "\n" for n in deleted))
PY
