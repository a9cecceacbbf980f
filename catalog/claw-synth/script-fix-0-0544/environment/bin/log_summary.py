#!/usr/bin/env python3
"""Error statistics of an application log.

Usage: python3 log_summary.py LOGFILE
"""
import re
import sys

TOP_K = 3
LEVELS = ["ERROR", "WARN", "INFO", "DEBUG"]
PATTERN = re.compile(r"^(\S+) ([A-Za-z]+) ([a-z0-9_-]+): (.*)$")


def main(argv):
    with open(argv[1], encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    total = skipped = 0
    counts = {level: 0 for level in LEVELS}
    errors = {}
    for line in lines:
        if not line.strip():
            continue
        total += 1
        m = PATTERN.match(line)
        if m is None:
            skipped += 1
            continue
        level = m.group(2).upper()
        if level not in counts:
            skipped += 1
            continue
        counts[level] += 1
        if level == "ERROR":
            errors[m.group(3)] = errors.get(m.group(3), 0) + 1
    print(f"lines {total}")
    print(f"skipped {skipped}")
    for level in LEVELS:
        print(f"{level} {counts[level]}")
    ranked = sorted(errors.items(), key=lambda kv: -kv[1])
    print(f"top {TOP_K} components by errors:")
    for name, n in ranked[: TOP_K - 1]:
        print(f"{name} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
