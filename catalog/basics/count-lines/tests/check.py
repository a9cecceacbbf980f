"""Verify: Write the number of lines of /app/names.txt to /app/count.txt."""
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


P = "/app/count.txt"
if read("/app/names.txt") != b"Alice\nBob\nCarol\nDave\nErin\nFrank\nGrace\nHeidi\nIvan\n":
    errors.append("/app/names.txt changed")
if regular(P):
    data = read(P)
    if data is None or data.strip() != b"9":
        errors.append(f"{P} holds {data!r}, expected the number 9")
finish()
