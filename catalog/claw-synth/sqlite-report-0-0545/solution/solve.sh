#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/product_totals.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/var/sales_orders.sqlite3?mode=ro", uri=True)
args = {"tf": 'online', "d1": '2024-01-10', "d2": '2024-05-31', "since": None}
rows = db.execute("""
    SELECT d.name, MAX(d.manager), COUNT(*), SUM(f."unit_price"), AVG(f."unit_price")
    FROM "sales_orders" f JOIN "products" d ON d.id = f."product_id"
    WHERE f."unit_price" IS NOT NULL AND LOWER(TRIM(f."channel")) = :tf AND f."order_date" BETWEEN :d1 AND :d2
    GROUP BY d.name
    ORDER BY SUM(f."unit_price") DESC, d.name ASC
""", args).fetchall()
with open("/app/product_totals.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['product', 'manager', 'rows', 'total_unit_price', 'avg_unit_price'])
    for row in rows:
        name, manager, count, total, avg = row
        line = [name, manager, count, f"{total:.2f}"]
        line.append(f"{avg:.2f}")
        w.writerow(line)
db.close()
PY
