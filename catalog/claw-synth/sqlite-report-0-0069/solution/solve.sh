#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/reports/silver_monthly.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/reporting.sqlite3?mode=ro", uri=True)
args = {"tf": None, "d1": None, "d2": None, "since": None}
rows = db.execute("""
    SELECT substr(f."last_counted", 1, 7) AS month, COUNT(*), SUM(f."reorder_level")
    FROM "inventory" f JOIN "suppliers" d ON d.id = f."supplier_id"
    WHERE d.tier = ? AND f."last_counted" IS NOT NULL AND f."reorder_level" IS NOT NULL
    GROUP BY month
    ORDER BY month
""", ('silver',)).fetchall()
with open("/app/reports/silver_monthly.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['month', 'rows', 'total_reorder_level'])
    for month, count, total in rows:
        w.writerow([month, count, f"{total:.2f}"])
db.close()
PY
