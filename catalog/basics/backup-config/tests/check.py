"""Verify: Copy /app/config.ini to /app/config.ini.bak, leaving the original in place."""
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


WANT = b"[server]\nhost = 0.0.0.0\nport = 8080\n"
for path in ("/app/config.ini", "/app/config.ini.bak"):
    if regular(path) and read(path) != WANT:
        errors.append(f"{path} does not hold the original config")
finish()
