"""Run the fixed script on archive folders generated here and compare with what the spec says."""
import os
import random
import shutil
import subprocess
import sys
import tempfile

SCRIPT = '/app/ops/prune.sh'
LABELS = ["db", "site files", "media", "config", "full backup", "logs", "home dirs"]


def make_dir(rng, root, n):
    names = set()
    while len(names) < n:
        names.add(f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}_{rng.choice(LABELS)}.tar.gz")
    for name in names:
        with open(os.path.join(root, name), "w") as fh:
            fh.write(name + "\n")
    others = ["notes.txt", "2099-01-01_future.zip", "restore guide.md"]
    for name in rng.sample(others, rng.randint(1, 3)):
        with open(os.path.join(root, name), "w") as fh:
            fh.write("not an archive\n")
    os.mkdir(os.path.join(root, "2024-12-31_sub.tar.gz.d"))
    return sorted(names)


def run(*args):
    return subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, timeout=30)


def main():
    rng = random.Random(984448144)
    failed = 0
    work = tempfile.mkdtemp(prefix="prune-check-")
    try:
        for i in range(8):
            root = os.path.join(work, f"case {i}")
            os.mkdir(root)
            archives = make_dir(rng, root, rng.randint(0, 9))
            keep = rng.choice([0, 1, 2, 3, 5, 20]) if i else 3
            before = set(os.listdir(root))
            ordered = sorted(archives, key=lambda s: s.encode(), reverse=True)
            deleted = ordered[keep:]
            want = "".join(f"deleted {n}\n" for n in deleted) + f"kept {min(len(archives), keep)}\n"
            proc = run(root, str(keep))
            after = set(os.listdir(root))
            if proc.stdout != want or proc.returncode != 0 or after != before - set(deleted):
                failed += 1
                print(f"case {i}: FAILED: {len(archives)} archives, KEEP={keep}, exit {proc.returncode}")
                print("--- expected stdout ---\n" + want + "--- got ---\n" + proc.stdout + proc.stderr[-800:])
                print(f"--- left in the folder: {sorted(after)}, expected {sorted(before - set(deleted))}")
        root = os.path.join(work, "bad args")
        os.mkdir(root)
        make_dir(rng, root, 3)
        before = set(os.listdir(root))
        for args in ([os.path.join(work, "does not exist"), "2"], [root, "two"], [root, "-1"], [root]):
            proc = run(*args)
            if proc.returncode != 2 or proc.stdout or not proc.stderr.strip() or set(os.listdir(root)) != before:
                failed += 1
                print(f"arguments {args}: expected exit 2, an error on stderr, nothing on stdout and nothing deleted; "
                      f"got exit {proc.returncode}, stdout {proc.stdout!r}, stderr {proc.stderr!r}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        print(f"FAIL: {failed} case(s) wrong")
        return 1
    print("PASS")
    return 0


sys.exit(main())
