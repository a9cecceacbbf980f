#!/bin/bash
# Keep the newest KEEP archives (*.tar.gz) of a folder and delete the older ones.
# Usage: prune.sh DIR KEEP
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 DIR KEEP" >&2
    exit 2
fi
dir=$1
keep=$2
if [ ! -d "$dir" ]; then
    echo "no such directory: $dir" >&2
    exit 2  # no such directory
fi
if ! [[ "$keep" =~ ^[0-9]+$ ]]; then
    echo "KEEP must be a non-negative integer" >&2
    exit 2
fi

# archive names start with their date (YYYY-MM-DD_...), so name order is date order
mapfile -t files < <(find "$dir" -maxdepth 1 -type f -name '*.tar.gz' -printf '%f\n' | LC_ALL=C sort -r)
count=0
for f in "${files[@]}"; do
    count=$((count + 1))
    if [ "$count" -ge "$keep" ]; then
        rm -- "$dir/$f"
        echo "deleted $f"
    fi
done
kept=$(( ${#files[@]} < keep ? ${#files[@]} : keep ))
echo "kept $kept"
