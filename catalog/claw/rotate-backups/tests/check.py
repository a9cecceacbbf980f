#!/usr/bin/env python3
"""Verifier for rotate-backups: exact surviving set, untouched survivors, exact deleted.txt."""
import os, sys

ROOT = "/app/backups"
# Files that must remain in /app/backups after rotation (kept backups + non-backup files).
EXPECTED_SURVIVORS = [
    'DB-2024-04-12.tar.gz',
    'README.txt',
    'app-2024-04-11.tar.gz',
    'db-2024-02-30.tar.gz',
    'db-2024-03-03.tar.gz',
    'db-2024-03-17.tar.gz',
    'db-2024-03-24.tar.gz',
    'db-2024-04-03.tar.gz',
    'db-2024-04-04.tar.gz',
    'db-2024-04-05.tar.gz',
    'db-2024-04-07.tar.gz',
    'db-2024-04-10.tar.gz',
    'db-2024-04-10.tar.gz.partial',
    'db-2024-04-11.tar.gz',
    'db-2024-04-12.tar.gz',
    'db-2024-4-11.tar.gz',
]
# Backups that must have been deleted, in the order /app/deleted.txt must list them.
EXPECTED_DELETED = [
    'db-2024-01-08.tar.gz',
    'db-2024-01-09.tar.gz',
    'db-2024-01-10.tar.gz',
    'db-2024-01-11.tar.gz',
    'db-2024-01-12.tar.gz',
    'db-2024-01-13.tar.gz',
    'db-2024-01-15.tar.gz',
    'db-2024-01-16.tar.gz',
    'db-2024-01-17.tar.gz',
    'db-2024-01-18.tar.gz',
    'db-2024-01-19.tar.gz',
    'db-2024-01-20.tar.gz',
    'db-2024-01-21.tar.gz',
    'db-2024-01-22.tar.gz',
    'db-2024-01-24.tar.gz',
    'db-2024-01-25.tar.gz',
    'db-2024-01-26.tar.gz',
    'db-2024-01-27.tar.gz',
    'db-2024-01-28.tar.gz',
    'db-2024-01-29.tar.gz',
    'db-2024-01-30.tar.gz',
    'db-2024-01-31.tar.gz',
    'db-2024-02-01.tar.gz',
    'db-2024-02-02.tar.gz',
    'db-2024-02-03.tar.gz',
    'db-2024-02-06.tar.gz',
    'db-2024-02-07.tar.gz',
    'db-2024-02-08.tar.gz',
    'db-2024-02-09.tar.gz',
    'db-2024-02-10.tar.gz',
    'db-2024-02-11.tar.gz',
    'db-2024-02-12.tar.gz',
    'db-2024-02-13.tar.gz',
    'db-2024-02-14.tar.gz',
    'db-2024-02-15.tar.gz',
    'db-2024-02-16.tar.gz',
    'db-2024-02-17.tar.gz',
    'db-2024-02-19.tar.gz',
    'db-2024-02-20.tar.gz',
    'db-2024-02-21.tar.gz',
    'db-2024-02-22.tar.gz',
    'db-2024-02-23.tar.gz',
    'db-2024-02-24.tar.gz',
    'db-2024-02-25.tar.gz',
    'db-2024-02-26.tar.gz',
    'db-2024-02-27.tar.gz',
    'db-2024-02-28.tar.gz',
    'db-2024-02-29.tar.gz',
    'db-2024-03-01.tar.gz',
    'db-2024-03-04.tar.gz',
    'db-2024-03-05.tar.gz',
    'db-2024-03-06.tar.gz',
    'db-2024-03-07.tar.gz',
    'db-2024-03-08.tar.gz',
    'db-2024-03-09.tar.gz',
    'db-2024-03-13.tar.gz',
    'db-2024-03-14.tar.gz',
    'db-2024-03-15.tar.gz',
    'db-2024-03-16.tar.gz',
    'db-2024-03-18.tar.gz',
    'db-2024-03-19.tar.gz',
    'db-2024-03-20.tar.gz',
    'db-2024-03-21.tar.gz',
    'db-2024-03-22.tar.gz',
    'db-2024-03-23.tar.gz',
    'db-2024-03-25.tar.gz',
    'db-2024-03-26.tar.gz',
    'db-2024-03-28.tar.gz',
    'db-2024-03-29.tar.gz',
    'db-2024-03-30.tar.gz',
    'db-2024-04-01.tar.gz',
    'db-2024-04-02.tar.gz',
]

def main():
    ok = True
    present = sorted(os.listdir(ROOT)) if os.path.isdir(ROOT) else []
    missing = sorted(set(EXPECTED_SURVIVORS) - set(present))
    extra = sorted(set(present) - set(EXPECTED_SURVIVORS))
    if missing:
        ok = False
        print("FAIL: files that should have been kept are gone:", missing)
    if extra:
        ok = False
        print("FAIL: files that should have been deleted (or unexpected new files):", extra)
    for name in EXPECTED_SURVIVORS:
        p = os.path.join(ROOT, name)
        if name == "README.txt" or not os.path.isfile(p):
            continue
        if open(p).read() != "dummy archive %s\n" % name:
            ok = False
            print("FAIL: content of kept file changed:", name)
    try:
        log = open("/app/deleted.txt").read()
    except OSError as e:
        ok = False
        print("FAIL: cannot read /app/deleted.txt:", e)
    else:
        lines = log.rstrip("\n").split("\n") if log.strip() else []
        lines = [l.rstrip() for l in lines]
        if lines != EXPECTED_DELETED:
            ok = False
            print("FAIL: /app/deleted.txt is wrong")
            print("  missing from log:", sorted(set(EXPECTED_DELETED) - set(lines)))
            print("  unexpected in log:", sorted(set(lines) - set(EXPECTED_DELETED)))
            if set(lines) == set(EXPECTED_DELETED):
                print("  (right names, wrong order or duplicates)")
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
