#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("/app/data/warehouse.sqlite")
src = db.execute('SELECT id FROM "departments" WHERE name = ?', ('Finance',)).fetchone()[0]
dst = db.execute('SELECT id FROM "departments" WHERE name = ?', ('Operations',)).fetchone()[0]
db.execute('UPDATE "employees" SET "department_id" = ? WHERE "department_id" = ?', (dst, src))
db.execute('DELETE FROM "departments" WHERE id = ?', (src,))
db.execute('CREATE INDEX "idx_employees_office" ON "employees" ("office")')
db.execute('ALTER TABLE "employees" ADD COLUMN "high_performance_score" INTEGER')
db.execute('UPDATE "employees" SET "high_performance_score" = CASE WHEN "performance_score" >= 3.9 THEN 1 ELSE 0 END')
db.execute('CREATE TABLE "department_summary" ("department_id" INTEGER, "name" TEXT, "rows" INTEGER, "total_performance_score" REAL)')
db.execute("""
    INSERT INTO "department_summary"
    SELECT d.id, d.name, COUNT(f."employee_id"), COALESCE(SUM(f."performance_score"), 0)
    FROM "departments" d LEFT JOIN "employees" f ON f."department_id" = d.id
    GROUP BY d.id
    ORDER BY d.id
""")
db.commit()
db.close()
PY
