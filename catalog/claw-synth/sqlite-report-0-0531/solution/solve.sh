#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/monthly.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/store.sqlite3?mode=ro", uri=True)
args = {"tf": None, "d1": None, "d2": None, "since": None}
rows = db.execute("""
    SELECT substr(f."ship_date", 1, 7) AS month, COUNT(*), SUM(f."transit_days")
    FROM "shipments" f JOIN "origin_hubs" d ON d.id = f."origin_hub_id"
    WHERE d.name = ? AND f."ship_date" IS NOT NULL AND f."transit_days" IS NOT NULL
    GROUP BY month
    ORDER BY month
""", ('MAD',)).fetchall()
with open("/app/monthly.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['month', 'rows', 'total_transit_days'])
    for month, count, total in rows:
        w.writerow([month, count, f"{total:.2f}"])
db.close()
PY
