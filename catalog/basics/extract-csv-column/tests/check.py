"""Verify: Write the second column of /app/data.csv to /app/col.txt, one value per line."""
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


WANT = ["name", "alice", "bob", "carol", "dave"]
if regular("/app/col.txt"):
    data = read("/app/col.txt")
    got = data.decode(errors="replace").splitlines() if data is not None else None
    if got != WANT:
        errors.append(f"/app/col.txt lines are {got}, expected {WANT}")
finish()
