#!/usr/bin/env python3
"""Checks the shop's database: exactly one new order, of two 10" cast iron skillets, for Jordan Lee at
7 Mill Lane, Leeds LS2 9JT, shipped express; the cart is empty again."""
import sqlite3
import sys

SEEDED_ORDERS = 6
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
orders = db.execute(
    "SELECT id, customer_name, address, shipping_method FROM orders WHERE id > ? ORDER BY id", (SEEDED_ORDERS,)
).fetchall()
problems = []
if len(orders) != 1:
    problems.append(f"expected one new order, found {len(orders)}")
else:
    oid, name, address, shipping = orders[0]
    if name.strip() != "Jordan Lee":
        problems.append(f"customer name is {name!r}")
    if " ".join(address.split()).rstrip(".") != "7 Mill Lane, Leeds LS2 9JT":
        problems.append(f"address is {address!r}")
    if shipping != "express":
        problems.append(f"shipping is {shipping!r}")
    items = db.execute(
        "SELECT p.sku, i.quantity FROM order_items i JOIN products p ON p.id = i.product_id WHERE i.order_id = ?",
        (oid,),
    ).fetchall()
    if items != [("KT-1002", 2)]:
        problems.append(f"order items are {items}")
if db.execute("SELECT COUNT(*) FROM cart_items").fetchone()[0] != 0:
    problems.append("the cart is not empty")
if db.execute("SELECT COUNT(*) FROM orders WHERE id <= ?", (SEEDED_ORDERS,)).fetchone()[0] != SEEDED_ORDERS:
    problems.append("seeded orders were changed")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
