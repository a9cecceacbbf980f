"""Verify the create task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'create'
STATE = '/app/.directory/state.json'
SEED = json.loads('[{"active": true, "id": "U-301", "last_login": "2024-06-25", "mfa": false, "role": "viewer", "team": "web", "username": "bradleymontgomery"}, {"active": false, "id": "U-302", "last_login": "2024-05-10", "mfa": true, "role": "admin", "team": "mobile", "username": "jennifer10"}, {"active": true, "id": "U-303", "last_login": "2023-12-23", "mfa": false, "role": "viewer", "team": "mobile", "username": "trivera"}, {"active": true, "id": "U-304", "last_login": "2024-04-01", "mfa": true, "role": "viewer", "team": "payments", "username": "macdonaldsherry"}, {"active": false, "id": "U-305", "last_login": "2024-04-12", "mfa": true, "role": "editor", "team": "mobile", "username": "lori83"}, {"active": true, "id": "U-306", "last_login": "2024-05-28", "mfa": true, "role": "admin", "team": "web", "username": "rodriguezautumn"}, {"active": false, "id": "U-307", "last_login": "2024-05-16", "mfa": false, "role": "viewer", "team": "search", "username": "gloria59"}, {"active": true, "id": "U-308", "last_login": "2024-06-12", "mfa": true, "role": "editor", "team": "infra", "username": "harrisdoris"}, {"active": true, "id": "U-309", "last_login": "2024-02-19", "mfa": false, "role": "viewer", "team": "search", "username": "onelson"}, {"active": true, "id": "U-310", "last_login": "2024-01-13", "mfa": true, "role": "viewer", "team": "mobile", "username": "alan27"}, {"active": true, "id": "U-311", "last_login": "2024-02-11", "mfa": true, "role": "editor", "team": "data", "username": "washingtonwhitney"}, {"active": false, "id": "U-312", "last_login": "2024-06-17", "mfa": false, "role": "viewer", "team": "data", "username": "dperry"}, {"active": true, "id": "U-313", "last_login": "2024-05-13", "mfa": false, "role": "admin", "team": "infra", "username": "rojasheather"}, {"active": false, "id": "U-314", "last_login": "2024-02-04", "mfa": true, "role": "viewer", "team": "data", "username": "lindsey66"}, {"active": false, "id": "U-315", "last_login": "2024-03-17", "mfa": true, "role": "viewer", "team": "web", "username": "melissabrown"}, {"active": false, "id": "U-316", "last_login": "2024-06-24", "mfa": true, "role": "viewer", "team": "payments", "username": "mariah01"}, {"active": false, "id": "U-317", "last_login": "2024-05-31", "mfa": false, "role": "editor", "team": "mobile", "username": "iwhite"}, {"active": false, "id": "U-318", "last_login": "2024-01-20", "mfa": true, "role": "admin", "team": "web", "username": "alicia09"}, {"active": true, "id": "U-319", "last_login": "2024-01-18", "mfa": false, "role": "editor", "team": "infra", "username": "cstewart"}, {"active": true, "id": "U-320", "last_login": "2024-03-10", "mfa": true, "role": "admin", "team": "payments", "username": "lee42"}, {"active": true, "id": "U-321", "last_login": "2024-03-20", "mfa": false, "role": "admin", "team": "web", "username": "jeffreykennedy"}, {"active": true, "id": "U-322", "last_login": "2024-05-20", "mfa": true, "role": "admin", "team": "search", "username": "hleon"}, {"active": true, "id": "U-323", "last_login": "2024-01-21", "mfa": false, "role": "editor", "team": "search", "username": "brian54"}, {"active": false, "id": "U-324", "last_login": "2024-01-12", "mfa": true, "role": "viewer", "team": "mobile", "username": "watkinsjohn"}, {"active": false, "id": "U-325", "last_login": "2024-03-25", "mfa": false, "role": "editor", "team": "data", "username": "lyang"}, {"active": false, "id": "U-326", "last_login": "2023-12-26", "mfa": true, "role": "viewer", "team": "infra", "username": "sophiachapman"}, {"active": false, "id": "U-327", "last_login": "2024-04-20", "mfa": false, "role": "viewer", "team": "payments", "username": "fsmith"}, {"active": true, "id": "U-328", "last_login": "2024-03-09", "mfa": false, "role": "viewer", "team": "mobile", "username": "jonkhan"}, {"active": true, "id": "U-329", "last_login": "2024-01-15", "mfa": true, "role": "viewer", "team": "search", "username": "tjohnson"}, {"active": true, "id": "U-330", "last_login": "2024-01-27", "mfa": false, "role": "editor", "team": "infra", "username": "elizabeth64"}, {"active": false, "id": "U-331", "last_login": "2024-02-15", "mfa": true, "role": "viewer", "team": "search", "username": "fcameron"}, {"active": true, "id": "U-332", "last_login": "2023-12-20", "mfa": false, "role": "viewer", "team": "web", "username": "nproctor"}, {"active": true, "id": "U-333", "last_login": "2024-04-19", "mfa": false, "role": "viewer", "team": "infra", "username": "linda73"}, {"active": true, "id": "U-334", "last_login": "2024-05-19", "mfa": true, "role": "viewer", "team": "payments", "username": "jjohnson"}, {"active": true, "id": "U-335", "last_login": "2024-06-06", "mfa": true, "role": "viewer", "team": "data", "username": "marcrusso"}, {"active": false, "id": "U-336", "last_login": "2024-04-29", "mfa": false, "role": "viewer", "team": "search", "username": "autumn80"}, {"active": true, "id": "U-337", "last_login": "2024-03-29", "mfa": true, "role": "viewer", "team": "data", "username": "ibarrajames"}, {"active": false, "id": "U-338", "last_login": "2024-06-04", "mfa": true, "role": "viewer", "team": "web", "username": "michaelhines"}, {"active": false, "id": "U-339", "last_login": "2023-12-20", "mfa": false, "role": "admin", "team": "payments", "username": "kclark"}, {"active": false, "id": "U-340", "last_login": "2024-04-01", "mfa": true, "role": "viewer", "team": "data", "username": "alexa94"}, {"active": true, "id": "U-341", "last_login": "2024-06-06", "mfa": true, "role": "admin", "team": "data", "username": "grichmond"}, {"active": false, "id": "U-342", "last_login": "2023-12-15", "mfa": true, "role": "viewer", "team": "search", "username": "annjohnson"}, {"active": false, "id": "U-343", "last_login": "2024-04-07", "mfa": false, "role": "editor", "team": "payments", "username": "robert30"}, {"active": true, "id": "U-344", "last_login": "2024-06-16", "mfa": false, "role": "viewer", "team": "payments", "username": "philip86"}, {"active": true, "id": "U-345", "last_login": "2024-05-24", "mfa": true, "role": "editor", "team": "payments", "username": "gwilson"}, {"active": true, "id": "U-346", "last_login": "2024-04-21", "mfa": false, "role": "viewer", "team": "search", "username": "nfleming"}, {"active": false, "id": "U-347", "last_login": "2024-04-26", "mfa": true, "role": "editor", "team": "search", "username": "walkerjamie"}, {"active": true, "id": "U-348", "last_login": "2024-02-19", "mfa": true, "role": "viewer", "team": "data", "username": "michaelanderson"}, {"active": true, "id": "U-349", "last_login": "2024-05-07", "mfa": true, "role": "editor", "team": "infra", "username": "summersjoseph"}, {"active": true, "id": "U-350", "last_login": "2024-01-14", "mfa": false, "role": "editor", "team": "data", "username": "kreeves"}, {"active": true, "id": "U-351", "last_login": "2024-04-02", "mfa": true, "role": "admin", "team": "web", "username": "mitchellchapman"}, {"active": true, "id": "U-352", "last_login": "2024-01-17", "mfa": true, "role": "admin", "team": "payments", "username": "krivas"}, {"active": true, "id": "U-353", "last_login": "2024-04-18", "mfa": true, "role": "editor", "team": "payments", "username": "hodgedavid"}, {"active": false, "id": "U-354", "last_login": "2024-06-08", "mfa": true, "role": "editor", "team": "search", "username": "craig12"}, {"active": true, "id": "U-355", "last_login": "2024-03-19", "mfa": true, "role": "editor", "team": "payments", "username": "sgonzales"}, {"active": true, "id": "U-356", "last_login": "2024-06-09", "mfa": true, "role": "editor", "team": "payments", "username": "nicholasbrown"}, {"active": true, "id": "U-357", "last_login": "2024-05-17", "mfa": true, "role": "admin", "team": "web", "username": "antonio93"}, {"active": true, "id": "U-358", "last_login": "2024-02-05", "mfa": true, "role": "editor", "team": "web", "username": "davisdavid"}, {"active": true, "id": "U-359", "last_login": "2024-03-25", "mfa": true, "role": "viewer", "team": "data", "username": "christopher92"}, {"active": true, "id": "U-360", "last_login": "2024-01-20", "mfa": false, "role": "admin", "team": "web", "username": "curtisneal"}, {"active": false, "id": "U-361", "last_login": "2024-04-16", "mfa": false, "role": "viewer", "team": "data", "username": "danielle07"}, {"active": true, "id": "U-362", "last_login": "2024-04-23", "mfa": false, "role": "viewer", "team": "payments", "username": "danderson"}, {"active": true, "id": "U-363", "last_login": "2024-01-11", "mfa": true, "role": "viewer", "team": "payments", "username": "creyes"}, {"active": true, "id": "U-364", "last_login": "2024-03-18", "mfa": true, "role": "viewer", "team": "search", "username": "fernandezharold"}, {"active": true, "id": "U-365", "last_login": "2024-02-27", "mfa": true, "role": "viewer", "team": "payments", "username": "jasonjames"}, {"active": false, "id": "U-366", "last_login": "2024-04-13", "mfa": false, "role": "viewer", "team": "payments", "username": "williamsshannon"}, {"active": true, "id": "U-367", "last_login": "2024-02-29", "mfa": true, "role": "viewer", "team": "mobile", "username": "greenelaura"}, {"active": true, "id": "U-368", "last_login": "2024-01-25", "mfa": true, "role": "editor", "team": "mobile", "username": "powellpeter"}, {"active": false, "id": "U-369", "last_login": "2023-12-25", "mfa": false, "role": "viewer", "team": "infra", "username": "nbenton"}, {"active": true, "id": "U-370", "last_login": "2024-03-20", "mfa": true, "role": "editor", "team": "web", "username": "jonathandiaz"}, {"active": true, "id": "U-371", "last_login": "2024-04-06", "mfa": false, "role": "viewer", "team": "web", "username": "anthonyfranklin"}, {"active": true, "id": "U-372", "last_login": "2024-05-12", "mfa": true, "role": "editor", "team": "web", "username": "rsantos"}, {"active": true, "id": "U-373", "last_login": "2024-06-13", "mfa": true, "role": "editor", "team": "infra", "username": "coreycook"}, {"active": true, "id": "U-374", "last_login": "2024-02-07", "mfa": true, "role": "editor", "team": "mobile", "username": "adamslori"}, {"active": true, "id": "U-375", "last_login": "2024-04-18", "mfa": true, "role": "viewer", "team": "mobile", "username": "manuel45"}, {"active": true, "id": "U-376", "last_login": "2024-03-06", "mfa": false, "role": "viewer", "team": "search", "username": "reynoldsrichard"}, {"active": true, "id": "U-377", "last_login": "2024-06-02", "mfa": false, "role": "viewer", "team": "infra", "username": "jhernandez"}, {"active": false, "id": "U-378", "last_login": "2024-03-12", "mfa": false, "role": "viewer", "team": "web", "username": "kayla49"}, {"active": true, "id": "U-379", "last_login": "2024-05-13", "mfa": true, "role": "viewer", "team": "web", "username": "cassandranavarro"}, {"active": true, "id": "U-380", "last_login": "2024-06-06", "mfa": false, "role": "editor", "team": "infra", "username": "michael84"}, {"active": false, "id": "U-381", "last_login": "2024-01-24", "mfa": true, "role": "admin", "team": "web", "username": "taylorjane"}, {"active": true, "id": "U-382", "last_login": "2024-01-07", "mfa": true, "role": "viewer", "team": "web", "username": "jessicajames"}, {"active": true, "id": "U-383", "last_login": "2024-06-08", "mfa": false, "role": "viewer", "team": "data", "username": "barryregina"}, {"active": false, "id": "U-384", "last_login": "2024-04-13", "mfa": true, "role": "viewer", "team": "infra", "username": "johnsonamanda"}, {"active": false, "id": "U-385", "last_login": "2024-06-13", "mfa": true, "role": "viewer", "team": "search", "username": "gabriel36"}, {"active": false, "id": "U-386", "last_login": "2024-05-28", "mfa": false, "role": "viewer", "team": "search", "username": "nataliechavez"}, {"active": true, "id": "U-387", "last_login": "2024-06-21", "mfa": true, "role": "editor", "team": "data", "username": "brucejames"}, {"active": false, "id": "U-388", "last_login": "2024-06-12", "mfa": false, "role": "editor", "team": "payments", "username": "kennethrojas"}, {"active": true, "id": "U-389", "last_login": "2024-06-10", "mfa": true, "role": "viewer", "team": "web", "username": "qbailey"}, {"active": true, "id": "U-390", "last_login": "2024-03-03", "mfa": true, "role": "viewer", "team": "infra", "username": "twallace"}, {"active": false, "id": "U-391", "last_login": "2024-01-16", "mfa": true, "role": "viewer", "team": "mobile", "username": "simsmaria"}, {"active": false, "id": "U-392", "last_login": "2024-04-04", "mfa": true, "role": "viewer", "team": "search", "username": "thomassmith"}, {"active": true, "id": "U-393", "last_login": "2024-03-03", "mfa": true, "role": "viewer", "team": "infra", "username": "mmiller"}, {"active": false, "id": "U-394", "last_login": "2024-02-15", "mfa": true, "role": "admin", "team": "data", "username": "chenrobert"}, {"active": true, "id": "U-395", "last_login": "2024-02-06", "mfa": true, "role": "admin", "team": "web", "username": "ygeorge"}, {"active": true, "id": "U-396", "last_login": "2024-02-05", "mfa": true, "role": "editor", "team": "data", "username": "marcus95"}]')
TASK = json.loads('{"columns": ["username", "team", "role"], "new": [["asmith5", "search", "editor"], ["kchen3", "payments", "editor"], ["hkim6", "payments", "editor"], ["rpatel3", "search", "editor"], ["tnguyen6", "search", "viewer"], ["sdubois5", "payments", "editor"], ["oadeyemi9", "mobile", "editor"], ["oadeyemi2", "web", "editor"]]}')


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
