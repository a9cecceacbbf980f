"""Run /app/inventory/report.py on freshly generated inventories and compare with a reference."""
import csv
import io
import os
import random
import subprocess
import sys
import tempfile
from decimal import Decimal

SCRIPT = "/app/inventory/report.py"
LOW = 5


def reference(items):
    """items: list of dicts with sku, name, category, quantity (int), unit_cost (Decimal)."""
    for it in items:
        it["value"] = it["quantity"] * it["unit_cost"]
    out = [f"ITEMS {len(items)}", f"TOTAL_VALUE {sum((it['value'] for it in items), Decimal(0)):.2f}"]
    low = sorted(it["sku"] for it in items if it["quantity"] < LOW)
    out.append("LOW_STOCK " + (",".join(low) if low else "-"))
    out.append("TOP_VALUE")
    ranked = sorted(items, key=lambda it: (-it["value"], it["sku"]))[:3]
    out += [f"{i}. {it['sku']} {it['name']} {it['value']:.2f}" for i, it in enumerate(ranked, 1)]
    out.append("CATEGORIES")
    cats = sorted({it["category"] for it in items})
    for c in cats:
        members = [it for it in items if it["category"] == c]
        out.append(f"{c} {len(members)} {sum((it['value'] for it in members), Decimal(0)):.2f}")
    return "\n".join(out)


WORDS = ["Hex bolt", "Washer", "Bracket", "Hinge", "Cable", "Adapter", "Label printer", "Toner",
         "Notebook", "Marker set", "Drill bit", "Battery pack", "Fuse", "Relay", "Switch"]
QUALIFIERS = ["M6", "steel", "large", "blue", "2m", "heavy duty", "10 pack", 'rated "IP67"', "spare"]


def make_case(rng, n, trailing_blank=True, blank_inside=True):
    cats = rng.sample(["hardware", "electronics", "office", "Safety", "cleaning", "tools"], rng.randint(2, 5))
    skus = rng.sample(range(1000, 9999), n)
    items = []
    for i in range(n):
        name = rng.choice(WORDS)
        if rng.random() < 0.5:
            name += rng.choice([", ", " "]) + rng.choice(QUALIFIERS)
        cents = rng.randint(5, 9999)
        items.append({
            "sku": f"{rng.choice(['HW', 'EL', 'OF', 'SF'])}-{skus[i]}",
            "name": name,
            "category": rng.choice(cats),
            "quantity": rng.choice([0, 1, 2, 3, 4, 5, 6]) if rng.random() < 0.3 else rng.randint(0, 250),
            "unit_cost": Decimal(cents) / 100,
        })
    if n >= 6:
        # tie in value between two items, and make the last row the most valuable one
        a, b = rng.sample(range(n - 1), 2)
        items[b]["quantity"], items[b]["unit_cost"] = items[a]["quantity"], items[a]["unit_cost"]
        items[-1]["quantity"], items[-1]["unit_cost"] = 999, Decimal("250.00")
        items[-2]["quantity"] = 2  # a low-stock item near the end
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["sku", "name", "category", "quantity", "unit_cost"])
    rows = []
    for it in items:
        cost = f"{it['unit_cost']:.2f}" if rng.random() < 0.8 else str(it["unit_cost"].normalize())
        rows.append([it["sku"], it["name"], it["category"], str(it["quantity"]), cost])
    for r in rows:
        w.writerow(r)
        if blank_inside and rng.random() < 0.08:
            buf.write("\n")
    text = buf.getvalue() + ("\n" if trailing_blank else "")
    return text, items


def run(text):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8") as fh:
        fh.write(text)
        path = fh.name
    try:
        proc = subprocess.run([sys.executable, SCRIPT, path], capture_output=True, text=True, timeout=30)
    finally:
        os.unlink(path)
    return proc


def main():
    if not os.path.isfile(SCRIPT):
        print(f"FAIL: {SCRIPT} is missing")
        return 1
    rng = random.Random(90210)
    cases = []
    for i, n in enumerate((25, 40, 12, 60, 8)):
        cases.append(make_case(rng, n, trailing_blank=(i % 2 == 1)))
    cases.append(make_case(rng, 30, trailing_blank=False, blank_inside=False))
    cases.append(make_case(rng, 2, trailing_blank=False))
    cases.append(make_case(rng, 1))
    cases.append(("sku,name,category,quantity,unit_cost\n", []))

    failed = 0
    for idx, (text, items) in enumerate(cases):
        want = reference([dict(it) for it in items])
        proc = run(text)
        got = proc.stdout.rstrip("\n")
        if proc.returncode != 0 or got != want:
            failed += 1
            print(f"case {idx}: FAILED (exit {proc.returncode})")
            print("--- input ---\n" + text)
            print("--- expected ---\n" + want)
            print("--- got ---\n" + got)
            if proc.stderr:
                print("--- stderr ---\n" + proc.stderr[-2000:])
    if failed:
        print(f"FAIL: {failed}/{len(cases)} cases wrong")
        return 1
    print(f"PASS: {len(cases)} cases")
    return 0


sys.exit(main())
