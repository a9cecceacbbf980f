#!/bin/bash
# Reference solution: page through the item list, fetch stock per item, write the CSV.
set -euo pipefail
BASE=http://127.0.0.1:8080
TOKEN=$(tr -d '[:space:]' < /app/api_token.txt)
# wait for the service to come up
curl -fsS --retry 30 --retry-connrefused --retry-delay 1 "$BASE/api/v1" > /dev/null
python3 - "$BASE" "$TOKEN" <<'PY'
import csv, json, sys, urllib.request
base, token = sys.argv[1], sys.argv[2]

def get(path):
    req = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)

rows, page = [], 1
while page is not None:
    resp = get("/api/v1/items?page=%d&per_page=50" % page)
    for it in resp["data"]:
        if it["discontinued"]:
            continue
        detail = get("/api/v1/items/" + it["sku"])["data"]
        on_hand = sum(s["qty"] for s in detail["stock"])
        if on_hand < it["reorder_point"]:
            rows.append([it["sku"], it["name"], on_hand, it["reorder_point"], it["reorder_point"] - on_hand])
    page = resp["pagination"]["next_page"]
rows.sort(key=lambda r: (-r[4], r[0]))
with open("/app/low_stock.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["sku", "name", "on_hand", "reorder_point", "shortfall"])
    w.writerows(rows)
PY
