#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
mkdir -p "$(dirname /app/exports/top.csv)"
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("file:/app/data/support_tickets.sqlite3?mode=ro", uri=True)
args = {"tf": 'pending', "d1": None, "d2": None, "since": '2024-05-04'}
rows = db.execute("""
    SELECT f."ticket_id", f."opened_on", d.name, f."csat"
    FROM "support_tickets" f JOIN "channels" d ON d.id = f."channel_id"
    WHERE f."csat" IS NOT NULL AND LOWER(TRIM(f."status")) = :tf AND f."opened_on" >= :since
    ORDER BY f."csat" DESC, f."ticket_id" ASC
    LIMIT 7
""", args).fetchall()
with open("/app/exports/top.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(['ticket_id', 'opened_on', 'channel', 'csat'])
    for *head, value in rows:
        w.writerow(head + [value])
db.close()
PY
