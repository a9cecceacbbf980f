#!/bin/bash
# Disk usage per file extension, from a listing made with: find ... -printf '%s\t%P\n'
# Usage: diskreport.sh LISTING
set -u

listing=${1:-}
if [ -z "$listing" ] || [ ! -f "$listing" ]; then
    echo "usage: $0 LISTING (a file of '<bytes><TAB><path>' lines)" >&2
    exit 2
fi

awk '
NF < 2 || $1 !~ /^[0-9]+$/ { next }
{
    name = $2
    sub(/.*\//, "", name)
    ext = "(none)"
    if (match(name, /\.[^.]+$/) && RSTART > 1) {
        ext = tolower(substr(name, RSTART + 1))
    }
    files[ext] += 1
    bytes[ext] += $1
}
END {
    for (ext in files) {
        kib = int(bytes[ext] / 1024)
        printf "%s %d %d\n", ext, files[ext], kib
    }
}' "$listing" | LC_ALL=C sort -k3,3nr -k1,1
