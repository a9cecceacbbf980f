"""The blob store: image bytes, stored once by content hash beside the call store.

Screenshots are megabytes and repeat (the same page, the same desktop), so they are kept out of the
SQLite rows: `<run>/blobs/sha256/ab/abcdef…` holds each distinct image once, whatever its format, and
records name it by hash. A blob is written to a temporary file, synced and renamed into place, so a
name that exists always has its whole content; it is written before the record that names it is
committed, so a record never names a missing blob. Reads check the hash.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

BLOBS_DIRNAME = "blobs"


class BlobError(Exception):
    """A blob is missing or its bytes are not its hash's."""


class BlobStore:
    """Content-addressed files under `root` (`<run>/blobs`)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    @classmethod
    def beside(cls, store_path: Path) -> BlobStore:
        """The blob store of the call store at `store_path` (`<run>/calls.sqlite` -> `<run>/blobs`)."""
        return cls(Path(store_path).parent / BLOBS_DIRNAME)

    def path(self, sha256: str) -> Path:
        if len(sha256) != 64 or any(c not in "0123456789abcdef" for c in sha256):
            raise BlobError(f"{sha256!r} is not a sha256 hex digest")
        return self.root / "sha256" / sha256[:2] / sha256

    def has(self, sha256: str) -> bool:
        return self.path(sha256).is_file()

    def put(self, data: bytes) -> str:
        """Store `data` (once); its sha256 hex digest."""
        digest = hashlib.sha256(data).hexdigest()
        target = self.path(digest)
        if target.is_file():
            return digest
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{digest[:8]}-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, target)
            _sync_dir(target.parent)  # the rename itself survives a power loss before the record's commit
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return digest

    def get(self, sha256: str) -> bytes:
        """The bytes of blob `sha256`; BlobError when it is missing or does not match its hash."""
        try:
            data = self.path(sha256).read_bytes()
        except FileNotFoundError:
            raise BlobError(f"{self.path(sha256)}: no such blob") from None
        if hashlib.sha256(data).hexdigest() != sha256:
            raise BlobError(f"{self.path(sha256)}: its bytes do not match its hash")
        return data


def _sync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
