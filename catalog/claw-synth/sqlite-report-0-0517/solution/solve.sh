#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/out/all_destination_countries.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/var/app.sqlite?mode=ro", uri=True)
args = {"tf": 'fedex', "d1": '2024-02-14', "d2": '2024-05-20', "since": None}
rows = db.execute("""
    SELECT d.name, d.tier, COUNT(f."shipment_id"), COALESCE(SUM(f."transit_days"), 0)
    FROM "destination_countries" d
    LEFT JOIN "shipments" f ON f."destination_country_id" = d.id AND LOWER(TRIM(f."carrier")) = :tf AND f."ship_date" BETWEEN :d1 AND :d2
    GROUP BY d.id
    ORDER BY d.name
""", args).fetchall()
with open("/app/out/all_destination_countries.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['destination_country', 'tier', 'rows', 'total_transit_days'])
    for name, tier, count, total in rows:
        w.writerow([name, tier, count, f"{total:.2f}"])
db.close()
PY
