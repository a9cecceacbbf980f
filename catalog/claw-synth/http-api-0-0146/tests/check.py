"""Verify the json task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'json'
STATE = '/app/.fleet/state.json'
SEED = json.loads('[{"firmware": "2.10.0", "hostname": "sgp-pos-31", "id": "D-201", "last_seen": "2024-05-04", "os": "debian-12", "owner_team": "lab", "site": "sgp", "status": "offline"}, {"firmware": "2.0.0", "hostname": "ams-db-29", "id": "D-202", "last_seen": "2024-05-12", "os": "alpine-3.19", "owner_team": "edge", "site": "ams", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-db-22", "id": "D-203", "last_seen": "2024-06-30", "os": "ubuntu-22.04", "owner_team": "retail", "site": "lon", "status": "offline"}, {"firmware": "2.10.0", "hostname": "ams-db-11", "id": "D-204", "last_seen": "2024-05-31", "os": "ubuntu-22.04", "owner_team": "retail", "site": "ams", "status": "online"}, {"firmware": "2.10.0", "hostname": "nyc-cache-04", "id": "D-205", "last_seen": "2024-06-07", "os": "ubuntu-22.04", "owner_team": "edge", "site": "nyc", "status": "online"}, {"firmware": "3.0.2", "hostname": "sgp-web-29", "id": "D-206", "last_seen": "2024-05-27", "os": "alpine-3.19", "owner_team": "retail", "site": "sgp", "status": "online"}, {"firmware": "1.9.4", "hostname": "ams-web-23", "id": "D-207", "last_seen": "2024-06-26", "os": "alpine-3.19", "owner_team": "core", "site": "ams", "status": "maintenance"}, {"firmware": "2.1.3", "hostname": "sgp-cache-38", "id": "D-208", "last_seen": "2024-06-29", "os": "alpine-3.19", "owner_team": "edge", "site": "sgp", "status": "online"}, {"firmware": "3.0.2", "hostname": "lon-db-12", "id": "D-209", "last_seen": "2024-05-01", "os": "alpine-3.19", "owner_team": "core", "site": "lon", "status": "online"}, {"firmware": "2.10.0", "hostname": "sgp-web-04", "id": "D-210", "last_seen": "2024-05-02", "os": "debian-12", "owner_team": "retail", "site": "sgp", "status": "online"}, {"firmware": "3.1.0", "hostname": "syd-kiosk-39", "id": "D-211", "last_seen": "2024-06-15", "os": "debian-12", "owner_team": "ops", "site": "syd", "status": "online"}, {"firmware": "2.4.1", "hostname": "fra-kiosk-18", "id": "D-212", "last_seen": "2024-05-23", "os": "alpine-3.19", "owner_team": "lab", "site": "fra", "status": "offline"}, {"firmware": "2.0.0", "hostname": "syd-cache-39", "id": "D-213", "last_seen": "2024-05-23", "os": "alpine-3.19", "owner_team": "retail", "site": "syd", "status": "online"}, {"firmware": "2.0.0", "hostname": "fra-web-27", "id": "D-214", "last_seen": "2024-06-05", "os": "debian-12", "owner_team": "core", "site": "fra", "status": "online"}, {"firmware": "3.0.2", "hostname": "lon-kiosk-15", "id": "D-215", "last_seen": "2024-06-26", "os": "alpine-3.19", "owner_team": "ops", "site": "lon", "status": "offline"}, {"firmware": "2.4.1", "hostname": "sgp-kiosk-28", "id": "D-216", "last_seen": "2024-05-20", "os": "debian-12", "owner_team": "retail", "site": "sgp", "status": "offline"}, {"firmware": "1.9.4", "hostname": "nyc-db-31", "id": "D-217", "last_seen": "2024-06-10", "os": "ubuntu-22.04", "owner_team": "edge", "site": "nyc", "status": "online"}, {"firmware": "3.0.2", "hostname": "sgp-kiosk-22", "id": "D-218", "last_seen": "2024-05-15", "os": "debian-12", "owner_team": "edge", "site": "sgp", "status": "maintenance"}, {"firmware": "3.1.0", "hostname": "nyc-cache-16", "id": "D-219", "last_seen": "2024-05-04", "os": "alpine-3.19", "owner_team": "core", "site": "nyc", "status": "online"}, {"firmware": "2.4.1", "hostname": "syd-web-29", "id": "D-220", "last_seen": "2024-06-02", "os": "alpine-3.19", "owner_team": "edge", "site": "syd", "status": "online"}, {"firmware": "1.9.4", "hostname": "sgp-kiosk-05", "id": "D-221", "last_seen": "2024-05-12", "os": "debian-12", "owner_team": "ops", "site": "sgp", "status": "online"}, {"firmware": "2.4.1", "hostname": "syd-web-01", "id": "D-222", "last_seen": "2024-05-15", "os": "debian-12", "owner_team": "ops", "site": "syd", "status": "online"}, {"firmware": "2.1.3", "hostname": "nyc-gw-37", "id": "D-223", "last_seen": "2024-06-09", "os": "ubuntu-22.04", "owner_team": "edge", "site": "nyc", "status": "online"}, {"firmware": "1.9.4", "hostname": "sgp-cache-17", "id": "D-224", "last_seen": "2024-05-21", "os": "ubuntu-22.04", "owner_team": "edge", "site": "sgp", "status": "offline"}]')
TASK = json.loads('{"expected": {"alpine-3.19": ["ams-db-29", "lon-db-12", "nyc-cache-16", "sgp-cache-38", "sgp-web-29", "syd-cache-39", "syd-web-29"], "debian-12": ["fra-web-27", "sgp-kiosk-05", "sgp-web-04", "syd-kiosk-39", "syd-web-01"], "ubuntu-22.04": ["ams-db-11", "nyc-cache-04", "nyc-db-31", "nyc-gw-37"]}, "path": "/app/report.json"}')


def fail(*lines):
    print("FAIL")
    for line in lines:
        print(" -", line)
    sys.exit(1)


def read(path):
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {path}: {exc}")


def main():
    if KIND == "json":
        text = read(TASK["path"])
        try:
            got = json.loads(text)
        except ValueError as exc:
            fail(f"{TASK['path']} is not valid JSON: {exc}")
        if got != TASK["expected"]:
            fail(f"{TASK['path']} is wrong:", "got:      " + json.dumps(got, sort_keys=True)[:3000],
                 "expected: " + json.dumps(TASK["expected"], sort_keys=True)[:3000])
    elif KIND == "csv":
        text = read(TASK["path"])
        if text.startswith("\ufeff"):
            fail("the CSV starts with a BOM")
        rows = list(csv.reader(io.StringIO(text, newline="")))
        while rows and rows[-1] == []:
            rows.pop()
        want = TASK["expected"]
        if rows != want:
            msgs = [f"{TASK['path']}: {len(rows)} rows (header included), expected {len(want)}"]
            for i in range(max(len(rows), len(want))):
                g = rows[i] if i < len(rows) else None
                w = want[i] if i < len(want) else None
                if g != w:
                    msgs.append(f"row {i}: got {g}, expected {w}")
                if len(msgs) > 12:
                    break
            fail(*msgs)
    else:
        text = read(STATE)
        try:
            state = json.loads(text)
        except ValueError as exc:
            fail(f"the service state {STATE} is not valid JSON: {exc}")
        by_id = {r.get("id"): r for r in state}
        if len(by_id) != len(state):
            fail("the service state has duplicate ids")
        journal = []
        try:
            with open(STATE.rsplit("/", 1)[0] + "/journal.jsonl", encoding="utf-8") as fh:
                journal = [json.loads(line) for line in fh if line.strip()]
        except (OSError, ValueError):
            pass
        # every change must have gone through the API (the service journals each one)
        seed_by_id = {r["id"]: r for r in SEED}
        through_api = {(e.get("method"), e.get("id")) for e in journal}
        for rid, rec in by_id.items():
            method = "PATCH" if rid in seed_by_id else "POST"
            if seed_by_id.get(rid) != rec and (method, rid) not in through_api:
                fail(f"{rid} changed without a {method} request to the API")
        if KIND == "patch":
            want = {r["id"]: r for r in TASK["expected"]}
            msgs = []
            if set(by_id) != set(want):
                msgs.append(f"records added or removed: {sorted(set(by_id) ^ set(want))[:10]}")
            for rid, rec in want.items():
                if rid in by_id and by_id[rid] != rec:
                    diff = {k: (by_id[rid].get(k), v) for k, v in rec.items() if by_id[rid].get(k) != v}
                    extra = sorted(set(by_id[rid]) - set(rec))
                    msgs.append(f"{rid}: (got, expected) {diff}" + (f", unexpected fields {extra}" if extra else ""))
            if msgs:
                fail(*msgs[:15])
        else:
            seed = {r["id"]: r for r in SEED}
            msgs = []
            for rid, rec in seed.items():
                if by_id.get(rid) != rec:
                    msgs.append(f"existing record {rid} was changed or deleted")
            new = [r for rid, r in by_id.items() if rid not in seed]
            got = Counter(tuple(r.get(c) for c in TASK["columns"]) for r in new)
            want = Counter(tuple(row) for row in TASK["new"])
            if got != want:
                msgs.append(f"created records ({', '.join(TASK['columns'])}) differ: missing {sorted((want - got).elements())[:5]}, "
                            f"unexpected or duplicated {sorted((got - want).elements())[:5]}")
            if msgs:
                fail(*msgs[:15])
    print("PASS")


main()
