#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/tier_totals.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/db/store.sqlite?mode=ro", uri=True)
args = {"tf": None, "d1": '2024-02-12', "d2": '2024-03-15', "since": None}
rows = db.execute("""
    SELECT d.tier, COUNT(*), SUM(f."amount"), AVG(f."amount")
    FROM "expense_claims" f JOIN "categories" d ON d.id = f."category_id"
    WHERE f."amount" IS NOT NULL AND f."submitted_on" BETWEEN :d1 AND :d2
    GROUP BY d.tier
    ORDER BY SUM(f."amount") DESC, d.tier ASC
""", args).fetchall()
with open("/app/tier_totals.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['tier', 'rows', 'total_amount', 'avg_amount'])
    for row in rows:
        tier, count, total, avg = row
        line = [tier, count, f"{total:.2f}"]
        line.append(f"{avg:.2f}")
        w.writerow(line)
db.close()
PY
