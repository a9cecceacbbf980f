#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("/app/db/reporting.db")
db.execute('UPDATE "inventory" SET "warehouse" = LOWER(TRIM("warehouse")) WHERE "warehouse" IS NOT NULL')
db.execute('CREATE TABLE "category_summary" ("category_id" INTEGER, "name" TEXT, "rows" INTEGER, "total_reorder_level" REAL)')
db.execute("""
    INSERT INTO "category_summary"
    SELECT d.id, d.name, COUNT(f."sku"), COALESCE(SUM(f."reorder_level"), 0)
    FROM "categories" d LEFT JOIN "inventory" f ON f."category_id" = d.id
    GROUP BY d.id
    ORDER BY d.id
""")
db.commit()
db.close()
PY
