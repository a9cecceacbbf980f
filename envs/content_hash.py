"""Content hash of a build context: file bytes, file modes and symlink targets, nothing else.

Modification times do not count, so a fresh clone of an unchanged task hashes the same and is never
rebuilt.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Mapping
from pathlib import Path


def hash_directory(root: Path, extra: Mapping[str, str] | None = None) -> str:
    """sha256 over every entry below `root` (sorted), plus `extra` key/values (e.g. build args)."""
    h = hashlib.sha256()
    root = Path(root)
    entries: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        base = Path(dirpath)
        entries.extend(base / d for d in dirnames)
        entries.extend(base / f for f in sorted(filenames))
    for path in sorted(entries, key=lambda p: p.relative_to(root).as_posix()):
        rel = path.relative_to(root).as_posix()
        st = path.lstat()
        mode = stat.S_IMODE(st.st_mode)
        if stat.S_ISLNK(st.st_mode):
            h.update(f"L\0{rel}\0{os.readlink(path)}\0".encode())
        elif stat.S_ISDIR(st.st_mode):
            h.update(f"D\0{rel}\0{mode:o}\0".encode())
        elif stat.S_ISREG(st.st_mode):
            h.update(f"F\0{rel}\0{mode:o}\0{st.st_size}\0".encode())
            with path.open("rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
    for key, value in sorted((extra or {}).items()):
        h.update(f"A\0{key}\0{value}\0".encode())
    return h.hexdigest()
