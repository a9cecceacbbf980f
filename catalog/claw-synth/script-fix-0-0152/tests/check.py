"""Run the fixed script on orders generated here and compare with a reference implementation."""
import json
import os
import random
import subprocess
import sys
import tempfile
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

SCRIPT = '/app/invoices/total.py'
BULK, DISCOUNT, TAX = 10, Decimal(10), Decimal(20)


def r(x):
    return x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def reference(order):
    out, subtotal = [], Decimal(0)
    for item in order["lines"]:
        qty, unit = item["qty"], Decimal(item["unit_price"])
        amount = unit * qty * ((100 - DISCOUNT) / 100 if qty >= BULK else 1)
        line = r(amount)
        subtotal += line
        out.append(f"{item['sku']} {qty} x {unit:.2f} = {line:.2f}")
    tax = r(subtotal * TAX / 100)
    out += [f"subtotal {subtotal:.2f}", f"tax {tax:.2f}", f"total {subtotal + tax:.2f}"]
    return "\n".join(out) + "\n"


def half_cent_line():
    """A bulk line whose discounted amount ends in exactly half a cent, rounding differently half-even."""
    for unit in range(1, 5000):
        for qty in (BULK, BULK + 1, BULK + 2):
            amount = Decimal(unit) / 100 * qty * (100 - DISCOUNT) / 100
            up = amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
            even = amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)
            if up != even:
                return {"sku": "HALF-1", "qty": qty, "unit_price": f"{Decimal(unit) / 100:.2f}"}
    return {"sku": "HALF-1", "qty": BULK, "unit_price": "0.05"}


def make_order(rng, n):
    lines = []
    for i in range(n):
        qty = rng.choice([1, 2, 3, BULK - 1, BULK, BULK, BULK + 1, BULK * 2 + 1])
        lines.append({"sku": f"SKU-{rng.randint(100, 999)}-{i}", "qty": max(1, qty),
                      "unit_price": f"{rng.randint(1, 99999) / 100:.2f}"})
    return {"customer": rng.choice(["Acme", "Globex", "Initech"]), "lines": lines}


def main():
    rng = random.Random(1905887404)
    cases = [make_order(rng, rng.randint(1, 9)) for _ in range(8)]
    half = half_cent_line()
    cases.append({"customer": "edge", "lines": [half, {"sku": "ONE", "qty": BULK, "unit_price": "9.99"}]})
    cases.append({"customer": "fractions", "lines": [{"sku": f"F{i}", "qty": BULK, "unit_price": p}
                                                       for i, p in enumerate(["0.99", "1.13", "2.07", "0.33", "4.41"])]})
    cases.append({"customer": "empty", "lines": []})
    failed = 0
    for i, order in enumerate(cases):
        want = reference(order)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as fh:
            json.dump(order, fh, indent=2)
        try:
            proc = subprocess.run([sys.executable, SCRIPT, fh.name], capture_output=True, text=True, timeout=30)
        finally:
            os.unlink(fh.name)
        if proc.stdout != want or proc.returncode != 0:
            failed += 1
            print(f"case {i}: FAILED (exit {proc.returncode})")
            print("--- input ---\n" + json.dumps(order, indent=2)[:2500])
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
