"""Run the fixed script on event exports generated here and compare with a reference implementation."""
import csv
import io
import os
import random
import subprocess
import sys
import tempfile
from datetime import date, timedelta

SCRIPT = '/app/reports/per_day.py'
STATUSES = ['success', 'rolled_back']
OTHER = ["skipped", "pending", "retry"]


def reference(rows, start, end):
    counts = {}
    for row in rows:
        if row["status"].lower() not in STATUSES:
            continue
        day = date.fromisoformat(row["timestamp"][:10])
        if start <= day <= end:
            counts[day] = counts.get(day, 0) + 1
    out, busiest, day = [], None, start
    while day <= end:
        n = counts.get(day, 0)
        out.append(f"{day.isoformat()} {n}")
        if n > 0 and (busiest is None or n > counts[busiest]):
            busiest = day
        day += timedelta(days=1)
    out += [f"total {sum(counts.values())}", f"busiest {busiest.isoformat() if busiest else '-'}"]
    return "\n".join(out) + "\n"


def make_case(rng):
    start = date(2024, rng.randint(1, 11), rng.randint(1, 20))
    end = start + timedelta(days=rng.randint(0, 12))
    rows = []
    for _ in range(rng.randint(0, 60)):
        day = start + timedelta(days=rng.randint(-2, (end - start).days + 2))
        status = rng.choice(STATUSES + [s.upper() for s in STATUSES] + [s.capitalize() for s in STATUSES] + OTHER)
        tz = rng.choice(["Z", "+02:00", "-05:00"])
        rows.append({"id": str(len(rows)), "timestamp": f"{day.isoformat()}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:00{tz}",
                     "status": status})
    # two days tie for the most events, and the range's last day has events
    for day, n in ((end, 3), (start, 9), (end, 6)):
        rows += [{"id": "t", "timestamp": f"{day.isoformat()}T12:00:00Z", "status": STATUSES[0]} for _ in range(n)]
    if end > start + timedelta(days=2):
        rows = [r for r in rows if r["timestamp"][:10] != (start + timedelta(days=1)).isoformat()]
    rng.shuffle(rows)
    return rows, start, end


def main():
    rng = random.Random(1096381181)
    cases = [make_case(rng) for _ in range(8)]
    cases.append(([], date(2024, 2, 27), date(2024, 3, 2)))
    failed = 0
    for i, (rows, start, end) in enumerate(cases):
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=["id", "timestamp", "status"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        want = reference(rows, start, end)
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8") as fh:
            fh.write(buf.getvalue())
        try:
            proc = subprocess.run([sys.executable, SCRIPT, fh.name, start.isoformat(), end.isoformat()],
                                  capture_output=True, text=True, timeout=30)
        finally:
            os.unlink(fh.name)
        if proc.stdout != want or proc.returncode != 0:
            failed += 1
            print(f"case {i}: FAILED (exit {proc.returncode}), range {start} .. {end}")
            print("--- input ---\n" + buf.getvalue()[:1500])
            print("--- expected ---\n" + want + "--- got ---\n" + proc.stdout[:2000] + proc.stderr[-800:])
    if failed:
        print(f"FAIL: {failed}/{len(cases)} cases wrong")
        return 1
    print(f"PASS: {len(cases)} cases")
    return 0


sys.exit(main())
