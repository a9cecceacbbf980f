#!/usr/bin/env python3
"""Build-time helper: create the shop database with deterministic pseudo-random data."""
import random, sqlite3, sys

path = sys.argv[1] if len(sys.argv) > 1 else "/app/shop.db"
rng = random.Random(424242)
db = sqlite3.connect(path)
db.executescript("""
CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    country TEXT,
    created_at TEXT NOT NULL
);
CREATE TABLE orders (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    status TEXT NOT NULL,
    ordered_at TEXT NOT NULL,          -- UTC, 'YYYY-MM-DD HH:MM:SS'
    discount_cents INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE order_items (
    id INTEGER PRIMARY KEY,
    order_id INTEGER NOT NULL REFERENCES orders(id),
    sku TEXT NOT NULL,
    quantity INTEGER NOT NULL,
    unit_price_cents INTEGER NOT NULL
);
""")
first = ["Ana", "Bram", "Chloé", "Dmitri", "Emeka", "Fatima", "Gus", "Hana", "Ines", "Jonas", "Kofi",
         "Lena", "Mateo", "Nora", "Oskar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma", "Viktor",
         "Wen", "Ximena", "Yusuf", "Zoe"]
last = ["García", "de Vries", "Okafor", "Ivanova", "Smith", "O'Brien", "Nakamura", "Rossi", "Kowalski",
        "Haddad", "Jensen", "Müller", "Silva", "Chen"]
countries = ["DE", "NL", "US", "GB", "FR", "JP", "BR", None]
customers = []
for cid in range(1, 61):
    fn, ln = rng.choice(first), rng.choice(last)
    name = "%s %s" % (fn, ln)
    if cid in (7, 23, 41):
        name = "%s, %s" % (ln, fn)          # some names were imported as "Last, First"
    if cid == 33:
        name = 'Sam "The Hammer" Jensen'
    email = "%s.%s%d@example.com" % (fn.lower(), ln.lower().replace(" ", "").replace("'", ""), cid)
    if cid % 9 == 0:
        email = email.upper()
    if cid % 13 == 0:
        email = "  " + email + " "
    customers.append((cid, name, email, rng.choice(countries),
                      "2023-%02d-%02d 10:00:00" % (rng.randint(1, 12), rng.randint(1, 28))))
db.executemany("INSERT INTO customers VALUES (?,?,?,?,?)", customers)

statuses = ["completed"] * 6 + ["Completed", "COMPLETED", "completed ", "pending", "cancelled",
                                 "refunded", "shipped", "Cancelled"]
skus = {"SKU-%03d" % i: rng.choice([199, 450, 999, 1250, 1999, 2450, 4999, 8900, 12999]) for i in range(1, 41)}
oid, iid = 1000, 1
for cid in range(1, 61):
    if cid in (5, 17, 52):
        continue                              # customers without any orders
    for _ in range(rng.randint(1, 8)):
        oid += 1
        year = rng.choice([2023, 2024, 2024, 2024, 2025])
        ts = "%d-%02d-%02d %02d:%02d:%02d" % (year, rng.randint(1, 12), rng.randint(1, 28),
                                              rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))
        if rng.random() < 0.04:
            ts = rng.choice(["2023-12-31 23:59:59", "2024-01-01 00:00:00", "2024-12-31 23:59:59",
                             "2025-01-01 00:00:00"])
        discount = rng.choice([0, 0, 0, 0, 500, 1000, 250])
        db.execute("INSERT INTO orders VALUES (?,?,?,?,?)", (oid, cid, rng.choice(statuses), ts, discount))
        n_items = 0 if rng.random() < 0.05 else rng.randint(1, 5)
        for _ in range(n_items):
            sku = rng.choice(sorted(skus))
            db.execute("INSERT INTO order_items VALUES (?,?,?,?,?)",
                       (iid, oid, sku, rng.randint(1, 4), skus[sku]))
            iid += 1
# a few hand-written accounts
db.executemany("INSERT INTO customers VALUES (?,?,?,?,?)", [
    (61, "Noor Haddad", "Noor.Haddad@Example.com", "NL", "2023-05-05 09:00:00"),
    (62, "Aiden Clarke", "aiden.clarke@example.com", "GB", "2023-05-06 09:00:00"),
    (63, "Promo Tester", "promo@example.com", "US", "2023-05-07 09:00:00"),
])
for cid, oid2, status, ts, disc in [
        (61, 2001, "completed", "2024-06-01 12:00:00", 0),
        (62, 2002, "Completed", "2024-06-02 12:00:00", 0),
        (33, 2003, "completed", "2024-03-03 08:15:00", 0),
        (33, 2004, "refunded", "2024-03-04 08:15:00", 0),
        (63, 2005, "completed", "2024-11-11 11:11:11", 1000)]:
    db.execute("INSERT INTO orders VALUES (?,?,?,?,?)", (oid2, cid, status, ts, disc))
for oid2, sku, qty, price in [(2001, "SKU-007", 2, 2450), (2001, "SKU-012", 1, 999),
                              (2002, "SKU-012", 1, 999), (2002, "SKU-007", 2, 2450),
                              (2003, "SKU-001", 3, 1250), (2004, "SKU-002", 1, 8900),
                              (2005, "SKU-003", 1, 450)]:
    db.execute("INSERT INTO order_items VALUES (?,?,?,?,?)", (iid, oid2, sku, qty, price))
    iid += 1
db.commit()
db.close()
