#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/reports/gold_monthly.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/data/reporting.sqlite3?mode=ro", uri=True)
args = {"tf": None, "d1": None, "d2": None, "since": None}
rows = db.execute("""
    SELECT substr(f."opened_on", 1, 7) AS month, COUNT(*), SUM(f."csat")
    FROM "support_tickets" f JOIN "statuses" d ON d.id = f."status_id"
    WHERE d.tier = ? AND f."opened_on" IS NOT NULL AND f."csat" IS NOT NULL
    GROUP BY month
    ORDER BY month
""", ('gold',)).fetchall()
with open("/app/reports/gold_monthly.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['month', 'rows', 'total_csat'])
    for month, count, total in rows:
        w.writerow([month, count, f"{total:.2f}"])
db.close()
PY
