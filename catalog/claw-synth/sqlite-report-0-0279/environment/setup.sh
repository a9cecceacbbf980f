#!/bin/bash
# Build-time only: create the database from the JSON seed, then remove the seed.
set -euo pipefail
mkdir -p "$(dirname /app/data/reporting.sqlite3)"
python3 - <<'PY'
import json
import sqlite3

with open("/app/_seed/seed.json", encoding="utf-8") as fh:
    seed = json.load(fh)
db = sqlite3.connect('/app/data/reporting.sqlite3')
for statement in seed["ddl"]:
    db.execute(statement)
for table, rows in seed["tables"]:
    if rows:
        marks = ", ".join("?" * len(rows[0]))
        db.executemany(f'INSERT INTO "{table}" VALUES ({marks})', rows)
db.commit()
db.close()
PY
rm -rf /app/_seed
