"""Run the fixed script on inputs generated here and compare with a reference implementation."""
import csv
import io
import os
import random
import subprocess
import sys
import tempfile
from decimal import ROUND_HALF_UP, Decimal

SCRIPT = '/app/timesheets/summarize.py'
KEY, VALUE = 'employee', 'hours'
COLUMNS = ['source', 'employee', 'hours', 'id']
MIN_TOTAL = Decimal("250")


def reference(rows):
    groups = {}
    for row in rows:
        raw = row[VALUE].strip()
        if not raw:
            continue
        name = row[KEY].strip()
        c, t = groups.get(name, (0, Decimal(0)))
        groups[name] = (c + 1, t + Decimal(raw))
    if not groups:
        return "", 1
    kept = sorted(((n, c, t) for n, (c, t) in groups.items() if t >= MIN_TOTAL), key=lambda g: (-g[2], g[0]))
    out = [f"{KEY},count,total,average"]
    for n, c, t in kept:
        out.append(f"{n},{c},{t:.2f},{(t / c).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):.2f}")
    return "\n".join(out) + "\n", 0


def case(rng, n_groups, rows_per, exact=True):
    names = rng.sample(["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "zeta", "Mu", "nu"], n_groups)
    rows = []
    for name in names:
        for _ in range(rng.randint(1, rows_per)):
            cents = rng.randint(1, 20000)
            rows.append({KEY: name, VALUE: f"{cents / 100:.2f}"})
    if exact and len(names) >= 3:
        # a group exactly at the threshold, one with a half-cent average, two with equal totals
        rows = [r for r in rows if r[KEY] not in names[:3]]
        rows += [{KEY: names[0], VALUE: f"{MIN_TOTAL - 1:.2f}"}, {KEY: names[0], VALUE: "1.00"}]
        rows += [{KEY: names[1], VALUE: f"{MIN_TOTAL + Decimal('0.25'):.2f}"}, {KEY: names[1], VALUE: "0.00"}]
        rows += [{KEY: names[2], VALUE: f"{MIN_TOTAL + Decimal('0.25'):.2f}"}, {KEY: names[2], VALUE: "0"}]
        rows += [{KEY: " " + names[3] + " ", VALUE: "12.5"}] if len(names) > 3 else []
    rng.shuffle(rows)
    if rng.random() < 0.5:
        rows.insert(rng.randrange(len(rows) + 1), {KEY: names[-1], VALUE: ""})
    # the largest group's last row comes last: dropping it changes the result
    rows.append({KEY: names[-1], VALUE: f"{MIN_TOTAL * 3:.2f}"})
    return rows


def render(rows):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow({c: r.get(c, "x, y" if c not in (KEY, VALUE) else "") for c in COLUMNS})
    return buf.getvalue()


def main():
    rng = random.Random(182058472)
    cases = [render(case(rng, rng.randint(3, 8), rng.randint(1, 6))) for _ in range(8)]
    cases.append(render(case(rng, 2, 3, exact=False)))
    cases.append(render([]))  # header only
    cases.append(render([{KEY: "solo", VALUE: ""}]))  # no usable row
    failed = 0
    for i, text in enumerate(cases):
        rows = list(csv.DictReader(io.StringIO(text)))
        want_out, want_code = reference(rows)
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8") as fh:
            fh.write(text)
        try:
            proc = subprocess.run([sys.executable, SCRIPT, fh.name], capture_output=True, text=True, timeout=30)
        finally:
            os.unlink(fh.name)
        if proc.stdout != want_out or proc.returncode != want_code:
            failed += 1
            print(f"case {i}: FAILED (exit {proc.returncode}, expected {want_code})")
            print("--- input ---\n" + text[:3000])
            print("--- expected stdout ---\n" + want_out)
            print("--- got stdout ---\n" + proc.stdout[:3000])
            if proc.stderr:
                print("--- stderr ---\n" + proc.stderr[-1500:])
    if failed:
        print(f"FAIL: {failed}/{len(cases)} cases wrong")
        return 1
    print(f"PASS: {len(cases)} cases")
    return 0


sys.exit(main())
