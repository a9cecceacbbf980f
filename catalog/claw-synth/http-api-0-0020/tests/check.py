"""Verify the patch task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'patch'
STATE = '/app/.helpdesk/state.json'
SEED = json.loads('[{"assignee": "george", "comments": 2, "created": "2024-05-30", "customer": "Owens Group", "id": "T-1001", "priority": "urgent", "status": "open", "title": "Timeout while I open the dashboard"}, {"assignee": "monica", "comments": 13, "created": "2024-04-30", "customer": "Garner and Sons", "id": "T-1002", "priority": "normal", "status": "closed", "title": "Error when trying to log in"}, {"assignee": "cassandra", "comments": 1, "created": "2024-01-27", "customer": "Owens Group", "id": "T-1003", "priority": "low", "status": "closed", "title": "Error when trying to reset my password"}, {"assignee": "monica", "comments": 0, "created": "2024-01-24", "customer": "Wise PLC", "id": "T-1004", "priority": "normal", "status": "pending", "title": "Error when trying to export the report"}, {"assignee": "katherine", "comments": 5, "created": "2024-06-22", "customer": "Garner and Sons", "id": "T-1005", "priority": "normal", "status": "pending", "title": "Timeout while I sync contacts"}, {"assignee": "lisa", "comments": 8, "created": "2024-04-14", "customer": "Wise PLC", "id": "T-1006", "priority": "urgent", "status": "open", "title": "Cannot log in"}, {"assignee": "katherine", "comments": 1, "created": "2024-04-19", "customer": "Garner and Sons", "id": "T-1007", "priority": "low", "status": "open", "title": "Error when trying to change my plan"}, {"assignee": "andrea", "comments": 0, "created": "2024-06-16", "customer": "Owens Group", "id": "T-1008", "priority": "normal", "status": "open", "title": "Timeout while I change my plan"}, {"assignee": "cassandra", "comments": 5, "created": "2024-06-16", "customer": "Washington, Johnson and Swanson", "id": "T-1009", "priority": "low", "status": "open", "title": "Timeout while I log in"}, {"assignee": "monica", "comments": 3, "created": "2024-06-05", "customer": "Ortiz, Scott and Meyer", "id": "T-1010", "priority": "normal", "status": "pending", "title": "Timeout while I reset my password"}, {"assignee": "andrea", "comments": 3, "created": "2024-05-31", "customer": "Washington, Johnson and Swanson", "id": "T-1011", "priority": "normal", "status": "open", "title": "Timeout while I sync contacts"}, {"assignee": "lisa", "comments": 3, "created": "2024-04-14", "customer": "Washington, Johnson and Swanson", "id": "T-1012", "priority": "urgent", "status": "open", "title": "Unable to open the dashboard"}, {"assignee": "cassandra", "comments": 5, "created": "2024-05-23", "customer": "Garner and Sons", "id": "T-1013", "priority": "low", "status": "open", "title": "Timeout while I change my plan"}, {"assignee": "george", "comments": 13, "created": "2024-02-24", "customer": "Ortiz, Scott and Meyer", "id": "T-1014", "priority": "high", "status": "closed", "title": "Error when trying to export the report"}, {"assignee": "cassandra", "comments": 8, "created": "2024-02-01", "customer": "Washington, Johnson and Swanson", "id": "T-1015", "priority": "low", "status": "open", "title": "Error when trying to upload an invoice"}, {"assignee": "katherine", "comments": 3, "created": "2024-03-04", "customer": "Ortiz, Scott and Meyer", "id": "T-1016", "priority": "high", "status": "closed", "title": "Cannot export the report"}, {"assignee": "katherine", "comments": 2, "created": "2024-01-25", "customer": "Washington, Johnson and Swanson", "id": "T-1017", "priority": "normal", "status": "pending", "title": "Slow response when I download receipts"}, {"assignee": "george", "comments": 13, "created": "2024-03-29", "customer": "Garner and Sons", "id": "T-1018", "priority": "high", "status": "closed", "title": "Timeout while I open the dashboard"}, {"assignee": "katherine", "comments": 3, "created": "2024-04-16", "customer": "Mcdonald Ltd", "id": "T-1019", "priority": "normal", "status": "closed", "title": "Error when trying to change my plan"}, {"assignee": "cassandra", "comments": 3, "created": "2024-03-23", "customer": "Mcdonald Ltd", "id": "T-1020", "priority": "normal", "status": "open", "title": "Slow response when I sync contacts"}, {"assignee": "george", "comments": 1, "created": "2024-03-08", "customer": "Garner and Sons", "id": "T-1021", "priority": "high", "status": "closed", "title": "Timeout while I change my plan"}, {"assignee": "cassandra", "comments": 5, "created": "2024-05-05", "customer": "Washington, Johnson and Swanson", "id": "T-1022", "priority": "normal", "status": "open", "title": "Slow response when I upload an invoice"}, {"assignee": "katherine", "comments": 2, "created": "2024-02-26", "customer": "Washington, Johnson and Swanson", "id": "T-1023", "priority": "urgent", "status": "closed", "title": "Timeout while I open the dashboard"}, {"assignee": "lisa", "comments": 0, "created": "2024-03-22", "customer": "Wise PLC", "id": "T-1024", "priority": "low", "status": "open", "title": "Timeout while I change my plan"}, {"assignee": "andrea", "comments": 0, "created": "2024-06-02", "customer": "Mcdonald Ltd", "id": "T-1025", "priority": "normal", "status": "closed", "title": "Error when trying to upload an invoice"}, {"assignee": "andrea", "comments": 1, "created": "2024-04-02", "customer": "Wise PLC", "id": "T-1026", "priority": "normal", "status": "open", "title": "Timeout while I change my plan"}, {"assignee": "george", "comments": 0, "created": "2024-06-15", "customer": "Mcdonald Ltd", "id": "T-1027", "priority": "low", "status": "closed", "title": "Error when trying to change my plan"}, {"assignee": "lisa", "comments": 8, "created": "2024-05-10", "customer": "Ortiz, Scott and Meyer", "id": "T-1028", "priority": "normal", "status": "pending", "title": "Timeout while I change my plan"}, {"assignee": "george", "comments": 0, "created": "2024-01-11", "customer": "Garner and Sons", "id": "T-1029", "priority": "normal", "status": "closed", "title": "Slow response when I upload an invoice"}, {"assignee": "katherine", "comments": 5, "created": "2024-02-04", "customer": "Wise PLC", "id": "T-1030", "priority": "normal", "status": "open", "title": "Slow response when I sync contacts"}, {"assignee": "katherine", "comments": 8, "created": "2024-01-11", "customer": "Mcdonald Ltd", "id": "T-1031", "priority": "low", "status": "pending", "title": "Cannot reset my password"}, {"assignee": "george", "comments": 3, "created": "2024-04-19", "customer": "Owens Group", "id": "T-1032", "priority": "urgent", "status": "closed", "title": "Timeout while I export the report"}, {"assignee": "andrea", "comments": 3, "created": "2024-06-14", "customer": "Washington, Johnson and Swanson", "id": "T-1033", "priority": "normal", "status": "open", "title": "Timeout while I download receipts"}, {"assignee": "lisa", "comments": 13, "created": "2024-06-29", "customer": "Garner and Sons", "id": "T-1034", "priority": "low", "status": "open", "title": "Cannot reset my password"}, {"assignee": "george", "comments": 1, "created": "2024-06-09", "customer": "Wise PLC", "id": "T-1035", "priority": "low", "status": "pending", "title": "Unable to download receipts"}, {"assignee": "katherine", "comments": 3, "created": "2024-05-23", "customer": "Wise PLC", "id": "T-1036", "priority": "normal", "status": "closed", "title": "Timeout while I download receipts"}, {"assignee": "cassandra", "comments": 8, "created": "2024-04-28", "customer": "Ortiz, Scott and Meyer", "id": "T-1037", "priority": "normal", "status": "closed", "title": "Timeout while I export the report"}, {"assignee": "monica", "comments": 0, "created": "2024-06-05", "customer": "Garner and Sons", "id": "T-1038", "priority": "low", "status": "pending", "title": "Unable to download receipts"}, {"assignee": "george", "comments": 3, "created": "2024-03-29", "customer": "Mcdonald Ltd", "id": "T-1039", "priority": "high", "status": "pending", "title": "Error when trying to download receipts"}, {"assignee": "katherine", "comments": 8, "created": "2024-05-01", "customer": "Garner and Sons", "id": "T-1040", "priority": "normal", "status": "pending", "title": "Cannot sync contacts"}, {"assignee": "andrea", "comments": 2, "created": "2024-06-26", "customer": "Washington, Johnson and Swanson", "id": "T-1041", "priority": "high", "status": "open", "title": "Unable to open the dashboard"}, {"assignee": "george", "comments": 5, "created": "2024-04-10", "customer": "Owens Group", "id": "T-1042", "priority": "low", "status": "closed", "title": "Timeout while I sync contacts"}, {"assignee": "lisa", "comments": 0, "created": "2024-03-01", "customer": "Ortiz, Scott and Meyer", "id": "T-1043", "priority": "urgent", "status": "closed", "title": "Timeout while I upload an invoice"}]')
TASK = json.loads('{"changed": 5, "expected": [{"assignee": "george", "comments": 2, "created": "2024-05-30", "customer": "Owens Group", "id": "T-1001", "priority": "urgent", "status": "open", "title": "Timeout while I open the dashboard"}, {"assignee": "monica", "comments": 13, "created": "2024-04-30", "customer": "Garner and Sons", "id": "T-1002", "priority": "normal", "status": "closed", "title": "Error when trying to log in"}, {"assignee": "cassandra", "comments": 1, "created": "2024-01-27", "customer": "Owens Group", "id": "T-1003", "priority": "low", "status": "closed", "title": "Error when trying to reset my password"}, {"assignee": "monica", "comments": 0, "created": "2024-01-24", "customer": "Wise PLC", "id": "T-1004", "priority": "normal", "status": "pending", "title": "Error when trying to export the report"}, {"assignee": "katherine", "comments": 5, "created": "2024-06-22", "customer": "Garner and Sons", "id": "T-1005", "priority": "normal", "status": "pending", "title": "Timeout while I sync contacts"}, {"assignee": "lisa", "comments": 8, "created": "2024-04-14", "customer": "Wise PLC", "id": "T-1006", "priority": "urgent", "status": "open", "title": "Cannot log in"}, {"assignee": "katherine", "comments": 1, "created": "2024-04-19", "customer": "Garner and Sons", "id": "T-1007", "priority": "low", "status": "open", "title": "Error when trying to change my plan"}, {"assignee": "katherine", "comments": 0, "created": "2024-06-16", "customer": "Owens Group", "id": "T-1008", "priority": "normal", "status": "open", "title": "Timeout while I change my plan"}, {"assignee": "cassandra", "comments": 5, "created": "2024-06-16", "customer": "Washington, Johnson and Swanson", "id": "T-1009", "priority": "low", "status": "open", "title": "Timeout while I log in"}, {"assignee": "monica", "comments": 3, "created": "2024-06-05", "customer": "Ortiz, Scott and Meyer", "id": "T-1010", "priority": "normal", "status": "pending", "title": "Timeout while I reset my password"}, {"assignee": "katherine", "comments": 3, "created": "2024-05-31", "customer": "Washington, Johnson and Swanson", "id": "T-1011", "priority": "normal", "status": "open", "title": "Timeout while I sync contacts"}, {"assignee": "lisa", "comments": 3, "created": "2024-04-14", "customer": "Washington, Johnson and Swanson", "id": "T-1012", "priority": "urgent", "status": "open", "title": "Unable to open the dashboard"}, {"assignee": "cassandra", "comments": 5, "created": "2024-05-23", "customer": "Garner and Sons", "id": "T-1013", "priority": "low", "status": "open", "title": "Timeout while I change my plan"}, {"assignee": "george", "comments": 13, "created": "2024-02-24", "customer": "Ortiz, Scott and Meyer", "id": "T-1014", "priority": "high", "status": "closed", "title": "Error when trying to export the report"}, {"assignee": "cassandra", "comments": 8, "created": "2024-02-01", "customer": "Washington, Johnson and Swanson", "id": "T-1015", "priority": "low", "status": "open", "title": "Error when trying to upload an invoice"}, {"assignee": "katherine", "comments": 3, "created": "2024-03-04", "customer": "Ortiz, Scott and Meyer", "id": "T-1016", "priority": "high", "status": "closed", "title": "Cannot export the report"}, {"assignee": "katherine", "comments": 2, "created": "2024-01-25", "customer": "Washington, Johnson and Swanson", "id": "T-1017", "priority": "normal", "status": "pending", "title": "Slow response when I download receipts"}, {"assignee": "george", "comments": 13, "created": "2024-03-29", "customer": "Garner and Sons", "id": "T-1018", "priority": "high", "status": "closed", "title": "Timeout while I open the dashboard"}, {"assignee": "katherine", "comments": 3, "created": "2024-04-16", "customer": "Mcdonald Ltd", "id": "T-1019", "priority": "normal", "status": "closed", "title": "Error when trying to change my plan"}, {"assignee": "cassandra", "comments": 3, "created": "2024-03-23", "customer": "Mcdonald Ltd", "id": "T-1020", "priority": "normal", "status": "open", "title": "Slow response when I sync contacts"}, {"assignee": "george", "comments": 1, "created": "2024-03-08", "customer": "Garner and Sons", "id": "T-1021", "priority": "high", "status": "closed", "title": "Timeout while I change my plan"}, {"assignee": "cassandra", "comments": 5, "created": "2024-05-05", "customer": "Washington, Johnson and Swanson", "id": "T-1022", "priority": "normal", "status": "open", "title": "Slow response when I upload an invoice"}, {"assignee": "katherine", "comments": 2, "created": "2024-02-26", "customer": "Washington, Johnson and Swanson", "id": "T-1023", "priority": "urgent", "status": "closed", "title": "Timeout while I open the dashboard"}, {"assignee": "lisa", "comments": 0, "created": "2024-03-22", "customer": "Wise PLC", "id": "T-1024", "priority": "low", "status": "open", "title": "Timeout while I change my plan"}, {"assignee": "andrea", "comments": 0, "created": "2024-06-02", "customer": "Mcdonald Ltd", "id": "T-1025", "priority": "normal", "status": "closed", "title": "Error when trying to upload an invoice"}, {"assignee": "katherine", "comments": 1, "created": "2024-04-02", "customer": "Wise PLC", "id": "T-1026", "priority": "normal", "status": "open", "title": "Timeout while I change my plan"}, {"assignee": "george", "comments": 0, "created": "2024-06-15", "customer": "Mcdonald Ltd", "id": "T-1027", "priority": "low", "status": "closed", "title": "Error when trying to change my plan"}, {"assignee": "lisa", "comments": 8, "created": "2024-05-10", "customer": "Ortiz, Scott and Meyer", "id": "T-1028", "priority": "normal", "status": "pending", "title": "Timeout while I change my plan"}, {"assignee": "george", "comments": 0, "created": "2024-01-11", "customer": "Garner and Sons", "id": "T-1029", "priority": "normal", "status": "closed", "title": "Slow response when I upload an invoice"}, {"assignee": "katherine", "comments": 5, "created": "2024-02-04", "customer": "Wise PLC", "id": "T-1030", "priority": "normal", "status": "open", "title": "Slow response when I sync contacts"}, {"assignee": "katherine", "comments": 8, "created": "2024-01-11", "customer": "Mcdonald Ltd", "id": "T-1031", "priority": "low", "status": "pending", "title": "Cannot reset my password"}, {"assignee": "george", "comments": 3, "created": "2024-04-19", "customer": "Owens Group", "id": "T-1032", "priority": "urgent", "status": "closed", "title": "Timeout while I export the report"}, {"assignee": "katherine", "comments": 3, "created": "2024-06-14", "customer": "Washington, Johnson and Swanson", "id": "T-1033", "priority": "normal", "status": "open", "title": "Timeout while I download receipts"}, {"assignee": "lisa", "comments": 13, "created": "2024-06-29", "customer": "Garner and Sons", "id": "T-1034", "priority": "low", "status": "open", "title": "Cannot reset my password"}, {"assignee": "george", "comments": 1, "created": "2024-06-09", "customer": "Wise PLC", "id": "T-1035", "priority": "low", "status": "pending", "title": "Unable to download receipts"}, {"assignee": "katherine", "comments": 3, "created": "2024-05-23", "customer": "Wise PLC", "id": "T-1036", "priority": "normal", "status": "closed", "title": "Timeout while I download receipts"}, {"assignee": "cassandra", "comments": 8, "created": "2024-04-28", "customer": "Ortiz, Scott and Meyer", "id": "T-1037", "priority": "normal", "status": "closed", "title": "Timeout while I export the report"}, {"assignee": "monica", "comments": 0, "created": "2024-06-05", "customer": "Garner and Sons", "id": "T-1038", "priority": "low", "status": "pending", "title": "Unable to download receipts"}, {"assignee": "george", "comments": 3, "created": "2024-03-29", "customer": "Mcdonald Ltd", "id": "T-1039", "priority": "high", "status": "pending", "title": "Error when trying to download receipts"}, {"assignee": "katherine", "comments": 8, "created": "2024-05-01", "customer": "Garner and Sons", "id": "T-1040", "priority": "normal", "status": "pending", "title": "Cannot sync contacts"}, {"assignee": "katherine", "comments": 2, "created": "2024-06-26", "customer": "Washington, Johnson and Swanson", "id": "T-1041", "priority": "high", "status": "open", "title": "Unable to open the dashboard"}, {"assignee": "george", "comments": 5, "created": "2024-04-10", "customer": "Owens Group", "id": "T-1042", "priority": "low", "status": "closed", "title": "Timeout while I sync contacts"}, {"assignee": "lisa", "comments": 0, "created": "2024-03-01", "customer": "Ortiz, Scott and Meyer", "id": "T-1043", "priority": "urgent", "status": "closed", "title": "Timeout while I upload an invoice"}]}')


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
