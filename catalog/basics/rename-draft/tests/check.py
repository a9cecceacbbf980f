"""Verify: Rename /app/draft.txt to /app/final.txt, keeping its content."""
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


WANT = b"Quarterly report\n\nSales grew 12% over the last quarter.\n"
if os.path.lexists("/app/draft.txt"):
    errors.append("/app/draft.txt still exists")
if regular("/app/final.txt") and read("/app/final.txt") != WANT:
    errors.append("/app/final.txt does not hold the original content of draft.txt")
finish()
