"""Run the fixed script on exports generated here and compare with a reference implementation."""
import csv
import io
import os
import random
import subprocess
import sys
import tempfile

SCRIPT = '/app/bin/dedupe_contacts.py'
NAMES = ["Ann Lee", "Bo Chen", "Carla Diaz", "Dev Patel", "Eve O'Neil", "Femi Ade", "Gus Holm", "Hana Sato",
         "Ivo Kral", "Jo March, Jr."]


def reference(rows):
    merged = {}
    for row in rows:
        key = row["email"].strip().lower()
        if not key:
            continue
        if key not in merged:
            merged[key] = {"name": row["name"].strip(), "email": key, "phone": row["phone"].strip()}
        elif not merged[key]["phone"] and row["phone"].strip():
            merged[key]["phone"] = row["phone"].strip()
    out = [merged[k] for k in sorted(merged)]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["name", "email", "phone"])
    for rec in out:
        w.writerow([rec["name"], rec["email"], rec["phone"]])
    return buf.getvalue(), f"{len(rows)} rows, {len(out)} contacts\n"


def make_case(rng, n):
    people = rng.sample(NAMES, rng.randint(2, len(NAMES)))
    rows = []
    for _ in range(n):
        name = rng.choice(people)
        local = name.split()[0].lower().replace("'", "")
        email = f"{local}@{rng.choice(['example.com', 'mail.test'])}"
        email = rng.choice([email, email.upper(), " " + email, email.capitalize() + " "])
        if rng.random() < 0.08:
            email = "  "
        phone = rng.choice(["", "", f"+1 555 {rng.randint(1000, 9999)}", f" 0{rng.randint(100000, 999999)} "])
        rows.append({"id": str(len(rows)), "name": rng.choice([name, " " + name, name.upper()]), "email": email, "phone": phone})
    # a duplicate whose first record has no phone, and a later one with another name
    rows.append({"id": "x1", "name": "Zed Last", "email": "zed@z.example", "phone": ""})
    rows.append({"id": "x2", "name": "Zed Other", "email": "ZED@z.example", "phone": "+1 555 0000"})
    rows.append({"id": "x3", "name": "Zed Third", "email": "zed@z.example ", "phone": "+1 555 1111"})
    rows.insert(0, {"id": "x0", "name": "Amy First", "email": "amy@a.example", "phone": "1"})
    rows.append({"id": "x4", "name": "Amy Later", "email": "Amy@A.example", "phone": "2"})
    return rows


def main():
    rng = random.Random(236378706)
    cases = [make_case(rng, rng.randint(0, 40)) for _ in range(8)]
    failed = 0
    work = tempfile.mkdtemp(prefix="dedupe-check-")
    for i, rows in enumerate(cases):
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=["id", "name", "email", "phone"], lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        src, dst = os.path.join(work, f"in{i}.csv"), os.path.join(work, f"out {i}.csv")
        with open(src, "w", encoding="utf-8") as fh:
            fh.write(buf.getvalue())
        want_file, want_out = reference(rows)
        proc = subprocess.run([sys.executable, SCRIPT, src, dst], capture_output=True, text=True, timeout=30)
        got = open(dst, encoding="utf-8").read() if os.path.exists(dst) else None
        if got != want_file or proc.stdout != want_out or proc.returncode != 0:
            failed += 1
            print(f"case {i}: FAILED (exit {proc.returncode})")
            print("--- input ---\n" + buf.getvalue()[:1500])
            print("--- expected file ---\n" + want_file + "--- got ---\n" + str(got)[:2000])
            print("--- expected stdout ---\n" + want_out + "--- got ---\n" + proc.stdout + proc.stderr[-800:])
    if failed:
        print(f"FAIL: {failed}/{len(cases)} cases wrong")
        return 1
    print(f"PASS: {len(cases)} cases")
    return 0


sys.exit(main())
