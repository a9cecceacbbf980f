"""Verify: Create an empty directory /app/reports."""
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


P = "/app/reports"
if os.path.islink(P) or not os.path.isdir(P):
    errors.append(f"{P} is not a directory")
elif os.listdir(P):
    errors.append(f"{P} is not empty: {sorted(os.listdir(P))}")
finish()
