#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/out/monthly.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/data/store.sqlite3?mode=ro", uri=True)
args = {"tf": None, "d1": None, "d2": None, "since": None}
rows = db.execute("""
    SELECT substr(f."reading_date", 1, 7) AS month, COUNT(*), SUM(f."temperature_c")
    FROM "sensor_readings" f JOIN "sensor_ids" d ON d.id = f."sensor_id_id"
    WHERE d.tier = ? AND f."reading_date" IS NOT NULL AND f."temperature_c" IS NOT NULL
    GROUP BY month
    ORDER BY month
""", ('gold',)).fetchall()
with open("/app/out/monthly.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['month', 'rows', 'total_temperature_c'])
    for month, count, total in rows:
        w.writerow([month, count, f"{total:.2f}"])
db.close()
PY
