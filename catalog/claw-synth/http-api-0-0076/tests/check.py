"""Verify the json task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'json'
STATE = '/app/.directory/state.json'
SEED = json.loads('[{"active": true, "id": "U-301", "last_login": "2024-02-08", "mfa": true, "role": "viewer", "team": "payments", "username": "foxtyler"}, {"active": true, "id": "U-302", "last_login": "2024-05-14", "mfa": true, "role": "editor", "team": "search", "username": "biancaharvey"}, {"active": true, "id": "U-303", "last_login": "2024-03-30", "mfa": false, "role": "viewer", "team": "data", "username": "osantos"}, {"active": true, "id": "U-304", "last_login": "2024-04-27", "mfa": true, "role": "editor", "team": "web", "username": "gregory28"}, {"active": true, "id": "U-305", "last_login": "2024-03-20", "mfa": true, "role": "admin", "team": "payments", "username": "richardkeller"}, {"active": true, "id": "U-306", "last_login": "2024-02-19", "mfa": true, "role": "viewer", "team": "search", "username": "carol88"}, {"active": true, "id": "U-307", "last_login": "2024-04-01", "mfa": true, "role": "viewer", "team": "data", "username": "michaelwilliamson"}, {"active": true, "id": "U-308", "last_login": "2023-12-22", "mfa": true, "role": "viewer", "team": "data", "username": "lindseyjeff"}, {"active": true, "id": "U-309", "last_login": "2024-02-08", "mfa": true, "role": "viewer", "team": "infra", "username": "tperez"}, {"active": true, "id": "U-310", "last_login": "2024-04-15", "mfa": true, "role": "viewer", "team": "mobile", "username": "jking"}, {"active": true, "id": "U-311", "last_login": "2023-12-23", "mfa": true, "role": "admin", "team": "data", "username": "omartin"}, {"active": false, "id": "U-312", "last_login": "2024-01-05", "mfa": false, "role": "viewer", "team": "mobile", "username": "qhampton"}, {"active": true, "id": "U-313", "last_login": "2024-05-17", "mfa": false, "role": "admin", "team": "infra", "username": "jennifermassey"}, {"active": true, "id": "U-314", "last_login": "2024-05-27", "mfa": true, "role": "viewer", "team": "mobile", "username": "jeanettecastro"}, {"active": true, "id": "U-315", "last_login": "2024-06-25", "mfa": false, "role": "viewer", "team": "data", "username": "davisandrew"}, {"active": true, "id": "U-316", "last_login": "2024-05-09", "mfa": true, "role": "editor", "team": "data", "username": "rcarpenter"}, {"active": true, "id": "U-317", "last_login": "2024-02-23", "mfa": true, "role": "editor", "team": "search", "username": "fergusonheather"}, {"active": true, "id": "U-318", "last_login": "2024-02-20", "mfa": true, "role": "viewer", "team": "web", "username": "felicia37"}, {"active": false, "id": "U-319", "last_login": "2023-12-23", "mfa": true, "role": "editor", "team": "data", "username": "andersenlisa"}, {"active": false, "id": "U-320", "last_login": "2024-03-26", "mfa": false, "role": "viewer", "team": "mobile", "username": "lcampbell"}, {"active": true, "id": "U-321", "last_login": "2024-02-18", "mfa": false, "role": "admin", "team": "data", "username": "villegasdonald"}, {"active": false, "id": "U-322", "last_login": "2024-06-22", "mfa": false, "role": "viewer", "team": "data", "username": "ugutierrez"}, {"active": true, "id": "U-323", "last_login": "2024-03-26", "mfa": false, "role": "editor", "team": "search", "username": "joshuaosborne"}, {"active": true, "id": "U-324", "last_login": "2024-06-14", "mfa": false, "role": "viewer", "team": "data", "username": "andrewskelly"}, {"active": false, "id": "U-325", "last_login": "2024-04-04", "mfa": false, "role": "viewer", "team": "mobile", "username": "jenniferrichardson"}, {"active": true, "id": "U-326", "last_login": "2024-02-28", "mfa": true, "role": "editor", "team": "web", "username": "wumegan"}, {"active": true, "id": "U-327", "last_login": "2024-04-22", "mfa": true, "role": "admin", "team": "infra", "username": "roy63"}, {"active": true, "id": "U-328", "last_login": "2024-06-01", "mfa": true, "role": "viewer", "team": "mobile", "username": "nancymcdaniel"}, {"active": true, "id": "U-329", "last_login": "2024-03-25", "mfa": true, "role": "viewer", "team": "web", "username": "caldwelldaniel"}, {"active": false, "id": "U-330", "last_login": "2024-02-01", "mfa": true, "role": "editor", "team": "web", "username": "michelle41"}, {"active": true, "id": "U-331", "last_login": "2024-02-27", "mfa": false, "role": "viewer", "team": "web", "username": "maria41"}, {"active": false, "id": "U-332", "last_login": "2024-05-07", "mfa": true, "role": "viewer", "team": "payments", "username": "melissa52"}, {"active": true, "id": "U-333", "last_login": "2024-05-30", "mfa": false, "role": "viewer", "team": "search", "username": "gphillips"}, {"active": true, "id": "U-334", "last_login": "2024-02-26", "mfa": true, "role": "admin", "team": "payments", "username": "margaretmoreno"}, {"active": true, "id": "U-335", "last_login": "2024-05-11", "mfa": true, "role": "viewer", "team": "data", "username": "dhurst"}, {"active": true, "id": "U-336", "last_login": "2024-03-15", "mfa": false, "role": "viewer", "team": "payments", "username": "debraellis"}, {"active": true, "id": "U-337", "last_login": "2024-03-25", "mfa": true, "role": "viewer", "team": "data", "username": "laurie85"}, {"active": false, "id": "U-338", "last_login": "2024-02-15", "mfa": true, "role": "viewer", "team": "web", "username": "spennington"}, {"active": true, "id": "U-339", "last_login": "2024-04-03", "mfa": false, "role": "editor", "team": "mobile", "username": "lflynn"}, {"active": true, "id": "U-340", "last_login": "2023-12-23", "mfa": true, "role": "admin", "team": "web", "username": "esmith"}, {"active": true, "id": "U-341", "last_login": "2024-01-06", "mfa": false, "role": "editor", "team": "payments", "username": "hallbrittany"}, {"active": false, "id": "U-342", "last_login": "2024-06-07", "mfa": true, "role": "editor", "team": "search", "username": "porterstephanie"}, {"active": true, "id": "U-343", "last_login": "2024-02-02", "mfa": false, "role": "viewer", "team": "data", "username": "qwilkinson"}, {"active": true, "id": "U-344", "last_login": "2024-01-01", "mfa": true, "role": "viewer", "team": "web", "username": "zprice"}, {"active": true, "id": "U-345", "last_login": "2024-05-24", "mfa": true, "role": "viewer", "team": "data", "username": "kaylagonzalez"}, {"active": false, "id": "U-346", "last_login": "2024-02-20", "mfa": false, "role": "viewer", "team": "mobile", "username": "richardberg"}, {"active": true, "id": "U-347", "last_login": "2024-03-18", "mfa": true, "role": "editor", "team": "payments", "username": "emilyparks"}, {"active": true, "id": "U-348", "last_login": "2024-03-07", "mfa": true, "role": "admin", "team": "data", "username": "jenniferperez"}, {"active": true, "id": "U-349", "last_login": "2024-03-06", "mfa": true, "role": "viewer", "team": "infra", "username": "ricardosimmons"}, {"active": true, "id": "U-350", "last_login": "2024-03-17", "mfa": true, "role": "viewer", "team": "infra", "username": "angela19"}, {"active": true, "id": "U-351", "last_login": "2024-05-09", "mfa": false, "role": "viewer", "team": "web", "username": "jonathanvargas"}, {"active": false, "id": "U-352", "last_login": "2024-02-04", "mfa": true, "role": "viewer", "team": "search", "username": "carolsmith"}, {"active": true, "id": "U-353", "last_login": "2024-05-22", "mfa": true, "role": "editor", "team": "search", "username": "lwilson"}, {"active": true, "id": "U-354", "last_login": "2024-04-08", "mfa": false, "role": "editor", "team": "mobile", "username": "benjaminwalker"}, {"active": false, "id": "U-355", "last_login": "2024-04-28", "mfa": true, "role": "viewer", "team": "data", "username": "sean99"}, {"active": true, "id": "U-356", "last_login": "2023-12-31", "mfa": true, "role": "viewer", "team": "data", "username": "leonardsalas"}, {"active": true, "id": "U-357", "last_login": "2024-01-27", "mfa": true, "role": "editor", "team": "payments", "username": "rebekahlang"}, {"active": true, "id": "U-358", "last_login": "2024-02-28", "mfa": false, "role": "editor", "team": "mobile", "username": "joseph26"}, {"active": true, "id": "U-359", "last_login": "2024-02-07", "mfa": false, "role": "viewer", "team": "infra", "username": "robertsmichael"}, {"active": true, "id": "U-360", "last_login": "2023-12-13", "mfa": true, "role": "editor", "team": "mobile", "username": "stephanieramos"}, {"active": true, "id": "U-361", "last_login": "2024-01-26", "mfa": false, "role": "admin", "team": "infra", "username": "cobbomar"}, {"active": true, "id": "U-362", "last_login": "2024-01-27", "mfa": false, "role": "admin", "team": "search", "username": "xbenson"}, {"active": false, "id": "U-363", "last_login": "2024-04-24", "mfa": true, "role": "viewer", "team": "payments", "username": "zhunt"}, {"active": true, "id": "U-364", "last_login": "2024-03-10", "mfa": false, "role": "editor", "team": "infra", "username": "odavis"}, {"active": true, "id": "U-365", "last_login": "2024-05-09", "mfa": true, "role": "editor", "team": "web", "username": "newtonleah"}, {"active": true, "id": "U-366", "last_login": "2023-12-17", "mfa": true, "role": "viewer", "team": "web", "username": "cwagner"}, {"active": true, "id": "U-367", "last_login": "2024-03-07", "mfa": true, "role": "viewer", "team": "data", "username": "michelle43"}, {"active": true, "id": "U-368", "last_login": "2024-04-29", "mfa": false, "role": "viewer", "team": "mobile", "username": "meyerpatricia"}, {"active": true, "id": "U-369", "last_login": "2024-04-16", "mfa": false, "role": "viewer", "team": "payments", "username": "navarrochase"}, {"active": true, "id": "U-370", "last_login": "2024-01-02", "mfa": false, "role": "admin", "team": "data", "username": "carlos42"}, {"active": true, "id": "U-371", "last_login": "2024-04-08", "mfa": false, "role": "viewer", "team": "payments", "username": "kjennings"}, {"active": true, "id": "U-372", "last_login": "2024-05-17", "mfa": true, "role": "viewer", "team": "infra", "username": "ravery"}, {"active": false, "id": "U-373", "last_login": "2024-01-17", "mfa": true, "role": "editor", "team": "payments", "username": "umason"}, {"active": true, "id": "U-374", "last_login": "2024-02-23", "mfa": true, "role": "editor", "team": "payments", "username": "gregory57"}, {"active": true, "id": "U-375", "last_login": "2024-05-14", "mfa": false, "role": "viewer", "team": "search", "username": "robert71"}, {"active": true, "id": "U-376", "last_login": "2024-03-22", "mfa": false, "role": "viewer", "team": "search", "username": "barnesamanda"}]')
TASK = json.loads('{"expected": {"data": {"total": 4, "without_mfa": 2}, "infra": {"total": 3, "without_mfa": 2}, "payments": {"total": 2, "without_mfa": 0}, "search": {"total": 1, "without_mfa": 1}, "web": {"total": 1, "without_mfa": 0}}, "path": "/app/report.json"}')


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
