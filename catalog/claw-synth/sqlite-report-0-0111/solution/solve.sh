#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/reports/totals.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/data/warehouse.db?mode=ro", uri=True)
args = {"tf": 'low', "d1": '2024-05-10', "d2": '2024-06-14', "since": None}
rows = db.execute("""
    SELECT d.tier, COUNT(*), SUM(f."csat"), AVG(f."csat")
    FROM "support_tickets" f JOIN "teams" d ON d.id = f."team_id"
    WHERE f."csat" IS NOT NULL AND LOWER(TRIM(f."priority")) = :tf AND f."opened_on" BETWEEN :d1 AND :d2
    GROUP BY d.tier
    ORDER BY SUM(f."csat") DESC, d.tier ASC
""", args).fetchall()
with open("/app/reports/totals.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['tier', 'rows', 'total_csat'])
    for row in rows:
        tier, count, total, avg = row
        line = [tier, count, f"{total:.2f}"]
        w.writerow(line)
db.close()
PY
