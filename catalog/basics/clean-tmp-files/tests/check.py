"""Verify: Delete every .tmp file in /app/cache and keep the other files."""
import os
import sys

errors = []


def read(path):
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        errors.append(f"cannot read {path}: {exc}")
        return None


def regular(path):
    """True when path is a regular file (not a symlink), else records why not."""
    if os.path.islink(path) or not os.path.isfile(path):
        errors.append(f"{path} is not a regular file")
        return False
    return True


def finish():
    if errors:
        print("FAIL")
        for e in errors:
            print(" -", e)
        sys.exit(1)
    print("PASS")


D = "/app/cache"
KEEP = {"index.db": b"index v3\n", "notes.txt": b"do not delete\n"}
if os.path.islink(D) or not os.path.isdir(D):
    errors.append(f"{D} is not a directory any more")
else:
    names = sorted(os.listdir(D))
    if names != sorted(KEEP):
        errors.append(f"{D} holds {names}, expected exactly {sorted(KEEP)}")
    for name, want in KEEP.items():
        path = os.path.join(D, name)
        if os.path.lexists(path) and regular(path) and read(path) != want:
            errors.append(f"content of {path} changed")
finish()
