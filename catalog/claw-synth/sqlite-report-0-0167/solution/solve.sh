#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/out/all_merchant_categories.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/data/warehouse.db?mode=ro", uri=True)
args = {"tf": 'reversed', "d1": '2024-05-01', "d2": '2024-06-26', "since": None}
rows = db.execute("""
    SELECT d.name, d.tier, COUNT(f."txn_id"), COALESCE(SUM(f."amount"), 0)
    FROM "merchant_categories" d
    LEFT JOIN "card_transactions" f ON f."merchant_category_id" = d.id AND LOWER(TRIM(f."status")) = :tf AND f."txn_date" BETWEEN :d1 AND :d2
    GROUP BY d.id
    ORDER BY d.name
""", args).fetchall()
with open("/app/out/all_merchant_categories.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['merchant_category', 'tier', 'rows', 'total_amount'])
    for name, tier, count, total in rows:
        w.writerow([name, tier, count, f"{total:.2f}"])
db.close()
PY
