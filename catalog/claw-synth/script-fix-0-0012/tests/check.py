"""Run the fixed script on files generated here and compare with what the spec says."""
import os
import random
import shutil
import subprocess
import sys
import tempfile

SCRIPT = '/app/ops/grepcount.sh'
WORDS = ["GET /api", "POST /login", "retry a.b", "timeout", "--verbose", "[warn]", "ok", "user=alice", "x*y"]


def run(args, cwd):
    return subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, timeout=30, cwd=cwd)


def main():
    rng = random.Random(90399910)
    work = tempfile.mkdtemp(prefix="count-check-")
    failed = 0
    try:
        cases = []
        for i in range(7):
            files = []
            for j in range(rng.randint(1, 4)):
                name = rng.choice([f"app {j}.log", f"web-{j}.log", f"err_{j}.txt", f"my logs {j}.txt"])
                lines = [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(rng.randint(0, 12))]
                if name not in [f for f, _ in files]:
                    files.append((name, lines))
            pattern = rng.choice(["GET /", "a.b", "--verbose", "[warn]", "x*y", "timeout", "nomatch-here"])
            missing = ["gone.log"] if rng.random() < 0.25 else []
            cases.append((pattern, files, missing))
        cases.append(("nothing-matches", [("one file.log", ["a", "b"]), ("two.log", [])], []))
        cases.append(("a.b", [("dots.log", ["aXb", "a.b", "a.b a.b", "ab"])], []))
        for i, (pattern, files, missing) in enumerate(cases):
            root = os.path.join(work, f"case {i}")
            os.mkdir(root)
            for name, lines in files:
                with open(os.path.join(root, name), "w") as fh:
                    fh.write("".join(line + "\n" for line in lines))
            args = [name for name, _ in files] + missing
            rng.shuffle(args)
            out, total = [], 0
            for name in args:
                if name in missing:
                    continue
                n = sum(1 for line in dict(files)[name] if pattern in line)
                out.append(f"{n} {name}")
                total += n
            out.append(f"total {total}")
            want = "\n".join(out) + "\n"
            code = 2 if missing else (1 if total == 0 else 0)
            proc = run([pattern, *args], root)
            if proc.stdout != want or proc.returncode != code or (missing and "missing gone.log" not in proc.stderr):
                failed += 1
                print(f"case {i}: FAILED: pattern {pattern!r}, files {args}; exit {proc.returncode}, expected {code}")
                print("--- expected stdout ---\n" + want + "--- got ---\n" + proc.stdout + "--- stderr ---\n" + proc.stderr[-800:])
        proc = run(["only-pattern"], work)
        if proc.returncode != 2 or proc.stdout:
            failed += 1
            print(f"one argument: expected exit 2 and no stdout, got exit {proc.returncode}, stdout {proc.stdout!r}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        print(f"FAIL: {failed} case(s) wrong")
        return 1
    print("PASS")
    return 0


sys.exit(main())
