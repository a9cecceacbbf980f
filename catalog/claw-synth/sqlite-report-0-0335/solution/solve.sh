#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/out/departments_activity.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/data/store.db?mode=ro", uri=True)
args = {"tf": 'contractor', "d1": '2016-06-17', "d2": '2020-12-25', "since": None}
rows = db.execute("""
    SELECT d.name, d.tier, COUNT(f."employee_id"), COALESCE(SUM(f."performance_score"), 0)
    FROM "departments" d
    LEFT JOIN "employees" f ON f."department_id" = d.id AND LOWER(TRIM(f."contract")) = :tf AND f."hire_date" BETWEEN :d1 AND :d2
    GROUP BY d.id
    ORDER BY d.name
""", args).fetchall()
with open("/app/out/departments_activity.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['department', 'tier', 'rows', 'total_performance_score'])
    for name, tier, count, total in rows:
        w.writerow([name, tier, count, f"{total:.2f}"])
db.close()
PY
