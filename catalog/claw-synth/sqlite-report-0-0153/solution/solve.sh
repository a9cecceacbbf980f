#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/exports/largest_quantity.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/store.sqlite?mode=ro", uri=True)
args = {"tf": 'retail', "d1": None, "d2": None, "since": '2024-03-31'}
rows = db.execute("""
    SELECT f."order_id", f."order_date", d.name, f."quantity"
    FROM "sales_orders" f JOIN "products" d ON d.id = f."product_id"
    WHERE f."quantity" IS NOT NULL AND LOWER(TRIM(f."channel")) = :tf AND f."order_date" >= :since
    ORDER BY f."quantity" DESC, f."order_id" ASC
    LIMIT 11
""", args).fetchall()
with open("/app/exports/largest_quantity.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['order_id', 'order_date', 'product', 'quantity'])
    for *head, value in rows:
        w.writerow(head + [value])
db.close()
PY
