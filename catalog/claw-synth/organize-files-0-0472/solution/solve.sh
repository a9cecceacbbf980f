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


MAPPING = [{'folder': 'spreadsheets', 'exts': ['csv', 'ods', 'xls']}, {'folder': 'compressed', 'exts': ['7z', 'bz2', 'rar', 'tgz', 'xz', 'zip']}, {'folder': 'sounds', 'exts': ['aac', 'flac', 'mp3', 'ogg']}, {'folder': 'scripts', 'exts': ['css', 'go', 'json', 'rb']}, {'folder': 'movies', 'exts': ['avi', 'mkv', 'mov', 'mp4', 'webm']}, {'folder': 'decks', 'exts': ['key', 'odp', 'ppt']}]
FALLBACK = 'other'
LOWER_EXT = False
LOG_PATH, LOG = '/app/moves.tsv', 'tsv'
folder_of = {e: m["folder"] for m in MAPPING for e in m["exts"]}
moves = []
for name in top_files():
    dot = name.rfind(".")
    ext = name[dot + 1:].lower() if dot > 0 else ""
    new = name[: dot + 1] + ext if (LOWER_EXT and ext) else name
    dest = "%s/%s" % (folder_of.get(ext, FALLBACK), new)
    move(name, dest)
    moves.append((name, dest))
if LOG_PATH:
    sep = "\t" if LOG == "tsv" else " -> "
    with open(LOG_PATH, "w", encoding="utf-8") as fh:
        fh.writelines("%s%s%s\n" % (a, sep, b) for a, b in moves)
PY
