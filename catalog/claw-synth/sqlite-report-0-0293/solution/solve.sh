#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/out/top.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/db/store.db?mode=ro", uri=True)
args = {"tf": 'warehouse', "d1": None, "d2": None, "since": None}
rows = db.execute("""
    SELECT f."reading_id", f."reading_date", d.name, f."humidity_pct"
    FROM "sensor_readings" f JOIN "sensor_ids" d ON d.id = f."sensor_id_id"
    WHERE f."humidity_pct" IS NOT NULL AND LOWER(TRIM(f."site")) = :tf
    ORDER BY f."humidity_pct" DESC, f."reading_id" ASC
    LIMIT 5
""", args).fetchall()
with open("/app/out/top.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['reading_id', 'reading_date', 'sensor_id', 'humidity_pct'])
    for *head, value in rows:
        w.writerow(head + [f"{value:.2f}"])
db.close()
PY
