#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/exports/sales_orders_by_tier.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/db/reporting.db?mode=ro", uri=True)
args = {"tf": None, "d1": '2024-02-05', "d2": '2024-05-29', "since": None}
rows = db.execute("""
    SELECT d.tier, COUNT(*), SUM(f."quantity"), AVG(f."quantity")
    FROM "sales_orders" f JOIN "regions" d ON d.id = f."region_id"
    WHERE f."quantity" IS NOT NULL AND f."order_date" BETWEEN :d1 AND :d2
    GROUP BY d.tier
    ORDER BY SUM(f."quantity") DESC, d.tier ASC
""", args).fetchall()
with open("/app/exports/sales_orders_by_tier.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['tier', 'rows', 'total_quantity', 'avg_quantity'])
    for row in rows:
        tier, count, total, avg = row
        line = [tier, count, f"{total:.2f}"]
        line.append(f"{avg:.2f}")
        w.writerow(line)
db.close()
PY
