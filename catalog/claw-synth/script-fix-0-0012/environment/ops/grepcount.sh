#!/bin/bash
# Count the lines of each file that contain a fixed string.
# Usage: grepcount.sh PATTERN FILE...
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 PATTERN FILE..." >&2
    exit 2
fi
pattern=$1
shift
total=0
status=0
for f in $@; do
    if [ ! -f "$f" ]; then
        echo "missing $f" >&2
        status=2
        continue
    fi
    n=$(grep -cF -- "$pattern" "$f" || true)
    echo "$n $f"
    total=$((total + n))
done
echo "total $total"
if [ "$status" -ne 0 ]; then
    exit "$status"
fi
[ "$total" -gt 0 ] || exit 1
exit 0
