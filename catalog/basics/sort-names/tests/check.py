"""Verify: Write the lines of /app/names.txt in alphabetical order to /app/sorted.txt."""
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


ORIGINAL = b"olivia\nliam\nemma\nnoah\nava\nmia\nlucas\n"
if read("/app/names.txt") != ORIGINAL:
    errors.append("/app/names.txt changed")
if regular("/app/sorted.txt"):
    data = read("/app/sorted.txt")
    want = sorted(ORIGINAL.decode().splitlines())
    got = data.decode(errors="replace").splitlines() if data is not None else None
    if got != want:
        errors.append(f"/app/sorted.txt lines are {got}, expected {want}")
finish()
