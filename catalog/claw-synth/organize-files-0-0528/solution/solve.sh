#!/bin/bash
# Reference solution: apply the rules to what is on disk.
set -euo pipefail
python3 - <<'PY'
import os
import re
import shutil

ROOT = '/app/camera_roll'


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


import datetime

LAYOUT, UNDATED, PREFIX = 'Y-M', 'undated', False
LOG_PATH = None
pattern = re.compile(r"(?<!\d)(\d{4})([-_]?)(\d{2})\2(\d{2})(?!\d)")
rows = []
for name in top_files():
    day = None
    m = pattern.search(name)
    if m:
        try:
            day = datetime.date(int(m.group(1)), int(m.group(3)), int(m.group(4)))
        except ValueError:
            day = None
    if day is None:
        dest = "%s/%s" % (UNDATED, name)
    else:
        folder = {
            "Y/M": day.strftime("%Y/%m"),
            "Y-M": day.strftime("%Y-%m"),
            "Y/Y-M-D": day.strftime("%Y/%Y-%m-%d"),
            "Y/Q": "%d/Q%d" % (day.year, (day.month - 1) // 3 + 1),
        }[LAYOUT]
        new = name
        if PREFIX and not name.startswith(day.isoformat()):
            new = day.isoformat() + "_" + name
        dest = "%s/%s" % (folder, new)
    move(name, dest)
    rows.append((name, dest, day.isoformat() if day else ""))
if LOG_PATH:
    with open(LOG_PATH, "w", encoding="utf-8") as fh:
        fh.write("file,destination,date\n")
        fh.writelines("%s,%s,%s\n" % row for row in rows)
PY
