#!/bin/bash
# Reference solution: a small API client (auth, pagination, detail calls) and the task's logic.
set -euo pipefail
curl -fsS --retry 30 --retry-connrefused --retry-delay 1 http://127.0.0.1:7070/health > /dev/null
mkdir -p /app/out
python3 - <<'PY'
import csv
import json
import urllib.request

BASE = 'http://127.0.0.1:7070/api/v1'
RES = 'devices'
AUTH = 'login'
CRED = '/app/credentials.json'


def call(method, path, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers or {})
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.load(resp)


if AUTH == "login":
    creds = json.load(open(CRED))
    HEADERS = {"Authorization": "Bearer " + call("POST", "/login", creds)["token"]}
elif AUTH == "apikey":
    HEADERS = {"X-API-Key": open(CRED).read().strip()}
else:
    HEADERS = {"Authorization": "Bearer " + open(CRED).read().strip()}


def fetch_all():
    out = []
    cursor = ""
    while True:
        resp = call("GET", f"/{RES}?limit=25" + (f"&cursor={cursor}" if cursor else ""), headers=HEADERS)
        out += resp["results"]
        cursor = resp["next_cursor"]
        if not cursor:
            break
    return out


def detail(rid):
    return call("GET", f"/{RES}/{rid}", headers=HEADERS)["data"]


def patch(rid, body):
    return call("PATCH", f"/{RES}/{rid}", body, headers=HEADERS)


def post(body):
    return call("POST", f"/{RES}", body, headers=HEADERS)


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=2, sort_keys=True)
        fh.write("\n")


def write_csv(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


# ---- the task
for dev in fetch_all():
    if dev["site"] == 'syd' and dev["status"] == "offline":
        patch(dev["id"], {"status": "maintenance", "owner_team": 'field-ops'})

PY
