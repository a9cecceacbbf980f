"""Verify the csv task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'csv'
STATE = '/app/.directory/state.json'
SEED = json.loads('[{"active": true, "id": "U-301", "last_login": "2024-04-02", "mfa": false, "role": "admin", "team": "infra", "username": "nicholas05"}, {"active": false, "id": "U-302", "last_login": "2024-04-16", "mfa": false, "role": "viewer", "team": "mobile", "username": "timothyvilla"}, {"active": false, "id": "U-303", "last_login": "2024-02-24", "mfa": true, "role": "admin", "team": "payments", "username": "garrisonjennifer"}, {"active": true, "id": "U-304", "last_login": "2024-03-06", "mfa": true, "role": "editor", "team": "mobile", "username": "christopher27"}, {"active": true, "id": "U-305", "last_login": "2024-05-23", "mfa": false, "role": "admin", "team": "mobile", "username": "susan73"}, {"active": true, "id": "U-306", "last_login": "2024-03-01", "mfa": false, "role": "admin", "team": "mobile", "username": "lewischelsea"}, {"active": true, "id": "U-307", "last_login": "2024-01-21", "mfa": false, "role": "editor", "team": "data", "username": "frodgers"}, {"active": true, "id": "U-308", "last_login": "2024-05-18", "mfa": true, "role": "viewer", "team": "search", "username": "lopezbrooke"}, {"active": true, "id": "U-309", "last_login": "2024-05-14", "mfa": false, "role": "editor", "team": "payments", "username": "stewartkenneth"}, {"active": true, "id": "U-310", "last_login": "2024-03-11", "mfa": false, "role": "admin", "team": "infra", "username": "woodsjoshua"}, {"active": true, "id": "U-311", "last_login": "2024-03-30", "mfa": true, "role": "editor", "team": "mobile", "username": "nicole26"}, {"active": false, "id": "U-312", "last_login": "2024-02-08", "mfa": false, "role": "admin", "team": "mobile", "username": "melaniewebb"}, {"active": true, "id": "U-313", "last_login": "2024-02-21", "mfa": false, "role": "viewer", "team": "search", "username": "justinfernandez"}, {"active": false, "id": "U-314", "last_login": "2024-05-26", "mfa": true, "role": "viewer", "team": "web", "username": "dkeller"}, {"active": false, "id": "U-315", "last_login": "2024-04-07", "mfa": true, "role": "viewer", "team": "data", "username": "wtorres"}, {"active": false, "id": "U-316", "last_login": "2024-04-22", "mfa": false, "role": "viewer", "team": "data", "username": "davidrogers"}, {"active": true, "id": "U-317", "last_login": "2024-04-28", "mfa": false, "role": "admin", "team": "mobile", "username": "jeffmoore"}, {"active": true, "id": "U-318", "last_login": "2024-02-16", "mfa": false, "role": "editor", "team": "web", "username": "philip62"}, {"active": true, "id": "U-319", "last_login": "2024-03-01", "mfa": true, "role": "admin", "team": "mobile", "username": "ashley48"}, {"active": false, "id": "U-320", "last_login": "2024-04-20", "mfa": true, "role": "admin", "team": "mobile", "username": "james15"}, {"active": true, "id": "U-321", "last_login": "2024-06-08", "mfa": true, "role": "editor", "team": "web", "username": "maureenhanna"}, {"active": true, "id": "U-322", "last_login": "2024-01-17", "mfa": true, "role": "editor", "team": "payments", "username": "brookekim"}, {"active": true, "id": "U-323", "last_login": "2024-05-28", "mfa": true, "role": "editor", "team": "web", "username": "idunlap"}, {"active": true, "id": "U-324", "last_login": "2024-03-24", "mfa": true, "role": "viewer", "team": "mobile", "username": "hunter52"}, {"active": false, "id": "U-325", "last_login": "2024-05-14", "mfa": false, "role": "admin", "team": "mobile", "username": "suttondaniel"}, {"active": true, "id": "U-326", "last_login": "2024-04-13", "mfa": true, "role": "viewer", "team": "web", "username": "kyleflowers"}, {"active": false, "id": "U-327", "last_login": "2023-12-16", "mfa": false, "role": "viewer", "team": "web", "username": "rebeccatorres"}, {"active": false, "id": "U-328", "last_login": "2024-04-24", "mfa": false, "role": "admin", "team": "infra", "username": "cmontes"}, {"active": true, "id": "U-329", "last_login": "2024-04-16", "mfa": false, "role": "viewer", "team": "web", "username": "bonniewilson"}, {"active": true, "id": "U-330", "last_login": "2024-01-13", "mfa": false, "role": "viewer", "team": "search", "username": "williambanks"}, {"active": true, "id": "U-331", "last_login": "2024-05-09", "mfa": false, "role": "admin", "team": "mobile", "username": "bullockterry"}, {"active": false, "id": "U-332", "last_login": "2024-06-29", "mfa": false, "role": "editor", "team": "search", "username": "gharper"}, {"active": true, "id": "U-333", "last_login": "2024-06-11", "mfa": true, "role": "editor", "team": "infra", "username": "burkeemily"}, {"active": true, "id": "U-334", "last_login": "2024-04-13", "mfa": false, "role": "viewer", "team": "search", "username": "ballardlance"}, {"active": true, "id": "U-335", "last_login": "2024-02-22", "mfa": true, "role": "editor", "team": "web", "username": "patricia65"}, {"active": true, "id": "U-336", "last_login": "2023-12-27", "mfa": true, "role": "admin", "team": "search", "username": "myates"}, {"active": true, "id": "U-337", "last_login": "2024-04-13", "mfa": true, "role": "admin", "team": "data", "username": "jessicaleach"}, {"active": false, "id": "U-338", "last_login": "2023-12-26", "mfa": true, "role": "viewer", "team": "web", "username": "ynorton"}, {"active": false, "id": "U-339", "last_login": "2024-03-04", "mfa": true, "role": "editor", "team": "search", "username": "xpratt"}, {"active": true, "id": "U-340", "last_login": "2024-01-17", "mfa": false, "role": "editor", "team": "web", "username": "deborahclark"}, {"active": true, "id": "U-341", "last_login": "2023-12-18", "mfa": false, "role": "editor", "team": "data", "username": "garciadale"}, {"active": true, "id": "U-342", "last_login": "2024-01-08", "mfa": true, "role": "viewer", "team": "data", "username": "daniel10"}, {"active": true, "id": "U-343", "last_login": "2024-05-16", "mfa": true, "role": "editor", "team": "payments", "username": "bobbyweber"}, {"active": true, "id": "U-344", "last_login": "2024-02-15", "mfa": true, "role": "viewer", "team": "search", "username": "johnrios"}, {"active": true, "id": "U-345", "last_login": "2024-06-29", "mfa": false, "role": "editor", "team": "infra", "username": "moralesdonna"}, {"active": false, "id": "U-346", "last_login": "2024-06-16", "mfa": false, "role": "admin", "team": "infra", "username": "wcoffey"}, {"active": false, "id": "U-347", "last_login": "2024-03-28", "mfa": true, "role": "editor", "team": "data", "username": "anthony39"}, {"active": false, "id": "U-348", "last_login": "2024-03-02", "mfa": true, "role": "viewer", "team": "search", "username": "obaker"}, {"active": true, "id": "U-349", "last_login": "2024-06-12", "mfa": false, "role": "editor", "team": "infra", "username": "aliciawebb"}, {"active": true, "id": "U-350", "last_login": "2024-05-22", "mfa": true, "role": "editor", "team": "search", "username": "jacobsmichael"}, {"active": false, "id": "U-351", "last_login": "2024-06-30", "mfa": true, "role": "admin", "team": "mobile", "username": "garciamelissa"}]')
TASK = json.loads('{"expected": [["username", "team", "role", "last_login"], ["garciadale", "data", "editor", "2023-12-18"], ["myates", "search", "admin", "2023-12-27"], ["daniel10", "data", "viewer", "2024-01-08"], ["williambanks", "search", "viewer", "2024-01-13"], ["brookekim", "payments", "editor", "2024-01-17"], ["deborahclark", "web", "editor", "2024-01-17"], ["frodgers", "data", "editor", "2024-01-21"]], "path": "/app/dormant_users.csv"}')


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
