"""Verify: Write an all-uppercase copy of /app/note.txt to /app/NOTE.txt."""
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


ORIGINAL = b"remember to water the plants.\ncall the plumber at 5pm!\n"
if read("/app/note.txt") != ORIGINAL:
    errors.append("/app/note.txt changed")
if regular("/app/NOTE.txt"):
    data = read("/app/NOTE.txt")
    if data not in (ORIGINAL.upper(), ORIGINAL.upper().rstrip(b"\n")):
        errors.append(f"/app/NOTE.txt holds {data!r}, expected {ORIGINAL.upper()!r}")
finish()
