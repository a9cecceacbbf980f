#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("/app/data/app.db")
db.execute('CREATE INDEX "idx_card_transactions_status_id" ON "card_transactions" ("status_id")')
src = db.execute('SELECT id FROM "statuses" WHERE name = ?', ('declined',)).fetchone()[0]
dst = db.execute('SELECT id FROM "statuses" WHERE name = ?', ('reversed',)).fetchone()[0]
db.execute('UPDATE "card_transactions" SET "status_id" = ? WHERE "status_id" = ?', (dst, src))
db.execute('DELETE FROM "statuses" WHERE id = ?', (src,))
db.execute('UPDATE "card_transactions" SET "merchant" = LOWER(TRIM("merchant")) WHERE "merchant" IS NOT NULL')
db.commit()
db.close()
PY
