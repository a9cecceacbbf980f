"""Verify the csv task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'csv'
STATE = '/app/.helpdesk/state.json'
SEED = json.loads('[{"assignee": "megan", "comments": 0, "created": "2024-05-13", "customer": "Hebert LLC", "id": "T-1001", "priority": "low", "status": "pending", "title": "Slow response when I sync contacts"}, {"assignee": "mario", "comments": 3, "created": "2024-05-12", "customer": "Lopez Group", "id": "T-1002", "priority": "high", "status": "closed", "title": "Unable to export the report"}, {"assignee": "mario", "comments": 13, "created": "2024-03-10", "customer": "Hebert LLC", "id": "T-1003", "priority": "normal", "status": "open", "title": "Slow response when I export the report"}, {"assignee": "jennifer", "comments": 3, "created": "2024-03-27", "customer": "Hurst, Mcbride and Howell", "id": "T-1004", "priority": "low", "status": "pending", "title": "Error when trying to download receipts"}, {"assignee": "mario", "comments": 2, "created": "2024-05-11", "customer": "Hurst, Mcbride and Howell", "id": "T-1005", "priority": "low", "status": "closed", "title": "Slow response when I download receipts"}, {"assignee": "mario", "comments": 13, "created": "2024-06-07", "customer": "Hurst, Mcbride and Howell", "id": "T-1006", "priority": "high", "status": "open", "title": "Slow response when I open the dashboard"}, {"assignee": "megan", "comments": 3, "created": "2024-05-24", "customer": "Hurst, Mcbride and Howell", "id": "T-1007", "priority": "high", "status": "closed", "title": "Cannot reset my password"}, {"assignee": "margaret", "comments": 5, "created": "2024-05-23", "customer": "Smith PLC", "id": "T-1008", "priority": "low", "status": "open", "title": "Timeout while I sync contacts"}, {"assignee": "mario", "comments": 0, "created": "2024-04-13", "customer": "Hebert LLC", "id": "T-1009", "priority": "low", "status": "closed", "title": "Unable to sync contacts"}, {"assignee": "mario", "comments": 3, "created": "2024-05-13", "customer": "Smith, Rose and Zavala", "id": "T-1010", "priority": "low", "status": "open", "title": "Cannot change my plan"}, {"assignee": "mario", "comments": 0, "created": "2024-03-05", "customer": "Lopez Group", "id": "T-1011", "priority": "high", "status": "pending", "title": "Error when trying to sync contacts"}, {"assignee": "kyle", "comments": 0, "created": "2024-06-10", "customer": "Lopez Group", "id": "T-1012", "priority": "normal", "status": "open", "title": "Error when trying to download receipts"}, {"assignee": "kyle", "comments": 0, "created": "2024-04-11", "customer": "Hurst, Mcbride and Howell", "id": "T-1013", "priority": "low", "status": "closed", "title": "Slow response when I upload an invoice"}, {"assignee": "mario", "comments": 5, "created": "2024-05-22", "customer": "Smith, Rose and Zavala", "id": "T-1014", "priority": "low", "status": "pending", "title": "Slow response when I reset my password"}, {"assignee": "jennifer", "comments": 0, "created": "2024-02-26", "customer": "Hebert LLC", "id": "T-1015", "priority": "normal", "status": "closed", "title": "Cannot sync contacts"}, {"assignee": "megan", "comments": 0, "created": "2024-02-23", "customer": "Hurst, Mcbride and Howell", "id": "T-1016", "priority": "normal", "status": "pending", "title": "Slow response when I reset my password"}, {"assignee": "mario", "comments": 8, "created": "2024-01-02", "customer": "Smith, Rose and Zavala", "id": "T-1017", "priority": "low", "status": "open", "title": "Cannot export the report"}, {"assignee": "kyle", "comments": 1, "created": "2024-06-25", "customer": "Lopez Group", "id": "T-1018", "priority": "normal", "status": "pending", "title": "Unable to reset my password"}, {"assignee": "jennifer", "comments": 3, "created": "2024-05-31", "customer": "Hurst, Mcbride and Howell", "id": "T-1019", "priority": "normal", "status": "pending", "title": "Timeout while I open the dashboard"}, {"assignee": "megan", "comments": 8, "created": "2024-02-14", "customer": "Smith, Rose and Zavala", "id": "T-1020", "priority": "urgent", "status": "open", "title": "Timeout while I sync contacts"}, {"assignee": "kyle", "comments": 13, "created": "2024-04-06", "customer": "Smith, Rose and Zavala", "id": "T-1021", "priority": "low", "status": "closed", "title": "Cannot sync contacts"}, {"assignee": "daniel", "comments": 1, "created": "2024-03-25", "customer": "Lopez Group", "id": "T-1022", "priority": "high", "status": "open", "title": "Error when trying to export the report"}, {"assignee": "megan", "comments": 13, "created": "2024-04-05", "customer": "Lopez Group", "id": "T-1023", "priority": "low", "status": "open", "title": "Cannot upload an invoice"}, {"assignee": "margaret", "comments": 2, "created": "2024-05-14", "customer": "Smith, Rose and Zavala", "id": "T-1024", "priority": "high", "status": "closed", "title": "Cannot open the dashboard"}, {"assignee": "margaret", "comments": 0, "created": "2024-01-11", "customer": "Hebert LLC", "id": "T-1025", "priority": "urgent", "status": "open", "title": "Error when trying to download receipts"}, {"assignee": "megan", "comments": 13, "created": "2024-05-05", "customer": "Smith PLC", "id": "T-1026", "priority": "normal", "status": "open", "title": "Timeout while I open the dashboard"}, {"assignee": "kyle", "comments": 13, "created": "2024-05-27", "customer": "Dillon-Stewart", "id": "T-1027", "priority": "normal", "status": "closed", "title": "Unable to change my plan"}, {"assignee": "mario", "comments": 8, "created": "2024-01-20", "customer": "Dillon-Stewart", "id": "T-1028", "priority": "low", "status": "closed", "title": "Timeout while I reset my password"}, {"assignee": "daniel", "comments": 0, "created": "2024-05-31", "customer": "Hebert LLC", "id": "T-1029", "priority": "normal", "status": "pending", "title": "Cannot sync contacts"}, {"assignee": "megan", "comments": 2, "created": "2024-02-05", "customer": "Hebert LLC", "id": "T-1030", "priority": "normal", "status": "open", "title": "Error when trying to download receipts"}, {"assignee": "megan", "comments": 13, "created": "2024-02-15", "customer": "Hurst, Mcbride and Howell", "id": "T-1031", "priority": "low", "status": "open", "title": "Timeout while I log in"}, {"assignee": "megan", "comments": 13, "created": "2024-01-26", "customer": "Lopez Group", "id": "T-1032", "priority": "low", "status": "open", "title": "Slow response when I upload an invoice"}, {"assignee": "jennifer", "comments": 3, "created": "2024-05-12", "customer": "Hurst, Mcbride and Howell", "id": "T-1033", "priority": "normal", "status": "open", "title": "Cannot upload an invoice"}, {"assignee": "megan", "comments": 1, "created": "2024-03-29", "customer": "Hurst, Mcbride and Howell", "id": "T-1034", "priority": "low", "status": "closed", "title": "Cannot download receipts"}, {"assignee": "margaret", "comments": 1, "created": "2024-01-17", "customer": "Smith, Rose and Zavala", "id": "T-1035", "priority": "normal", "status": "closed", "title": "Cannot open the dashboard"}, {"assignee": "megan", "comments": 8, "created": "2024-05-10", "customer": "Hebert LLC", "id": "T-1036", "priority": "high", "status": "open", "title": "Slow response when I export the report"}, {"assignee": "daniel", "comments": 8, "created": "2024-05-18", "customer": "Hurst, Mcbride and Howell", "id": "T-1037", "priority": "high", "status": "open", "title": "Error when trying to change my plan"}, {"assignee": "jennifer", "comments": 1, "created": "2024-05-30", "customer": "Dillon-Stewart", "id": "T-1038", "priority": "normal", "status": "closed", "title": "Unable to upload an invoice"}, {"assignee": "kyle", "comments": 3, "created": "2024-03-03", "customer": "Hurst, Mcbride and Howell", "id": "T-1039", "priority": "low", "status": "open", "title": "Unable to reset my password"}, {"assignee": "mario", "comments": 2, "created": "2024-01-22", "customer": "Hurst, Mcbride and Howell", "id": "T-1040", "priority": "normal", "status": "open", "title": "Slow response when I log in"}, {"assignee": "megan", "comments": 3, "created": "2024-05-24", "customer": "Lopez Group", "id": "T-1041", "priority": "low", "status": "open", "title": "Cannot change my plan"}, {"assignee": "mario", "comments": 8, "created": "2024-02-25", "customer": "Dillon-Stewart", "id": "T-1042", "priority": "urgent", "status": "closed", "title": "Slow response when I upload an invoice"}, {"assignee": "margaret", "comments": 5, "created": "2024-04-02", "customer": "Smith, Rose and Zavala", "id": "T-1043", "priority": "high", "status": "open", "title": "Error when trying to change my plan"}, {"assignee": "mario", "comments": 13, "created": "2024-05-23", "customer": "Hebert LLC", "id": "T-1044", "priority": "urgent", "status": "closed", "title": "Cannot log in"}, {"assignee": "mario", "comments": 2, "created": "2024-05-18", "customer": "Hebert LLC", "id": "T-1045", "priority": "normal", "status": "closed", "title": "Slow response when I sync contacts"}, {"assignee": "kyle", "comments": 0, "created": "2024-01-16", "customer": "Dillon-Stewart", "id": "T-1046", "priority": "normal", "status": "pending", "title": "Cannot log in"}, {"assignee": "margaret", "comments": 5, "created": "2024-06-21", "customer": "Dillon-Stewart", "id": "T-1047", "priority": "normal", "status": "open", "title": "Timeout while I reset my password"}, {"assignee": "mario", "comments": 0, "created": "2024-03-17", "customer": "Dillon-Stewart", "id": "T-1048", "priority": "normal", "status": "open", "title": "Timeout while I reset my password"}]')
TASK = json.loads('{"expected": [["id", "customer", "assignee", "comments"], ["T-1006", "Hurst, Mcbride and Howell", "mario", "13"], ["T-1020", "Smith, Rose and Zavala", "megan", "8"], ["T-1036", "Hebert LLC", "megan", "8"], ["T-1037", "Hurst, Mcbride and Howell", "daniel", "8"], ["T-1043", "Smith, Rose and Zavala", "margaret", "5"], ["T-1022", "Lopez Group", "daniel", "1"], ["T-1011", "Lopez Group", "mario", "0"], ["T-1025", "Hebert LLC", "margaret", "0"]], "path": "/app/out/list.csv"}')


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
