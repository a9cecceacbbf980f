#!/usr/bin/env python3
"""Checks the shop's database: exactly one new order, for Priya Kapoor at 3 Canal Wharf, Leeds LS11 5PS,
picked up in store, holding 3 headlamps (the cart had 1) and the 2 gel pen packs that were already in the
cart, without the wool throw blanket (removed); stock went down by what was bought; the cart is empty."""

import re
import sqlite3
import sys

SEEDED_ORDERS = 6
db = sqlite3.connect("file:/var/lib/forge-web/site.db?mode=ro", uri=True)
problems = []


def loose(text: str) -> str:
    """Case, commas, line breaks and runs of spaces do not matter in a name or address."""
    return re.sub(r"[\s,]+", " ", text).strip().rstrip(".").casefold()


orders = db.execute(
    "SELECT id, customer_name, address, shipping_method, shipping_cents, total_cents FROM orders"
    " WHERE id > ? ORDER BY id",
    (SEEDED_ORDERS,),
).fetchall()
if len(orders) != 1:
    problems.append(f"expected one new order, found {len(orders)}")
else:
    oid, name, address, shipping, ship_cents, total = orders[0]
    if loose(name) != "priya kapoor":
        problems.append(f"customer name is {name!r}")
    if loose(address) != loose("3 Canal Wharf, Leeds LS11 5PS"):
        problems.append(f"address is {address!r}")
    if shipping != "pickup" or ship_cents != 0:
        problems.append(f"shipping is {shipping!r} ({ship_cents} cents)")
    items = db.execute(
        "SELECT p.sku, i.quantity FROM order_items i JOIN products p ON p.id = i.product_id"
        " WHERE i.order_id = ? ORDER BY p.sku",
        (oid,),
    ).fetchall()
    if items != [("OD-3004", 3), ("OF-4004", 2)]:
        problems.append(f"order items are {items}")
    elif total != 3 * 1899 + 2 * 899:
        problems.append(f"order total is {total} cents")
stock = dict(db.execute("SELECT sku, stock FROM products WHERE sku IN ('OD-3004', 'OF-4004', 'HM-6003')"))
if stock != {"OD-3004": 30, "OF-4004": 118, "HM-6003": 10}:
    problems.append(f"stock is {stock}")
if db.execute("SELECT COUNT(*) FROM cart_items").fetchone()[0] != 0:
    problems.append("the cart is not empty")
seeded = db.execute(
    "SELECT (SELECT COUNT(*) FROM orders WHERE id <= ?),"
    " (SELECT COUNT(*) FROM order_items WHERE order_id <= ?)",
    (SEEDED_ORDERS, SEEDED_ORDERS),
).fetchone()
if seeded != (SEEDED_ORDERS, 12):
    problems.append("seeded orders were changed")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
