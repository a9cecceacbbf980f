"""Verify /app/downloads was sorted exactly per the mapping, with contents intact."""
import hashlib
import os
import sys

ROOT = "/app/downloads"

EXPECTED = {
    "images": ["IMG_2041.JPG", "vacation photo.jpeg", "screenshot 2024-05-01.png", "logo.SVG", "cat.gif",
               "banner.webp", "IMG_3310.HEIC", "old_wallpaper.png"],
    "documents": ["Resume_final.PDF", "meeting notes.txt", "README.md", "contract.docx", "letter.odt",
                  "draft.v2.Doc", "notes.backup.TXT", "manual.rtf"],
    "spreadsheets": ["budget-2024.xlsx", "expenses.CSV", "old_budget.xls", "inventory.ods"],
    "archives": ["photos-backup.tar.gz", "project.zip", "fonts.7z", "source.TGZ", "backup.rar"],
    "audio": ["podcast_ep12.mp3", "voice memo.M4A", "track01.flac", "ringtone.wav", "sample.OGG"],
    "video": ["clip.MP4", "movie.mkv", "screen recording.mov", "old.avi", "loop.webm"],
    "code": ["script.py", "install.SH", "index.html", "style.css", "config.json", "app.js"],
    "other": ["Makefile", "LICENSE", "data.bin", "setup.exe", "report.docx.bak", "download.crdownload",
              "font.TTF", "mystery"],
    "projects": ["todo.txt", "plan.md", "build.sh"],
    "": [".DS_Store", ".hidden_config", ".profile.sh", ".cache.json"],
}


def content(name: str) -> bytes:
    digest = hashlib.sha256(name.encode()).hexdigest()
    return (f"{name}\n" + digest * (1 + len(name) % 4) + "\n").encode()


expected = {os.path.join(d, n) if d else n: content(n) for d, names in EXPECTED.items() for n in names}
errors = []

actual_files, actual_dirs = set(), set()
for dirpath, dirnames, filenames in os.walk(ROOT):
    rel_dir = os.path.relpath(dirpath, ROOT)
    for d in dirnames:
        actual_dirs.add(os.path.normpath(os.path.join(rel_dir, d)))
    for f in filenames:
        actual_files.add(os.path.normpath(os.path.join(rel_dir, f)))

missing = sorted(set(expected) - actual_files)
extra = sorted(actual_files - set(expected))
if missing:
    errors.append(f"missing (or misplaced) files: {missing}")
if extra:
    errors.append(f"unexpected files: {extra}")

allowed_dirs = {d for d in EXPECTED if d}
bad_dirs = sorted(actual_dirs - allowed_dirs)
if bad_dirs:
    errors.append(f"unexpected directories: {bad_dirs}")

for rel, data in sorted(expected.items()):
    path = os.path.join(ROOT, rel)
    if os.path.islink(path):
        errors.append(f"{rel} is a symlink, expected a regular file")
    elif os.path.isfile(path):
        with open(path, "rb") as fh:
            if fh.read() != data:
                errors.append(f"content of {rel} changed")

if errors:
    print("FAIL")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print(f"PASS: {len(expected)} files in place")
