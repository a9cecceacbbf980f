#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/exports/employees_per_month.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/db/store.db?mode=ro", uri=True)
args = {"tf": None, "d1": None, "d2": None, "since": None}
rows = db.execute("""
    SELECT substr(f."hire_date", 1, 7) AS month, COUNT(*), SUM(f."salary")
    FROM "employees" f JOIN "offices" d ON d.id = f."office_id"
    WHERE d.tier = ? AND f."hire_date" IS NOT NULL AND f."salary" IS NOT NULL
    GROUP BY month
    ORDER BY month
""", ('silver',)).fetchall()
with open("/app/exports/employees_per_month.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['month', 'rows', 'total_salary'])
    for month, count, total in rows:
        w.writerow([month, count, f"{total:.2f}"])
db.close()
PY
