"""Build the messy /app/downloads folder (run once at image build time)."""
import hashlib
import os

ROOT = "/app/downloads"

TOP_LEVEL = [
    "IMG_2041.JPG", "vacation photo.jpeg", "screenshot 2024-05-01.png", "logo.SVG", "cat.gif",
    "banner.webp", "IMG_3310.HEIC",
    "Resume_final.PDF", "meeting notes.txt", "README.md", "contract.docx", "letter.odt",
    "draft.v2.Doc", "notes.backup.TXT", "manual.rtf",
    "budget-2024.xlsx", "expenses.CSV", "old_budget.xls", "inventory.ods",
    "photos-backup.tar.gz", "project.zip", "fonts.7z", "source.TGZ", "backup.rar",
    "podcast_ep12.mp3", "voice memo.M4A", "track01.flac", "ringtone.wav", "sample.OGG",
    "clip.MP4", "movie.mkv", "screen recording.mov", "old.avi", "loop.webm",
    "script.py", "install.SH", "index.html", "style.css", "config.json", "app.js",
    "Makefile", "LICENSE", "data.bin", "setup.exe", "report.docx.bak", "download.crdownload",
    "font.TTF", "mystery",
    ".DS_Store", ".hidden_config", ".profile.sh", ".cache.json",
]
PRESET = ["images/old_wallpaper.png", "projects/todo.txt", "projects/plan.md", "projects/build.sh"]


def content(name: str) -> bytes:
    digest = hashlib.sha256(name.encode()).hexdigest()
    return (f"{name}\n" + digest * (1 + len(name) % 4) + "\n").encode()


os.makedirs(ROOT, exist_ok=True)
for rel in TOP_LEVEL + PRESET:
    path = os.path.join(ROOT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(content(os.path.basename(rel)))
