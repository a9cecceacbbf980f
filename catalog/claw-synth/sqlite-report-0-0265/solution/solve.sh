#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/out/coverage.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/data/app.sqlite?mode=ro", uri=True)
args = {"tf": 'hub', "d1": '2024-01-06', "d2": '2024-04-13', "since": None}
rows = db.execute("""
    SELECT d.name, d.tier, COUNT(f."order_id"), COALESCE(SUM(f."quantity"), 0)
    FROM "channels" d
    LEFT JOIN "sales_orders" f ON f."channel_id" = d.id AND LOWER(TRIM(f."product")) = :tf AND f."order_date" BETWEEN :d1 AND :d2
    GROUP BY d.id
    ORDER BY d.name
""", args).fetchall()
with open("/app/out/coverage.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['channel', 'tier', 'rows', 'total_quantity'])
    for name, tier, count, total in rows:
        w.writerow([name, tier, count, f"{total:.2f}"])
db.close()
PY
