"""Verify the json task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'json'
STATE = '/app/.directory/state.json'
SEED = json.loads('[{"active": true, "id": "U-301", "last_login": "2024-06-29", "mfa": true, "role": "editor", "team": "infra", "username": "shawblake"}, {"active": true, "id": "U-302", "last_login": "2024-06-18", "mfa": true, "role": "viewer", "team": "mobile", "username": "jacqueline51"}, {"active": true, "id": "U-303", "last_login": "2023-12-16", "mfa": true, "role": "editor", "team": "search", "username": "ryan58"}, {"active": false, "id": "U-304", "last_login": "2024-06-12", "mfa": true, "role": "viewer", "team": "payments", "username": "hweiss"}, {"active": false, "id": "U-305", "last_login": "2024-01-10", "mfa": false, "role": "viewer", "team": "payments", "username": "thomasmoore"}, {"active": false, "id": "U-306", "last_login": "2024-05-18", "mfa": false, "role": "viewer", "team": "search", "username": "jacqueline31"}, {"active": false, "id": "U-307", "last_login": "2024-04-13", "mfa": true, "role": "viewer", "team": "web", "username": "tiffanysuarez"}, {"active": true, "id": "U-308", "last_login": "2024-04-12", "mfa": false, "role": "viewer", "team": "payments", "username": "hoffmanchristian"}, {"active": true, "id": "U-309", "last_login": "2024-01-01", "mfa": false, "role": "admin", "team": "web", "username": "patricia94"}, {"active": true, "id": "U-310", "last_login": "2024-02-26", "mfa": true, "role": "viewer", "team": "search", "username": "sandersdavid"}, {"active": true, "id": "U-311", "last_login": "2024-02-29", "mfa": false, "role": "editor", "team": "infra", "username": "smithjudith"}, {"active": true, "id": "U-312", "last_login": "2024-06-22", "mfa": true, "role": "viewer", "team": "infra", "username": "richard82"}, {"active": false, "id": "U-313", "last_login": "2024-03-14", "mfa": true, "role": "editor", "team": "web", "username": "thomaswilliam"}, {"active": true, "id": "U-314", "last_login": "2024-02-04", "mfa": false, "role": "viewer", "team": "infra", "username": "gcollins"}, {"active": true, "id": "U-315", "last_login": "2024-06-10", "mfa": true, "role": "viewer", "team": "payments", "username": "guywarner"}, {"active": true, "id": "U-316", "last_login": "2024-04-27", "mfa": true, "role": "editor", "team": "data", "username": "donald67"}, {"active": true, "id": "U-317", "last_login": "2024-05-19", "mfa": false, "role": "viewer", "team": "search", "username": "flambert"}, {"active": true, "id": "U-318", "last_login": "2024-03-28", "mfa": true, "role": "viewer", "team": "search", "username": "douglas00"}, {"active": true, "id": "U-319", "last_login": "2024-06-15", "mfa": true, "role": "viewer", "team": "search", "username": "adrian28"}, {"active": true, "id": "U-320", "last_login": "2024-01-03", "mfa": true, "role": "admin", "team": "web", "username": "elliottbeth"}, {"active": true, "id": "U-321", "last_login": "2024-05-28", "mfa": true, "role": "editor", "team": "mobile", "username": "suttonrick"}, {"active": false, "id": "U-322", "last_login": "2024-02-14", "mfa": false, "role": "viewer", "team": "data", "username": "jessicagonzalez"}, {"active": true, "id": "U-323", "last_login": "2023-12-30", "mfa": true, "role": "editor", "team": "data", "username": "deansamantha"}, {"active": true, "id": "U-324", "last_login": "2024-05-27", "mfa": false, "role": "viewer", "team": "search", "username": "iwhite"}, {"active": true, "id": "U-325", "last_login": "2024-05-02", "mfa": false, "role": "viewer", "team": "data", "username": "randy30"}, {"active": false, "id": "U-326", "last_login": "2024-05-29", "mfa": true, "role": "editor", "team": "data", "username": "amandabell"}, {"active": true, "id": "U-327", "last_login": "2024-06-14", "mfa": false, "role": "editor", "team": "search", "username": "christopher20"}, {"active": true, "id": "U-328", "last_login": "2024-03-29", "mfa": false, "role": "admin", "team": "web", "username": "bonnie55"}, {"active": true, "id": "U-329", "last_login": "2024-04-26", "mfa": true, "role": "editor", "team": "mobile", "username": "raymondmoody"}, {"active": true, "id": "U-330", "last_login": "2024-01-01", "mfa": true, "role": "viewer", "team": "data", "username": "mary08"}, {"active": false, "id": "U-331", "last_login": "2024-02-02", "mfa": false, "role": "viewer", "team": "payments", "username": "marissa12"}, {"active": true, "id": "U-332", "last_login": "2024-05-04", "mfa": true, "role": "admin", "team": "search", "username": "wongmolly"}, {"active": true, "id": "U-333", "last_login": "2024-04-13", "mfa": true, "role": "editor", "team": "mobile", "username": "waltervalentine"}, {"active": true, "id": "U-334", "last_login": "2024-05-08", "mfa": true, "role": "viewer", "team": "mobile", "username": "xmooney"}, {"active": true, "id": "U-335", "last_login": "2023-12-19", "mfa": false, "role": "editor", "team": "data", "username": "robynjackson"}]')
TASK = json.loads('{"expected": {"data": {"total": 3, "without_mfa": 1}, "infra": {"total": 2, "without_mfa": 1}, "mobile": {"total": 3, "without_mfa": 0}, "search": {"total": 2, "without_mfa": 1}}, "path": "/app/editor_audit.json"}')


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
