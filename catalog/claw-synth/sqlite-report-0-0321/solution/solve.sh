#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("/app/app.sqlite")
db.execute('ALTER TABLE "employees" ADD COLUMN "flagged" INTEGER')
db.execute('UPDATE "employees" SET "flagged" = CASE WHEN "performance_score" >= 2.9 THEN 1 ELSE 0 END')
db.execute('DELETE FROM "employees" WHERE "performance_score" IS NULL')
db.execute('CREATE INDEX "idx_employees_hire_date" ON "employees" ("hire_date")')
db.commit()
db.close()
PY
