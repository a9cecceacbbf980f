#!/bin/bash
# deploy.sh RELEASE_DIR TARGET_ROOT
#
# Deploys the contents of RELEASE_DIR into TARGET_ROOT/releases/<version>, points
# TARGET_ROOT/current at it, records it in TARGET_ROOT/deploy.log and prunes old releases.

KEEP=3

if [ $# -lt 2 ]; then
    echo "usage: deploy.sh RELEASE_DIR TARGET_ROOT"
    exit 1
fi

SRC=$1
TARGET=$2

if [ ! -f $SRC/VERSION ]; then
    echo "error: $SRC/VERSION not found" >&2
    exit 3
fi
VERSION=$(head -n 1 $SRC/VERSION)

DEST=$TARGET/releases/$VERSION
if [ -d $DEST ]; then
    echo "error: version $VERSION is already deployed" >&2
fi

mkdir -p $DEST
cp -r $SRC/* $DEST
if [ $? -ne 0 ]; then
    echo "error: copy failed" >&2
    exit 0
fi

ln -sf releases/$VERSION $TARGET/current
echo $VERSION >> $TARGET/deploy.log

# prune old releases
cd $TARGET/releases
for old in $(ls -t | tail -n +$((KEEP + 1))); do
    rm -rf $old
done

echo "deployed $VERSION"
