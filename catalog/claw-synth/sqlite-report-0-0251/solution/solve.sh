#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/shipments_by_tier.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/var/reporting.sqlite?mode=ro", uri=True)
args = {"tf": 'se', "d1": None, "d2": None, "since": None}
rows = db.execute("""
    SELECT d.tier, COUNT(*), SUM(f."transit_days"), AVG(f."transit_days")
    FROM "shipments" f JOIN "carriers" d ON d.id = f."carrier_id"
    WHERE f."transit_days" IS NOT NULL AND LOWER(TRIM(f."destination_country")) = :tf
    GROUP BY d.tier
    ORDER BY SUM(f."transit_days") DESC, d.tier ASC
""", args).fetchall()
with open("/app/shipments_by_tier.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['tier', 'rows', 'total_transit_days', 'avg_transit_days'])
    for row in rows:
        tier, count, total, avg = row
        line = [tier, count, f"{total:.2f}"]
        line.append(f"{avg:.2f}")
        w.writerow(line)
db.close()
PY
