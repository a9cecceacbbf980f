"""Run the fixed script on listings generated here and compare with a reference implementation."""
import os
import random
import re
import subprocess
import sys
import tempfile

SCRIPT = '/app/tools/diskreport.sh'
NAMES = ["report.pdf", "Photo.JPG", "photo.jpg", "notes", ".bashrc", "archive.tar.gz", "data.CSV", "my file.txt",
         "a.b.c.Md", "README", "clip.mp4", "song.Mp3", "x.csv"]


def reference(lines):
    files, size = {}, {}
    for line in lines:
        m = re.match(r"^([0-9]+)\t(.+)$", line)
        if not m:
            continue
        name = m.group(2).rsplit("/", 1)[-1]
        dot = name.rfind(".")
        ext = name[dot + 1:].lower() if dot > 0 and dot < len(name) - 1 else "(none)"
        files[ext] = files.get(ext, 0) + 1
        size[ext] = size.get(ext, 0) + int(m.group(1))
    rows = sorted(files, key=lambda e: (-((size[e] + 1023) // 1024), e.encode()))
    return "".join(f"{e} {files[e]} {(size[e] + 1023) // 1024}\n" for e in rows)


def make_lines(rng, n):
    lines = []
    for _ in range(n):
        folder = rng.choice(["", "docs/", "my photos/2024/", "a b/c/"])
        lines.append(f"{rng.choice([0, 1, 512, 1023, 1024, 1025, 4096, rng.randint(0, 10**7)])}\t{folder}{rng.choice(NAMES)}")
    lines += ["total 1234", "", "\tno-size.txt", "12 not-a-tab.txt"]
    # two extensions with the same rounded size, inserted in reverse order; sizes whose order differs as text
    lines += ["2048\tzz.zzz", "2047\taa.aaa", "9216\tbig.nine", "10240\tbig.ten"]
    rng.shuffle(lines)
    return lines


def run(args):
    return subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, timeout=30)


def main():
    rng = random.Random(877625941)
    failed = 0
    work = tempfile.mkdtemp(prefix="disk-check-")
    for i in range(8):
        lines = make_lines(rng, rng.randint(0, 80))
        path = os.path.join(work, f"listing {i}.txt")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        want = reference(lines)
        proc = run([path])
        if proc.stdout != want or proc.returncode != 0:
            failed += 1
            print(f"case {i}: FAILED (exit {proc.returncode})")
            print("--- input ---\n" + "\n".join(lines)[:1500])
            print("--- expected ---\n" + want + "--- got ---\n" + proc.stdout[:2000] + proc.stderr[-800:])
    for args in ([], [os.path.join(work, "missing.txt")], [work]):
        proc = run(args)
        if proc.returncode != 2 or not proc.stderr.strip() or proc.stdout:
            failed += 1
            print(f"arguments {args}: expected exit 2, a message on stderr and no stdout; got exit {proc.returncode}, "
                  f"stdout {proc.stdout!r}")
    if failed:
        print(f"FAIL: {failed} case(s) wrong")
        return 1
    print("PASS")
    return 0


sys.exit(main())
