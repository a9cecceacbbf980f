#!/usr/bin/env python3
"""Verifier for sqlite-orders-export: compares /app/customer_totals.csv with the expected rows."""
import csv, io, sys

HEADER = ["customer_id", "name", "email", "order_count", "total_spent"]
# computed from the seeded database, in the required order
EXPECTED = [
    [28, "Tariq Okafor", "tariq.okafor28@example.com", 4, "3896.75"],
    [15, "Hana Kowalski", "hana.kowalski15@example.com", 5, "3281.70"],
    [21, "Dmitri de Vries", "dmitri.devries21@example.com", 4, "2386.28"],
    [10, "Viktor Müller", "viktor.müller10@example.com", 3, "2193.36"],
    [44, "Yusuf Müller", "yusuf.müller44@example.com", 4, "1965.33"],
    [51, "Lena García", "lena.garcía51@example.com", 5, "1951.43"],
    [6, "Fatima Ivanova", "fatima.ivanova6@example.com", 4, "1699.33"],
    [37, "Bram Ivanova", "bram.ivanova37@example.com", 3, "1646.30"],
    [2, "Ines García", "ines.garcía2@example.com", 3, "1568.36"],
    [36, "Tariq Okafor", "tariq.okafor36@example.com", 3, "1484.90"],
    [57, "Priya Nakamura", "priya.nakamura57@example.com", 4, "1468.36"],
    [29, "Hana Jensen", "hana.jensen29@example.com", 2, "1463.40"],
    [49, "Gus Haddad", "gus.haddad49@example.com", 2, "1256.40"],
    [27, "Quinn Kowalski", "quinn.kowalski27@example.com", 2, "1135.42"],
    [59, "Ximena Haddad", "ximena.haddad59@example.com", 4, "1126.35"],
    [3, "Emeka Kowalski", "emeka.kowalski3@example.com", 1, "1046.43"],
    [48, "Ines Haddad", "ines.haddad48@example.com", 3, "1019.91"],
    [32, "Bram Rossi", "bram.rossi32@example.com", 2, "902.42"],
    [16, "Ana O'Brien", "ana.obrien16@example.com", 2, "822.49"],
    [53, "Rosa Müller", "rosa.müller53@example.com", 3, "795.43"],
    [43, "Wen Smith", "wen.smith43@example.com", 1, "774.49"],
    [19, "Jonas O'Brien", "jonas.obrien19@example.com", 1, "755.92"],
    [9, "Priya Chen", "priya.chen9@example.com", 2, "655.47"],
    [26, "Quinn Haddad", "quinn.haddad26@example.com", 3, "639.96"],
    [4, "Rosa Rossi", "rosa.rossi4@example.com", 1, "630.47"],
    [13, "Lena Kowalski", "lena.kowalski13@example.com", 1, "612.96"],
    [46, "Lena O'Brien", "lena.obrien46@example.com", 1, "557.97"],
    [22, "Bram Kowalski", "bram.kowalski22@example.com", 2, "553.93"],
    [23, "Smith, Priya", "priya.smith23@example.com", 2, "544.46"],
    [45, "Oskar Haddad", "oskar.haddad45@example.com", 2, "523.47"],
    [42, "Gus Smith", "gus.smith42@example.com", 1, "452.49"],
    [11, "Gus Silva", "gus.silva11@example.com", 2, "443.49"],
    [34, "Chloé Kowalski", "chloé.kowalski34@example.com", 2, "428.44"],
    [31, "Emeka Chen", "emeka.chen31@example.com", 2, "305.98"],
    [35, "Lena García", "lena.garcía35@example.com", 2, "300.98"],
    [8, "Sven Okafor", "sven.okafor8@example.com", 1, "278.96"],
    [25, "Viktor Jensen", "viktor.jensen25@example.com", 1, "264.50"],
    [54, "Gus Müller", "gus.müller54@example.com", 1, "263.47"],
    [39, "Zoe Ivanova", "zoe.ivanova39@example.com", 2, "222.50"],
    [55, "Ines Müller", "ines.müller55@example.com", 1, "129.99"],
    [7, "Nakamura, Rosa", "rosa.nakamura7@example.com", 2, "123.45"],
    [18, "Chloé O'Brien", "chloé.obrien18@example.com", 1, "110.98"],
    [38, "Ximena Nakamura", "ximena.nakamura38@example.com", 1, "82.49"],
    [41, "Silva, Emeka", "emeka.silva41@example.com", 2, "61.49"],
    [61, "Noor Haddad", "noor.haddad@example.com", 1, "58.99"],
    [62, "Aiden Clarke", "aiden.clarke@example.com", 1, "58.99"],
    [33, "Sam \"The Hammer\" Jensen", "ana.obrien33@example.com", 1, "37.50"],
    [1, "Quinn Ivanova", "quinn.ivanova1@example.com", 1, "20.00"],
    [63, "Promo Tester", "promo@example.com", 1, "0.00"],
]

def main():
    try:
        text = open("/app/customer_totals.csv", "rb").read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print("FAIL: cannot read /app/customer_totals.csv as UTF-8:", e)
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
    if got != want:
        print("FAIL: rows differ (%d expected, %d found)" % (len(want), len(got)))
        for i in range(max(len(got), len(want))):
            g = got[i] if i < len(got) else None
            w = want[i] if i < len(want) else None
            if g != w:
                print("  row %d: expected %r, got %r" % (i + 1, w, g))
        return 1
    print("PASS")
    return 0

if __name__ == "__main__":
    sys.exit(main())
