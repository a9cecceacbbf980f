"""Verify the patch task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'patch'
STATE = '/app/.directory/state.json'
SEED = json.loads('[{"active": false, "id": "U-301", "last_login": "2024-02-25", "mfa": false, "role": "editor", "team": "data", "username": "eileen99"}, {"active": true, "id": "U-302", "last_login": "2024-06-05", "mfa": false, "role": "viewer", "team": "search", "username": "sdonovan"}, {"active": true, "id": "U-303", "last_login": "2024-01-22", "mfa": false, "role": "viewer", "team": "mobile", "username": "rcarter"}, {"active": false, "id": "U-304", "last_login": "2024-04-02", "mfa": true, "role": "viewer", "team": "payments", "username": "flopez"}, {"active": true, "id": "U-305", "last_login": "2024-05-19", "mfa": false, "role": "viewer", "team": "mobile", "username": "shanson"}, {"active": false, "id": "U-306", "last_login": "2023-12-18", "mfa": true, "role": "editor", "team": "infra", "username": "lori79"}, {"active": false, "id": "U-307", "last_login": "2023-12-21", "mfa": false, "role": "admin", "team": "search", "username": "patriciakim"}, {"active": false, "id": "U-308", "last_login": "2024-04-14", "mfa": false, "role": "admin", "team": "search", "username": "blakeschwartz"}, {"active": true, "id": "U-309", "last_login": "2024-02-26", "mfa": false, "role": "viewer", "team": "infra", "username": "scott60"}, {"active": true, "id": "U-310", "last_login": "2023-12-23", "mfa": true, "role": "viewer", "team": "mobile", "username": "courtney00"}, {"active": true, "id": "U-311", "last_login": "2024-01-03", "mfa": true, "role": "admin", "team": "payments", "username": "huffmanwalter"}, {"active": true, "id": "U-312", "last_login": "2023-12-16", "mfa": true, "role": "admin", "team": "payments", "username": "tanyarose"}, {"active": true, "id": "U-313", "last_login": "2024-03-30", "mfa": true, "role": "admin", "team": "mobile", "username": "whiteheadsteve"}, {"active": false, "id": "U-314", "last_login": "2024-02-23", "mfa": false, "role": "editor", "team": "mobile", "username": "jennifer17"}, {"active": true, "id": "U-315", "last_login": "2024-04-29", "mfa": true, "role": "viewer", "team": "infra", "username": "jacob80"}, {"active": true, "id": "U-316", "last_login": "2024-01-11", "mfa": false, "role": "viewer", "team": "data", "username": "nicholemiller"}, {"active": true, "id": "U-317", "last_login": "2024-03-13", "mfa": false, "role": "viewer", "team": "search", "username": "baileynatalie"}, {"active": true, "id": "U-318", "last_login": "2024-06-22", "mfa": true, "role": "viewer", "team": "web", "username": "jeffsolis"}, {"active": true, "id": "U-319", "last_login": "2024-02-01", "mfa": false, "role": "viewer", "team": "web", "username": "thomas33"}, {"active": true, "id": "U-320", "last_login": "2024-03-07", "mfa": true, "role": "editor", "team": "infra", "username": "qhawkins"}, {"active": false, "id": "U-321", "last_login": "2024-05-26", "mfa": true, "role": "editor", "team": "infra", "username": "tpeters"}, {"active": true, "id": "U-322", "last_login": "2024-02-28", "mfa": true, "role": "viewer", "team": "search", "username": "kathleenaguirre"}, {"active": true, "id": "U-323", "last_login": "2024-04-13", "mfa": false, "role": "admin", "team": "infra", "username": "davidbowen"}, {"active": false, "id": "U-324", "last_login": "2024-01-14", "mfa": true, "role": "editor", "team": "mobile", "username": "ochavez"}, {"active": true, "id": "U-325", "last_login": "2024-02-14", "mfa": false, "role": "editor", "team": "data", "username": "powerselizabeth"}, {"active": true, "id": "U-326", "last_login": "2024-02-29", "mfa": true, "role": "viewer", "team": "data", "username": "hwilson"}, {"active": true, "id": "U-327", "last_login": "2024-05-28", "mfa": true, "role": "viewer", "team": "payments", "username": "wisebrandon"}, {"active": false, "id": "U-328", "last_login": "2024-05-17", "mfa": true, "role": "viewer", "team": "mobile", "username": "andrew67"}, {"active": true, "id": "U-329", "last_login": "2024-02-09", "mfa": true, "role": "editor", "team": "infra", "username": "christopherfinley"}, {"active": false, "id": "U-330", "last_login": "2024-05-11", "mfa": true, "role": "admin", "team": "infra", "username": "twatson"}, {"active": true, "id": "U-331", "last_login": "2024-02-03", "mfa": true, "role": "viewer", "team": "infra", "username": "cheryl50"}, {"active": false, "id": "U-332", "last_login": "2024-02-18", "mfa": true, "role": "editor", "team": "payments", "username": "andrewrhodes"}, {"active": true, "id": "U-333", "last_login": "2024-06-03", "mfa": true, "role": "viewer", "team": "infra", "username": "schultzanne"}, {"active": true, "id": "U-334", "last_login": "2024-02-16", "mfa": true, "role": "viewer", "team": "search", "username": "xhughes"}, {"active": true, "id": "U-335", "last_login": "2024-03-23", "mfa": true, "role": "viewer", "team": "web", "username": "adamscott"}, {"active": true, "id": "U-336", "last_login": "2024-05-15", "mfa": false, "role": "viewer", "team": "data", "username": "michelle47"}, {"active": true, "id": "U-337", "last_login": "2024-06-19", "mfa": true, "role": "viewer", "team": "web", "username": "philip08"}, {"active": true, "id": "U-338", "last_login": "2024-01-19", "mfa": false, "role": "viewer", "team": "mobile", "username": "thompsonjackie"}, {"active": true, "id": "U-339", "last_login": "2024-05-15", "mfa": false, "role": "admin", "team": "data", "username": "vmurphy"}, {"active": true, "id": "U-340", "last_login": "2024-05-02", "mfa": false, "role": "viewer", "team": "search", "username": "amymorton"}, {"active": true, "id": "U-341", "last_login": "2024-02-17", "mfa": false, "role": "editor", "team": "infra", "username": "michael73"}, {"active": true, "id": "U-342", "last_login": "2024-02-05", "mfa": true, "role": "viewer", "team": "infra", "username": "jessica77"}, {"active": true, "id": "U-343", "last_login": "2024-05-09", "mfa": true, "role": "editor", "team": "infra", "username": "qryan"}, {"active": true, "id": "U-344", "last_login": "2023-12-27", "mfa": true, "role": "admin", "team": "web", "username": "garrettangelica"}, {"active": false, "id": "U-345", "last_login": "2023-12-22", "mfa": true, "role": "viewer", "team": "search", "username": "crodriguez"}, {"active": false, "id": "U-346", "last_login": "2024-01-25", "mfa": true, "role": "editor", "team": "data", "username": "travis80"}, {"active": true, "id": "U-347", "last_login": "2024-03-26", "mfa": true, "role": "viewer", "team": "web", "username": "estesfelicia"}, {"active": true, "id": "U-348", "last_login": "2024-06-19", "mfa": true, "role": "viewer", "team": "infra", "username": "knappashley"}]')
TASK = json.loads('{"changed": 10, "expected": [{"active": false, "id": "U-301", "last_login": "2024-02-25", "mfa": false, "role": "viewer", "team": "data", "username": "eileen99"}, {"active": true, "id": "U-302", "last_login": "2024-06-05", "mfa": false, "role": "viewer", "team": "search", "username": "sdonovan"}, {"active": true, "id": "U-303", "last_login": "2024-01-22", "mfa": false, "role": "viewer", "team": "mobile", "username": "rcarter"}, {"active": false, "id": "U-304", "last_login": "2024-04-02", "mfa": true, "role": "viewer", "team": "payments", "username": "flopez"}, {"active": true, "id": "U-305", "last_login": "2024-05-19", "mfa": false, "role": "viewer", "team": "mobile", "username": "shanson"}, {"active": false, "id": "U-306", "last_login": "2023-12-18", "mfa": true, "role": "viewer", "team": "infra", "username": "lori79"}, {"active": false, "id": "U-307", "last_login": "2023-12-21", "mfa": false, "role": "viewer", "team": "search", "username": "patriciakim"}, {"active": false, "id": "U-308", "last_login": "2024-04-14", "mfa": false, "role": "viewer", "team": "search", "username": "blakeschwartz"}, {"active": true, "id": "U-309", "last_login": "2024-02-26", "mfa": false, "role": "viewer", "team": "infra", "username": "scott60"}, {"active": true, "id": "U-310", "last_login": "2023-12-23", "mfa": true, "role": "viewer", "team": "mobile", "username": "courtney00"}, {"active": true, "id": "U-311", "last_login": "2024-01-03", "mfa": true, "role": "admin", "team": "payments", "username": "huffmanwalter"}, {"active": true, "id": "U-312", "last_login": "2023-12-16", "mfa": true, "role": "admin", "team": "payments", "username": "tanyarose"}, {"active": true, "id": "U-313", "last_login": "2024-03-30", "mfa": true, "role": "admin", "team": "mobile", "username": "whiteheadsteve"}, {"active": false, "id": "U-314", "last_login": "2024-02-23", "mfa": false, "role": "viewer", "team": "mobile", "username": "jennifer17"}, {"active": true, "id": "U-315", "last_login": "2024-04-29", "mfa": true, "role": "viewer", "team": "infra", "username": "jacob80"}, {"active": true, "id": "U-316", "last_login": "2024-01-11", "mfa": false, "role": "viewer", "team": "data", "username": "nicholemiller"}, {"active": true, "id": "U-317", "last_login": "2024-03-13", "mfa": false, "role": "viewer", "team": "search", "username": "baileynatalie"}, {"active": true, "id": "U-318", "last_login": "2024-06-22", "mfa": true, "role": "viewer", "team": "web", "username": "jeffsolis"}, {"active": true, "id": "U-319", "last_login": "2024-02-01", "mfa": false, "role": "viewer", "team": "web", "username": "thomas33"}, {"active": true, "id": "U-320", "last_login": "2024-03-07", "mfa": true, "role": "editor", "team": "infra", "username": "qhawkins"}, {"active": false, "id": "U-321", "last_login": "2024-05-26", "mfa": true, "role": "viewer", "team": "infra", "username": "tpeters"}, {"active": true, "id": "U-322", "last_login": "2024-02-28", "mfa": true, "role": "viewer", "team": "search", "username": "kathleenaguirre"}, {"active": true, "id": "U-323", "last_login": "2024-04-13", "mfa": false, "role": "admin", "team": "infra", "username": "davidbowen"}, {"active": false, "id": "U-324", "last_login": "2024-01-14", "mfa": true, "role": "viewer", "team": "mobile", "username": "ochavez"}, {"active": true, "id": "U-325", "last_login": "2024-02-14", "mfa": false, "role": "editor", "team": "data", "username": "powerselizabeth"}, {"active": true, "id": "U-326", "last_login": "2024-02-29", "mfa": true, "role": "viewer", "team": "data", "username": "hwilson"}, {"active": true, "id": "U-327", "last_login": "2024-05-28", "mfa": true, "role": "viewer", "team": "payments", "username": "wisebrandon"}, {"active": false, "id": "U-328", "last_login": "2024-05-17", "mfa": true, "role": "viewer", "team": "mobile", "username": "andrew67"}, {"active": true, "id": "U-329", "last_login": "2024-02-09", "mfa": true, "role": "editor", "team": "infra", "username": "christopherfinley"}, {"active": false, "id": "U-330", "last_login": "2024-05-11", "mfa": true, "role": "viewer", "team": "infra", "username": "twatson"}, {"active": true, "id": "U-331", "last_login": "2024-02-03", "mfa": true, "role": "viewer", "team": "infra", "username": "cheryl50"}, {"active": false, "id": "U-332", "last_login": "2024-02-18", "mfa": true, "role": "viewer", "team": "payments", "username": "andrewrhodes"}, {"active": true, "id": "U-333", "last_login": "2024-06-03", "mfa": true, "role": "viewer", "team": "infra", "username": "schultzanne"}, {"active": true, "id": "U-334", "last_login": "2024-02-16", "mfa": true, "role": "viewer", "team": "search", "username": "xhughes"}, {"active": true, "id": "U-335", "last_login": "2024-03-23", "mfa": true, "role": "viewer", "team": "web", "username": "adamscott"}, {"active": true, "id": "U-336", "last_login": "2024-05-15", "mfa": false, "role": "viewer", "team": "data", "username": "michelle47"}, {"active": true, "id": "U-337", "last_login": "2024-06-19", "mfa": true, "role": "viewer", "team": "web", "username": "philip08"}, {"active": true, "id": "U-338", "last_login": "2024-01-19", "mfa": false, "role": "viewer", "team": "mobile", "username": "thompsonjackie"}, {"active": true, "id": "U-339", "last_login": "2024-05-15", "mfa": false, "role": "admin", "team": "data", "username": "vmurphy"}, {"active": true, "id": "U-340", "last_login": "2024-05-02", "mfa": false, "role": "viewer", "team": "search", "username": "amymorton"}, {"active": true, "id": "U-341", "last_login": "2024-02-17", "mfa": false, "role": "editor", "team": "infra", "username": "michael73"}, {"active": true, "id": "U-342", "last_login": "2024-02-05", "mfa": true, "role": "viewer", "team": "infra", "username": "jessica77"}, {"active": true, "id": "U-343", "last_login": "2024-05-09", "mfa": true, "role": "editor", "team": "infra", "username": "qryan"}, {"active": true, "id": "U-344", "last_login": "2023-12-27", "mfa": true, "role": "admin", "team": "web", "username": "garrettangelica"}, {"active": false, "id": "U-345", "last_login": "2023-12-22", "mfa": true, "role": "viewer", "team": "search", "username": "crodriguez"}, {"active": false, "id": "U-346", "last_login": "2024-01-25", "mfa": true, "role": "viewer", "team": "data", "username": "travis80"}, {"active": true, "id": "U-347", "last_login": "2024-03-26", "mfa": true, "role": "viewer", "team": "web", "username": "estesfelicia"}, {"active": true, "id": "U-348", "last_login": "2024-06-19", "mfa": true, "role": "viewer", "team": "infra", "username": "knappashley"}]}')


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
