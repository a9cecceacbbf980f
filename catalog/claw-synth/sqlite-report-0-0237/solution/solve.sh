#!/bin/bash
# Reference solution: SQL through Python's sqlite3 module.
set -euo pipefail
python3 - <<'PY'
import csv
import sqlite3

db = sqlite3.connect("/app/db/store.sqlite")
src = db.execute('SELECT id FROM "sites" WHERE name = ?', ('greenhouse-b',)).fetchone()[0]
dst = db.execute('SELECT id FROM "sites" WHERE name = ?', ('office',)).fetchone()[0]
db.execute('UPDATE "sensor_readings" SET "site_id" = ? WHERE "site_id" = ?', (dst, src))
db.execute('DELETE FROM "sites" WHERE id = ?', (src,))
db.execute('CREATE INDEX "idx_sensor_readings_temperature_c" ON "sensor_readings" ("temperature_c")')
db.execute('DELETE FROM "sensor_readings" WHERE "temperature_c" IS NULL')
db.execute('ALTER TABLE "sensor_readings" ADD COLUMN "high_temperature_c" INTEGER')
db.execute('UPDATE "sensor_readings" SET "high_temperature_c" = CASE WHEN "temperature_c" >= 20.8 THEN 1 ELSE 0 END')
db.commit()
db.close()
PY
