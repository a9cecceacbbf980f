#!/bin/bash
# Reference solution: field-level merge ordered by real instant, then file name, then position.
set -euo pipefail
python3 - <<'PY'
import glob, json, os
from datetime import datetime, timezone

entries = []
for path in sorted(glob.glob("/app/sources/*.json")):
    source = os.path.basename(path)[: -len(".json")]
    with open(path, encoding="utf-8") as fh:
        for pos, rec in enumerate(json.load(fh)):
            instant = datetime.fromisoformat(rec["updated_at"].replace("Z", "+00:00")).astimezone(timezone.utc)
            entries.append((instant, source, pos, rec))

merged = {}
for instant, source, pos, rec in sorted(entries, key=lambda e: (e[0], e[1], e[2])):
    out = merged.setdefault(rec["id"], {"id": rec["id"], "sources": set()})
    out["sources"].add(source)
    for key, value in rec.items():
        if key in ("id", "updated_at") or value is None:
            continue
        out[key] = value
    out["updated_at"] = instant.strftime("%Y-%m-%dT%H:%M:%SZ")

result = []
for uid in sorted(merged):
    rec = merged[uid]
    if "email" in rec:
        rec["email"] = rec["email"].strip().lower()
    rec["sources"] = sorted(rec["sources"])
    result.append(rec)
with open("/app/merged_users.json", "w", encoding="utf-8") as fh:
    json.dump(result, fh, indent=2, ensure_ascii=False)
    fh.write("\n")
PY
