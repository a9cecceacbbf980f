"""Verify the patch task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'patch'
STATE = '/app/.fleet/state.json'
SEED = json.loads('[{"firmware": "2.1.3", "hostname": "fra-pos-05", "id": "D-201", "last_seen": "2024-05-11", "os": "ubuntu-22.04", "owner_team": "ops", "site": "fra", "status": "online"}, {"firmware": "2.1.3", "hostname": "lon-pos-05", "id": "D-202", "last_seen": "2024-05-30", "os": "ubuntu-22.04", "owner_team": "core", "site": "lon", "status": "offline"}, {"firmware": "1.9.4", "hostname": "fra-pos-35", "id": "D-203", "last_seen": "2024-06-14", "os": "alpine-3.19", "owner_team": "edge", "site": "fra", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-pos-27", "id": "D-204", "last_seen": "2024-06-29", "os": "alpine-3.19", "owner_team": "retail", "site": "syd", "status": "offline"}, {"firmware": "3.0.2", "hostname": "lon-gw-29", "id": "D-205", "last_seen": "2024-05-30", "os": "ubuntu-22.04", "owner_team": "lab", "site": "lon", "status": "online"}, {"firmware": "3.1.0", "hostname": "ams-gw-13", "id": "D-206", "last_seen": "2024-05-17", "os": "debian-12", "owner_team": "retail", "site": "ams", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-web-38", "id": "D-207", "last_seen": "2024-06-14", "os": "alpine-3.19", "owner_team": "retail", "site": "syd", "status": "online"}, {"firmware": "2.1.3", "hostname": "nyc-pos-11", "id": "D-208", "last_seen": "2024-06-24", "os": "debian-12", "owner_team": "edge", "site": "nyc", "status": "maintenance"}, {"firmware": "1.9.4", "hostname": "syd-db-38", "id": "D-209", "last_seen": "2024-06-11", "os": "alpine-3.19", "owner_team": "retail", "site": "syd", "status": "maintenance"}, {"firmware": "2.1.3", "hostname": "nyc-kiosk-04", "id": "D-210", "last_seen": "2024-06-13", "os": "debian-12", "owner_team": "edge", "site": "nyc", "status": "maintenance"}, {"firmware": "3.0.2", "hostname": "ams-db-15", "id": "D-211", "last_seen": "2024-06-15", "os": "alpine-3.19", "owner_team": "retail", "site": "ams", "status": "offline"}, {"firmware": "2.1.3", "hostname": "lon-cache-28", "id": "D-212", "last_seen": "2024-06-16", "os": "ubuntu-22.04", "owner_team": "lab", "site": "lon", "status": "online"}, {"firmware": "2.1.3", "hostname": "sgp-pos-22", "id": "D-213", "last_seen": "2024-05-24", "os": "ubuntu-22.04", "owner_team": "lab", "site": "sgp", "status": "online"}, {"firmware": "2.1.3", "hostname": "sgp-gw-39", "id": "D-214", "last_seen": "2024-05-19", "os": "debian-12", "owner_team": "lab", "site": "sgp", "status": "online"}, {"firmware": "1.9.4", "hostname": "nyc-cache-26", "id": "D-215", "last_seen": "2024-06-12", "os": "ubuntu-22.04", "owner_team": "edge", "site": "nyc", "status": "online"}, {"firmware": "2.4.1", "hostname": "fra-web-27", "id": "D-216", "last_seen": "2024-06-20", "os": "debian-12", "owner_team": "core", "site": "fra", "status": "offline"}, {"firmware": "3.1.0", "hostname": "fra-web-22", "id": "D-217", "last_seen": "2024-05-18", "os": "debian-12", "owner_team": "retail", "site": "fra", "status": "online"}, {"firmware": "1.9.4", "hostname": "syd-pos-32", "id": "D-218", "last_seen": "2024-06-10", "os": "debian-12", "owner_team": "retail", "site": "syd", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-kiosk-08", "id": "D-219", "last_seen": "2024-06-08", "os": "debian-12", "owner_team": "core", "site": "syd", "status": "offline"}, {"firmware": "3.1.0", "hostname": "sgp-web-01", "id": "D-220", "last_seen": "2024-06-14", "os": "alpine-3.19", "owner_team": "ops", "site": "sgp", "status": "online"}, {"firmware": "2.0.0", "hostname": "ams-gw-30", "id": "D-221", "last_seen": "2024-06-09", "os": "ubuntu-22.04", "owner_team": "lab", "site": "ams", "status": "offline"}, {"firmware": "3.0.2", "hostname": "syd-cache-10", "id": "D-222", "last_seen": "2024-06-08", "os": "alpine-3.19", "owner_team": "retail", "site": "syd", "status": "maintenance"}, {"firmware": "2.1.3", "hostname": "nyc-gw-27", "id": "D-223", "last_seen": "2024-06-11", "os": "debian-12", "owner_team": "edge", "site": "nyc", "status": "offline"}, {"firmware": "2.10.0", "hostname": "syd-kiosk-03", "id": "D-224", "last_seen": "2024-05-17", "os": "ubuntu-22.04", "owner_team": "lab", "site": "syd", "status": "offline"}, {"firmware": "2.4.1", "hostname": "syd-web-22", "id": "D-225", "last_seen": "2024-06-30", "os": "debian-12", "owner_team": "ops", "site": "syd", "status": "online"}, {"firmware": "2.10.0", "hostname": "fra-gw-38", "id": "D-226", "last_seen": "2024-05-26", "os": "debian-12", "owner_team": "edge", "site": "fra", "status": "maintenance"}, {"firmware": "2.10.0", "hostname": "nyc-pos-14", "id": "D-227", "last_seen": "2024-05-19", "os": "alpine-3.19", "owner_team": "edge", "site": "nyc", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-web-01", "id": "D-228", "last_seen": "2024-06-15", "os": "debian-12", "owner_team": "core", "site": "lon", "status": "offline"}, {"firmware": "3.0.2", "hostname": "syd-db-04", "id": "D-229", "last_seen": "2024-06-28", "os": "ubuntu-22.04", "owner_team": "core", "site": "syd", "status": "online"}, {"firmware": "3.0.2", "hostname": "lon-pos-08", "id": "D-230", "last_seen": "2024-06-19", "os": "alpine-3.19", "owner_team": "core", "site": "lon", "status": "online"}, {"firmware": "3.0.2", "hostname": "syd-cache-06", "id": "D-231", "last_seen": "2024-05-18", "os": "alpine-3.19", "owner_team": "ops", "site": "syd", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-pos-13", "id": "D-232", "last_seen": "2024-05-21", "os": "ubuntu-22.04", "owner_team": "edge", "site": "lon", "status": "online"}, {"firmware": "2.4.1", "hostname": "nyc-db-27", "id": "D-233", "last_seen": "2024-06-28", "os": "ubuntu-22.04", "owner_team": "retail", "site": "nyc", "status": "offline"}, {"firmware": "3.0.2", "hostname": "syd-gw-21", "id": "D-234", "last_seen": "2024-05-20", "os": "ubuntu-22.04", "owner_team": "ops", "site": "syd", "status": "online"}, {"firmware": "3.0.2", "hostname": "ams-cache-35", "id": "D-235", "last_seen": "2024-06-21", "os": "alpine-3.19", "owner_team": "core", "site": "ams", "status": "offline"}, {"firmware": "1.9.4", "hostname": "fra-cache-05", "id": "D-236", "last_seen": "2024-05-29", "os": "ubuntu-22.04", "owner_team": "edge", "site": "fra", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-db-40", "id": "D-237", "last_seen": "2024-06-19", "os": "debian-12", "owner_team": "retail", "site": "syd", "status": "offline"}, {"firmware": "3.1.0", "hostname": "syd-pos-05", "id": "D-238", "last_seen": "2024-05-01", "os": "ubuntu-22.04", "owner_team": "lab", "site": "syd", "status": "online"}, {"firmware": "2.0.0", "hostname": "ams-pos-19", "id": "D-239", "last_seen": "2024-05-07", "os": "ubuntu-22.04", "owner_team": "ops", "site": "ams", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-db-30", "id": "D-240", "last_seen": "2024-06-04", "os": "alpine-3.19", "owner_team": "edge", "site": "lon", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-cache-31", "id": "D-241", "last_seen": "2024-06-11", "os": "debian-12", "owner_team": "edge", "site": "syd", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-kiosk-15", "id": "D-242", "last_seen": "2024-06-09", "os": "debian-12", "owner_team": "core", "site": "lon", "status": "online"}, {"firmware": "2.4.1", "hostname": "nyc-kiosk-28", "id": "D-243", "last_seen": "2024-05-25", "os": "alpine-3.19", "owner_team": "lab", "site": "nyc", "status": "online"}, {"firmware": "2.0.0", "hostname": "syd-pos-22", "id": "D-244", "last_seen": "2024-05-02", "os": "alpine-3.19", "owner_team": "lab", "site": "syd", "status": "offline"}, {"firmware": "1.9.4", "hostname": "ams-web-13", "id": "D-245", "last_seen": "2024-06-20", "os": "ubuntu-22.04", "owner_team": "edge", "site": "ams", "status": "online"}, {"firmware": "2.10.0", "hostname": "lon-pos-30", "id": "D-246", "last_seen": "2024-05-02", "os": "debian-12", "owner_team": "lab", "site": "lon", "status": "online"}, {"firmware": "2.4.1", "hostname": "syd-pos-37", "id": "D-247", "last_seen": "2024-05-07", "os": "ubuntu-22.04", "owner_team": "retail", "site": "syd", "status": "online"}, {"firmware": "2.10.0", "hostname": "nyc-db-16", "id": "D-248", "last_seen": "2024-05-30", "os": "alpine-3.19", "owner_team": "core", "site": "nyc", "status": "online"}, {"firmware": "3.0.2", "hostname": "lon-gw-33", "id": "D-249", "last_seen": "2024-05-27", "os": "alpine-3.19", "owner_team": "retail", "site": "lon", "status": "offline"}, {"firmware": "3.1.0", "hostname": "lon-cache-15", "id": "D-250", "last_seen": "2024-05-02", "os": "ubuntu-22.04", "owner_team": "retail", "site": "lon", "status": "online"}]')
TASK = json.loads('{"changed": 6, "expected": [{"firmware": "2.1.3", "hostname": "fra-pos-05", "id": "D-201", "last_seen": "2024-05-11", "os": "ubuntu-22.04", "owner_team": "ops", "site": "fra", "status": "online"}, {"firmware": "2.1.3", "hostname": "lon-pos-05", "id": "D-202", "last_seen": "2024-05-30", "os": "ubuntu-22.04", "owner_team": "core", "site": "lon", "status": "offline"}, {"firmware": "1.9.4", "hostname": "fra-pos-35", "id": "D-203", "last_seen": "2024-06-14", "os": "alpine-3.19", "owner_team": "edge", "site": "fra", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-pos-27", "id": "D-204", "last_seen": "2024-06-29", "os": "alpine-3.19", "owner_team": "field-ops", "site": "syd", "status": "maintenance"}, {"firmware": "3.0.2", "hostname": "lon-gw-29", "id": "D-205", "last_seen": "2024-05-30", "os": "ubuntu-22.04", "owner_team": "lab", "site": "lon", "status": "online"}, {"firmware": "3.1.0", "hostname": "ams-gw-13", "id": "D-206", "last_seen": "2024-05-17", "os": "debian-12", "owner_team": "retail", "site": "ams", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-web-38", "id": "D-207", "last_seen": "2024-06-14", "os": "alpine-3.19", "owner_team": "retail", "site": "syd", "status": "online"}, {"firmware": "2.1.3", "hostname": "nyc-pos-11", "id": "D-208", "last_seen": "2024-06-24", "os": "debian-12", "owner_team": "edge", "site": "nyc", "status": "maintenance"}, {"firmware": "1.9.4", "hostname": "syd-db-38", "id": "D-209", "last_seen": "2024-06-11", "os": "alpine-3.19", "owner_team": "retail", "site": "syd", "status": "maintenance"}, {"firmware": "2.1.3", "hostname": "nyc-kiosk-04", "id": "D-210", "last_seen": "2024-06-13", "os": "debian-12", "owner_team": "edge", "site": "nyc", "status": "maintenance"}, {"firmware": "3.0.2", "hostname": "ams-db-15", "id": "D-211", "last_seen": "2024-06-15", "os": "alpine-3.19", "owner_team": "retail", "site": "ams", "status": "offline"}, {"firmware": "2.1.3", "hostname": "lon-cache-28", "id": "D-212", "last_seen": "2024-06-16", "os": "ubuntu-22.04", "owner_team": "lab", "site": "lon", "status": "online"}, {"firmware": "2.1.3", "hostname": "sgp-pos-22", "id": "D-213", "last_seen": "2024-05-24", "os": "ubuntu-22.04", "owner_team": "lab", "site": "sgp", "status": "online"}, {"firmware": "2.1.3", "hostname": "sgp-gw-39", "id": "D-214", "last_seen": "2024-05-19", "os": "debian-12", "owner_team": "lab", "site": "sgp", "status": "online"}, {"firmware": "1.9.4", "hostname": "nyc-cache-26", "id": "D-215", "last_seen": "2024-06-12", "os": "ubuntu-22.04", "owner_team": "edge", "site": "nyc", "status": "online"}, {"firmware": "2.4.1", "hostname": "fra-web-27", "id": "D-216", "last_seen": "2024-06-20", "os": "debian-12", "owner_team": "core", "site": "fra", "status": "offline"}, {"firmware": "3.1.0", "hostname": "fra-web-22", "id": "D-217", "last_seen": "2024-05-18", "os": "debian-12", "owner_team": "retail", "site": "fra", "status": "online"}, {"firmware": "1.9.4", "hostname": "syd-pos-32", "id": "D-218", "last_seen": "2024-06-10", "os": "debian-12", "owner_team": "field-ops", "site": "syd", "status": "maintenance"}, {"firmware": "1.9.4", "hostname": "syd-kiosk-08", "id": "D-219", "last_seen": "2024-06-08", "os": "debian-12", "owner_team": "field-ops", "site": "syd", "status": "maintenance"}, {"firmware": "3.1.0", "hostname": "sgp-web-01", "id": "D-220", "last_seen": "2024-06-14", "os": "alpine-3.19", "owner_team": "ops", "site": "sgp", "status": "online"}, {"firmware": "2.0.0", "hostname": "ams-gw-30", "id": "D-221", "last_seen": "2024-06-09", "os": "ubuntu-22.04", "owner_team": "lab", "site": "ams", "status": "offline"}, {"firmware": "3.0.2", "hostname": "syd-cache-10", "id": "D-222", "last_seen": "2024-06-08", "os": "alpine-3.19", "owner_team": "retail", "site": "syd", "status": "maintenance"}, {"firmware": "2.1.3", "hostname": "nyc-gw-27", "id": "D-223", "last_seen": "2024-06-11", "os": "debian-12", "owner_team": "edge", "site": "nyc", "status": "offline"}, {"firmware": "2.10.0", "hostname": "syd-kiosk-03", "id": "D-224", "last_seen": "2024-05-17", "os": "ubuntu-22.04", "owner_team": "field-ops", "site": "syd", "status": "maintenance"}, {"firmware": "2.4.1", "hostname": "syd-web-22", "id": "D-225", "last_seen": "2024-06-30", "os": "debian-12", "owner_team": "ops", "site": "syd", "status": "online"}, {"firmware": "2.10.0", "hostname": "fra-gw-38", "id": "D-226", "last_seen": "2024-05-26", "os": "debian-12", "owner_team": "edge", "site": "fra", "status": "maintenance"}, {"firmware": "2.10.0", "hostname": "nyc-pos-14", "id": "D-227", "last_seen": "2024-05-19", "os": "alpine-3.19", "owner_team": "edge", "site": "nyc", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-web-01", "id": "D-228", "last_seen": "2024-06-15", "os": "debian-12", "owner_team": "core", "site": "lon", "status": "offline"}, {"firmware": "3.0.2", "hostname": "syd-db-04", "id": "D-229", "last_seen": "2024-06-28", "os": "ubuntu-22.04", "owner_team": "core", "site": "syd", "status": "online"}, {"firmware": "3.0.2", "hostname": "lon-pos-08", "id": "D-230", "last_seen": "2024-06-19", "os": "alpine-3.19", "owner_team": "core", "site": "lon", "status": "online"}, {"firmware": "3.0.2", "hostname": "syd-cache-06", "id": "D-231", "last_seen": "2024-05-18", "os": "alpine-3.19", "owner_team": "ops", "site": "syd", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-pos-13", "id": "D-232", "last_seen": "2024-05-21", "os": "ubuntu-22.04", "owner_team": "edge", "site": "lon", "status": "online"}, {"firmware": "2.4.1", "hostname": "nyc-db-27", "id": "D-233", "last_seen": "2024-06-28", "os": "ubuntu-22.04", "owner_team": "retail", "site": "nyc", "status": "offline"}, {"firmware": "3.0.2", "hostname": "syd-gw-21", "id": "D-234", "last_seen": "2024-05-20", "os": "ubuntu-22.04", "owner_team": "ops", "site": "syd", "status": "online"}, {"firmware": "3.0.2", "hostname": "ams-cache-35", "id": "D-235", "last_seen": "2024-06-21", "os": "alpine-3.19", "owner_team": "core", "site": "ams", "status": "offline"}, {"firmware": "1.9.4", "hostname": "fra-cache-05", "id": "D-236", "last_seen": "2024-05-29", "os": "ubuntu-22.04", "owner_team": "edge", "site": "fra", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-db-40", "id": "D-237", "last_seen": "2024-06-19", "os": "debian-12", "owner_team": "field-ops", "site": "syd", "status": "maintenance"}, {"firmware": "3.1.0", "hostname": "syd-pos-05", "id": "D-238", "last_seen": "2024-05-01", "os": "ubuntu-22.04", "owner_team": "lab", "site": "syd", "status": "online"}, {"firmware": "2.0.0", "hostname": "ams-pos-19", "id": "D-239", "last_seen": "2024-05-07", "os": "ubuntu-22.04", "owner_team": "ops", "site": "ams", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-db-30", "id": "D-240", "last_seen": "2024-06-04", "os": "alpine-3.19", "owner_team": "edge", "site": "lon", "status": "offline"}, {"firmware": "1.9.4", "hostname": "syd-cache-31", "id": "D-241", "last_seen": "2024-06-11", "os": "debian-12", "owner_team": "edge", "site": "syd", "status": "online"}, {"firmware": "2.0.0", "hostname": "lon-kiosk-15", "id": "D-242", "last_seen": "2024-06-09", "os": "debian-12", "owner_team": "core", "site": "lon", "status": "online"}, {"firmware": "2.4.1", "hostname": "nyc-kiosk-28", "id": "D-243", "last_seen": "2024-05-25", "os": "alpine-3.19", "owner_team": "lab", "site": "nyc", "status": "online"}, {"firmware": "2.0.0", "hostname": "syd-pos-22", "id": "D-244", "last_seen": "2024-05-02", "os": "alpine-3.19", "owner_team": "field-ops", "site": "syd", "status": "maintenance"}, {"firmware": "1.9.4", "hostname": "ams-web-13", "id": "D-245", "last_seen": "2024-06-20", "os": "ubuntu-22.04", "owner_team": "edge", "site": "ams", "status": "online"}, {"firmware": "2.10.0", "hostname": "lon-pos-30", "id": "D-246", "last_seen": "2024-05-02", "os": "debian-12", "owner_team": "lab", "site": "lon", "status": "online"}, {"firmware": "2.4.1", "hostname": "syd-pos-37", "id": "D-247", "last_seen": "2024-05-07", "os": "ubuntu-22.04", "owner_team": "retail", "site": "syd", "status": "online"}, {"firmware": "2.10.0", "hostname": "nyc-db-16", "id": "D-248", "last_seen": "2024-05-30", "os": "alpine-3.19", "owner_team": "core", "site": "nyc", "status": "online"}, {"firmware": "3.0.2", "hostname": "lon-gw-33", "id": "D-249", "last_seen": "2024-05-27", "os": "alpine-3.19", "owner_team": "retail", "site": "lon", "status": "offline"}, {"firmware": "3.1.0", "hostname": "lon-cache-15", "id": "D-250", "last_seen": "2024-05-02", "os": "ubuntu-22.04", "owner_team": "retail", "site": "lon", "status": "online"}]}')


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
