"""Verify the json task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'json'
STATE = '/app/.helpdesk/state.json'
SEED = json.loads('[{"assignee": "rebecca", "comments": 13, "created": "2024-01-31", "customer": "Allen-Young", "id": "T-1001", "priority": "high", "status": "pending", "title": "Unable to log in"}, {"assignee": "stephen", "comments": 5, "created": "2024-03-30", "customer": "Baker Inc", "id": "T-1002", "priority": "normal", "status": "closed", "title": "Timeout while I change my plan"}, {"assignee": "laurie", "comments": 3, "created": "2024-02-06", "customer": "Mitchell PLC", "id": "T-1003", "priority": "high", "status": "closed", "title": "Unable to download receipts"}, {"assignee": "stephen", "comments": 0, "created": "2024-04-02", "customer": "Lopez, Hahn and Evans", "id": "T-1004", "priority": "low", "status": "open", "title": "Unable to sync contacts"}, {"assignee": "melissa", "comments": 3, "created": "2024-02-09", "customer": "Lopez, Hahn and Evans", "id": "T-1005", "priority": "low", "status": "pending", "title": "Unable to change my plan"}, {"assignee": "laurie", "comments": 2, "created": "2024-03-30", "customer": "Baker Inc", "id": "T-1006", "priority": "normal", "status": "pending", "title": "Timeout while I change my plan"}, {"assignee": "melissa", "comments": 8, "created": "2024-03-10", "customer": "Allen-Young", "id": "T-1007", "priority": "normal", "status": "closed", "title": "Cannot sync contacts"}, {"assignee": "melissa", "comments": 0, "created": "2024-06-29", "customer": "Baker Inc", "id": "T-1008", "priority": "high", "status": "closed", "title": "Timeout while I download receipts"}, {"assignee": "melissa", "comments": 1, "created": "2024-01-22", "customer": "Baker Inc", "id": "T-1009", "priority": "normal", "status": "closed", "title": "Timeout while I change my plan"}, {"assignee": "christine", "comments": 5, "created": "2024-01-09", "customer": "Burns-Mullen", "id": "T-1010", "priority": "normal", "status": "pending", "title": "Slow response when I sync contacts"}, {"assignee": "rebecca", "comments": 8, "created": "2024-01-13", "customer": "Mitchell PLC", "id": "T-1011", "priority": "normal", "status": "closed", "title": "Timeout while I upload an invoice"}, {"assignee": "laurie", "comments": 1, "created": "2024-06-23", "customer": "Mitchell PLC", "id": "T-1012", "priority": "high", "status": "closed", "title": "Slow response when I log in"}, {"assignee": "christine", "comments": 13, "created": "2024-01-03", "customer": "Baker Inc", "id": "T-1013", "priority": "normal", "status": "pending", "title": "Slow response when I log in"}, {"assignee": "christine", "comments": 1, "created": "2024-04-12", "customer": "Lopez, Hahn and Evans", "id": "T-1014", "priority": "low", "status": "open", "title": "Cannot download receipts"}, {"assignee": "stephen", "comments": 0, "created": "2024-06-29", "customer": "Flynn Inc", "id": "T-1015", "priority": "high", "status": "open", "title": "Error when trying to upload an invoice"}, {"assignee": "joe", "comments": 0, "created": "2024-05-23", "customer": "Mitchell PLC", "id": "T-1016", "priority": "low", "status": "closed", "title": "Timeout while I reset my password"}, {"assignee": "christine", "comments": 0, "created": "2024-01-06", "customer": "Baker Inc", "id": "T-1017", "priority": "normal", "status": "pending", "title": "Error when trying to export the report"}, {"assignee": "rebecca", "comments": 0, "created": "2024-06-28", "customer": "Burns-Mullen", "id": "T-1018", "priority": "normal", "status": "open", "title": "Error when trying to upload an invoice"}, {"assignee": "rebecca", "comments": 5, "created": "2024-02-27", "customer": "Flynn Inc", "id": "T-1019", "priority": "normal", "status": "pending", "title": "Unable to download receipts"}, {"assignee": "melissa", "comments": 0, "created": "2024-04-18", "customer": "Flynn Inc", "id": "T-1020", "priority": "normal", "status": "open", "title": "Slow response when I export the report"}, {"assignee": "melissa", "comments": 8, "created": "2024-01-03", "customer": "Allen-Young", "id": "T-1021", "priority": "normal", "status": "open", "title": "Slow response when I sync contacts"}, {"assignee": "stephen", "comments": 2, "created": "2024-05-13", "customer": "Mitchell PLC", "id": "T-1022", "priority": "urgent", "status": "pending", "title": "Timeout while I change my plan"}, {"assignee": "melissa", "comments": 1, "created": "2024-02-24", "customer": "Burns-Mullen", "id": "T-1023", "priority": "normal", "status": "closed", "title": "Unable to download receipts"}, {"assignee": "stephen", "comments": 0, "created": "2024-01-01", "customer": "Allen-Young", "id": "T-1024", "priority": "urgent", "status": "pending", "title": "Slow response when I reset my password"}, {"assignee": "joe", "comments": 0, "created": "2024-06-18", "customer": "Flynn Inc", "id": "T-1025", "priority": "low", "status": "open", "title": "Slow response when I open the dashboard"}, {"assignee": "joe", "comments": 0, "created": "2024-02-11", "customer": "Flynn Inc", "id": "T-1026", "priority": "low", "status": "open", "title": "Unable to export the report"}, {"assignee": "stephen", "comments": 0, "created": "2024-03-26", "customer": "Allen-Young", "id": "T-1027", "priority": "high", "status": "closed", "title": "Error when trying to log in"}, {"assignee": "christine", "comments": 0, "created": "2024-02-19", "customer": "Mitchell PLC", "id": "T-1028", "priority": "low", "status": "pending", "title": "Slow response when I download receipts"}]')
TASK = json.loads('{"expected": {"high": 1, "low": 2, "normal": 5, "urgent": 2}, "path": "/app/report.json"}')


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
