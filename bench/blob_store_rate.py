"""How fast the blob store keeps screenshots, against plain file writes measured in the same run.

Three ways of writing the same N distinct blobs (default 200 of 1 MiB, random bytes) to the same disk:

    baseline    open, write, fsync, close: one file per blob, no hashing, no rename
    put         BlobStore.put: sha256, temporary file, write, fsync, rename into place
    put again   BlobStore.put of a blob already stored (a screenshot sent twice): sha256 and a stat

Prints blobs/s and MB/s for each and the ratio to the baseline. Run from the repository root:

    .venv/bin/python -m bench.blob_store_rate [--count 200] [--kib 1024] [--dir DIR] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from proxy.blob_store import BlobStore


def _timed(blobs: Sequence[bytes], write: Callable[[int, bytes], object]) -> float:
    started = time.perf_counter()
    for i, data in enumerate(blobs):
        write(i, data)
    return time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200, help="distinct blobs (default 200)")
    parser.add_argument("--kib", type=int, default=1024, help="size of each blob in KiB (default 1024)")
    parser.add_argument("--dir", type=Path, help="where to write (default: a temporary directory)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="forge-blob-bench-", dir=args.dir))
    try:
        blobs = [os.urandom(args.kib * 1024) for _ in range(args.count)]
        plain = root / "plain"
        plain.mkdir()

        def write_plain(i: int, data: bytes) -> None:
            with open(plain / f"{i:06d}", "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())

        store = BlobStore(root / "blobs")
        baseline = _timed(blobs, write_plain)
        put = _timed(blobs, lambda _, data: store.put(data))
        again = _timed(blobs, lambda _, data: store.put(data))
        megabytes = args.count * args.kib / 1024
        rows = [
            ("baseline (write + fsync)", baseline),
            ("BlobStore.put", put),
            ("BlobStore.put, stored already", again),
        ]
        header = ("", "blobs/s", "MB/s", "time / baseline")
        lines = [
            (name, f"{args.count / sec:.1f}", f"{megabytes / sec:.1f}", f"{sec / baseline:.2f}x")
            for name, sec in rows
        ]
        print(f"{args.count} distinct blobs of {args.kib} KiB under {root.parent}")
        if args.markdown:
            print("| " + " | ".join(header) + " |")
            print("|" + "---|" * len(header))
            for line in lines:
                print("| " + " | ".join(line) + " |")
        else:
            for line in [header, *lines]:
                print(f"{line[0]:<32}{line[1]:>10}{line[2]:>10}{line[3]:>18}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
