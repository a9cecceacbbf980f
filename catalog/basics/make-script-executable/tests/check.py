"""Verify: Make the script /app/run.sh executable without changing it."""
import os
import stat
import subprocess
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


P = "/app/run.sh"
WANT = b'#!/bin/sh\necho "backup complete"\n'
if regular(P):
    if read(P) != WANT:
        errors.append(f"content of {P} changed")
    mode = os.stat(P).st_mode
    if not mode & stat.S_IXUSR:
        errors.append(f"{P} is not executable by its owner (mode {oct(mode & 0o7777)})")
    else:
        run = subprocess.run([P], check=False, capture_output=True, timeout=20)
        if run.returncode != 0 or run.stdout != b"backup complete\n":
            errors.append(f"running {P} gave rc={run.returncode} stdout={run.stdout!r}")
finish()
