#!/bin/bash
# Reference solution: move every non-hidden regular file into its category folder.
set -euo pipefail
python3 - <<'PY'
import os, shutil
root = "/app/downloads"
cats = {
    "images": "jpg jpeg png gif webp svg heic",
    "documents": "pdf doc docx txt md odt rtf",
    "spreadsheets": "xls xlsx csv ods",
    "archives": "zip tar gz tgz 7z rar",
    "audio": "mp3 wav flac m4a ogg",
    "video": "mp4 mkv mov avi webm",
    "code": "py js sh html css json",
}
ext_map = {e: c for c, exts in cats.items() for e in exts.split()}
for name in sorted(os.listdir(root)):
    src = os.path.join(root, name)
    if name.startswith(".") or not os.path.isfile(src) or os.path.islink(src):
        continue
    ext = name.rsplit(".", 1)[1].lower() if "." in name else ""
    dest = os.path.join(root, ext_map.get(ext, "other"))
    os.makedirs(dest, exist_ok=True)
    shutil.move(src, os.path.join(dest, name))
PY
