"""Run the fixed script on logs generated here and compare with a reference implementation."""
import os
import random
import re
import subprocess
import sys
import tempfile

SCRIPT = '/app/bin/log_summary.py'
TOP_K = 3
LEVELS = ["ERROR", "WARN", "INFO", "DEBUG"]
SHAPE = re.compile(r"^(\S+) ([A-Za-z]+) ([a-z0-9_-]+): (.*)$")


def reference(text):
    total = skipped = 0
    counts = dict.fromkeys(LEVELS, 0)
    errors = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        total += 1
        m = SHAPE.match(line)
        if m is None or m.group(2).upper() not in counts:
            skipped += 1
            continue
        level = m.group(2).upper()
        counts[level] += 1
        if level == "ERROR":
            errors[m.group(3)] = errors.get(m.group(3), 0) + 1
    out = [f"lines {total}", f"skipped {skipped}", *(f"{lv} {counts[lv]}" for lv in LEVELS),
           f"top {TOP_K} components by errors:"]
    ranked = sorted(errors.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_K]
    out += [f"{name} {n}" for name, n in ranked]
    return "\n".join(out) + "\n"


def make_log(rng, n):
    comps = rng.sample(['worker', 'mailer', 'queue', 'api', 'search', 'auth'] + ["zeta-svc", "alpha_2", "mq"], rng.randint(3, 7))
    lines = []
    for i in range(n):
        level = rng.choice(["ERROR", "error", "Error", "WARN", "warn", "INFO", "info", "DEBUG", "ERROR"])
        lines.append(f"2024-06-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{(i * 13) % 60:02d}Z {level} {rng.choice(comps)}: event {i}")
        r = rng.random()
        if r < 0.06:
            lines.append("")
        elif r < 0.1:
            lines.append("   ")
        elif r < 0.14:
            lines.append(rng.choice(["--- rotated ---", "Traceback (most recent call last):", "2024-06-01T00:00:00Z FATAL db: boom"]))
    # a tie on the error count, at the top, between two new components that first appear in
    # non-alphabetical order
    counts = {}
    for line in lines:
        m = SHAPE.match(line)
        if m and m.group(2).upper() == "ERROR":
            counts[m.group(3)] = counts.get(m.group(3), 0) + 1
    top = max(counts.values(), default=0) + 1
    late = [f"zz-{rng.choice(['late', 'new'])}", f"aa-{rng.choice(['late', 'new'])}"]
    lines += [f"2024-06-30T23:59:{i:02d}Z ERROR {c}: tie" for i, c in enumerate([late[0]] * top + [late[1]] * top)]
    return "\n".join(lines) + "\n"


def main():
    rng = random.Random(1339467310)
    cases = [make_log(rng, rng.randint(5, 120)) for _ in range(8)]
    cases.append("")
    cases.append("\n\n2024-06-01T00:00:00Z info api: only info\n")
    failed = 0
    for i, text in enumerate(cases):
        want = reference(text)
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, encoding="utf-8") as fh:
            fh.write(text)
        try:
            proc = subprocess.run([sys.executable, SCRIPT, fh.name], capture_output=True, text=True, timeout=30)
        finally:
            os.unlink(fh.name)
        if proc.stdout != want or proc.returncode != 0:
            failed += 1
            print(f"case {i}: FAILED (exit {proc.returncode})")
            print("--- input ---\n" + text[:2500])
            print("--- expected ---\n" + want)
            print("--- got ---\n" + proc.stdout[:2500])
            if proc.stderr:
                print("--- stderr ---\n" + proc.stderr[-1500:])
    if failed:
        print(f"FAIL: {failed}/{len(cases)} cases wrong")
        return 1
    print(f"PASS: {len(cases)} cases")
    return 0


sys.exit(main())
