#!/usr/bin/env python3
"""Verifier for inventory-http-service: checks /app/low_stock.csv against the service's seed data."""
import csv, io, sys

HEADER = ["sku", "name", "on_hand", "reorder_point", "shortfall"]
# (sku, name, on_hand, reorder_point, shortfall) computed from the service's seed data, in required order
EXPECTED = [
    ["HW-2974", "Chalk line", 18, 100, 82],
    ["HW-1568", "Wire rope 4mm (per m)", 28, 100, 72],
    ["HW-1161", "Wood screw 4x40", 48, 100, 52],
    ["HW-2382", "LED bulb GU10 5W", 4, 40, 36],
    ["HW-1457", "Door handle \"Oslo\"", 10, 40, 30],
    ["HW-3862", "Wheelbarrow tire", 21, 50, 29],
    ["HW-3122", "Screwdriver set", 14, 40, 26],
    ["HW-1827", "Silicone, clear", 5, 25, 20],
    ["HW-3825", "Bucket 12L", 21, 40, 19],
    ["HW-1013", "Hex bolt M6", 10, 25, 15],
    ["HW-1087", "Washer, flat 6mm", 3, 15, 12],
    ["HW-1531", "Shelf bracket 200mm", 9, 20, 11],
    ["HW-1642", "Duct tape, grey 50m", 5, 15, 10],
    ["HW-1790", "Wood glue 750ml", 15, 25, 10],
    ["HW-2789", "Padlock 40mm", 0, 10, 10],
    ["HW-2863", "Spirit level 60cm", 5, 15, 10],
    ["HW-2419", "Junction box IP65", 16, 25, 9],
    ["HW-2826", "Chain 6mm (per m)", 16, 25, 9],
    ["HW-2345", "LED bulb E27 9W", 3, 10, 7],
    ["HW-2049", "Saw blade 190mm", 19, 25, 6],
    ["HW-3714", "Steel wool #0000", 9, 15, 6],
    ["HW-3529", "Filler, fine 1kg", 0, 5, 5],
    ["HW-1346", "Wall plug 8mm", 6, 10, 4],
    ["HW-2641", "Pipe elbow 40mm 90°", 6, 10, 4],
    ["HW-1272", "Cable tie 300mm", 2, 5, 3],
    ["HW-1716", "Sandpaper P120", 2, 5, 3],
]

def main():
    try:
        raw = open("/app/low_stock.csv", "rb").read()
    except OSError as e:
        print("FAIL: cannot read /app/low_stock.csv:", e)
        return 1
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        print("FAIL: /app/low_stock.csv is not valid UTF-8")
        return 1
    if text.startswith("\ufeff"):
        print("FAIL: file starts with a BOM")
        return 1
    rows = list(csv.reader(io.StringIO(text, newline="")))
    while rows and rows[-1] == []:
        rows.pop()
    if not rows or rows[0] != HEADER:
        print("FAIL: bad header:", rows[0] if rows else None)
        return 1
    got = rows[1:]
    want = [[str(x) for x in r] for r in EXPECTED]
    ok = True
    if got != want:
        ok = False
        print("FAIL: rows differ from expected (%d expected, %d found)" % (len(want), len(got)))
        for i in range(max(len(got), len(want))):
            g = got[i] if i < len(got) else None
            w = want[i] if i < len(want) else None
            if g != w:
                print("  row %d: expected %r, got %r" % (i + 1, w, g))
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1

if __name__ == "__main__":
    sys.exit(main())
