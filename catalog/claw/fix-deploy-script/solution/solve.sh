#!/bin/bash
# Reference solution: rewrite /app/deploy.sh with proper quoting, exit codes, symlink handling and pruning.
cat > /app/deploy.sh <<'SH'
#!/bin/bash
# deploy.sh RELEASE_DIR TARGET_ROOT
#
# Deploys the contents of RELEASE_DIR into TARGET_ROOT/releases/<version>, points
# TARGET_ROOT/current at it, records it in TARGET_ROOT/deploy.log and prunes old releases.
set -uo pipefail

KEEP=3

if [ "$#" -ne 2 ]; then
    echo "usage: deploy.sh RELEASE_DIR TARGET_ROOT" >&2
    exit 2
fi

SRC=$1
TARGET=$2

if [ ! -f "$SRC/VERSION" ]; then
    echo "error: $SRC/VERSION not found" >&2
    exit 3
fi
VERSION=$(head -n 1 -- "$SRC/VERSION" | tr -d '\r')
VERSION=${VERSION#"${VERSION%%[![:space:]]*}"}   # trim leading whitespace
VERSION=${VERSION%"${VERSION##*[![:space:]]}"}   # trim trailing whitespace
if [ -z "$VERSION" ]; then
    echo "error: empty VERSION in $SRC/VERSION" >&2
    exit 3
fi

DEST="$TARGET/releases/$VERSION"
if [ -e "$DEST" ] || [ -L "$DEST" ]; then
    echo "error: version $VERSION is already deployed" >&2
    exit 4
fi

mkdir -p -- "$DEST" || exit 1
if ! cp -a -- "$SRC/." "$DEST/"; then
    echo "error: copy failed" >&2
    exit 1
fi

# -n: replace the link itself instead of descending into the directory it points to
ln -sfn -- "releases/$VERSION" "$TARGET/current" || exit 1
printf '%s\n' "$VERSION" >> "$TARGET/deploy.log" || exit 1

# prune: keep only the versions on the last $KEEP lines of deploy.log
mapfile -t keep < <(tail -n "$KEEP" -- "$TARGET/deploy.log")
for entry in "$TARGET/releases"/* "$TARGET/releases"/.[!.]* "$TARGET/releases"/..?*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue
    name=${entry##*/}
    wanted=0
    for k in "${keep[@]}"; do
        if [ "$k" = "$name" ]; then wanted=1; break; fi
    done
    if [ "$wanted" -eq 0 ]; then
        rm -rf -- "$entry"
    fi
done

echo "deployed $VERSION"
exit 0
SH
chmod 755 /app/deploy.sh
