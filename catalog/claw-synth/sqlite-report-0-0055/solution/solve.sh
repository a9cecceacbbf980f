#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("/app/db/card_transactions.sqlite3")
db.execute('CREATE INDEX "idx_card_transactions_status" ON "card_transactions" ("status")')
db.execute('CREATE TABLE "merchant_category_summary" ("merchant_category_id" INTEGER, "name" TEXT, "rows" INTEGER, "total_amount" REAL)')
db.execute("""
    INSERT INTO "merchant_category_summary"
    SELECT d.id, d.name, COUNT(f."txn_id"), COALESCE(SUM(f."amount"), 0)
    FROM "merchant_categories" d LEFT JOIN "card_transactions" f ON f."merchant_category_id" = d.id
    GROUP BY d.id
    ORDER BY d.id
""")
db.commit()
db.close()
PY
