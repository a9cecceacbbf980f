"""Verify the patch task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'patch'
STATE = '/app/.shop/state.json'
SEED = json.loads('[{"carrier": "", "created": "2024-05-19", "customer": "Gilmore", "id": "O-5001", "item_count": 1, "items": [{"qty": 2, "sku": "SKU-827", "unit_price_cents": 9308}], "status": "new"}, {"carrier": "", "created": "2024-05-23", "customer": "Gilmore", "id": "O-5002", "item_count": 3, "items": [{"qty": 4, "sku": "SKU-394", "unit_price_cents": 5474}, {"qty": 2, "sku": "SKU-476", "unit_price_cents": 2585}, {"qty": 2, "sku": "SKU-298", "unit_price_cents": 6984}], "status": "shipped"}, {"carrier": "", "created": "2024-06-10", "customer": "Long", "id": "O-5003", "item_count": 4, "items": [{"qty": 4, "sku": "SKU-351", "unit_price_cents": 7760}, {"qty": 5, "sku": "SKU-818", "unit_price_cents": 13196}, {"qty": 1, "sku": "SKU-517", "unit_price_cents": 3203}, {"qty": 5, "sku": "SKU-745", "unit_price_cents": 6233}], "status": "new"}, {"carrier": "", "created": "2024-05-19", "customer": "Long", "id": "O-5004", "item_count": 2, "items": [{"qty": 3, "sku": "SKU-935", "unit_price_cents": 4964}, {"qty": 2, "sku": "SKU-536", "unit_price_cents": 8519}], "status": "new"}, {"carrier": "", "created": "2024-03-16", "customer": "Long", "id": "O-5005", "item_count": 3, "items": [{"qty": 4, "sku": "SKU-466", "unit_price_cents": 10044}, {"qty": 2, "sku": "SKU-663", "unit_price_cents": 2719}, {"qty": 4, "sku": "SKU-645", "unit_price_cents": 964}], "status": "shipped"}, {"carrier": "", "created": "2024-06-12", "customer": "Ellis", "id": "O-5006", "item_count": 4, "items": [{"qty": 1, "sku": "SKU-188", "unit_price_cents": 11599}, {"qty": 5, "sku": "SKU-596", "unit_price_cents": 7979}, {"qty": 4, "sku": "SKU-454", "unit_price_cents": 11989}, {"qty": 3, "sku": "SKU-377", "unit_price_cents": 8561}], "status": "new"}, {"carrier": "", "created": "2024-03-20", "customer": "Ellis", "id": "O-5007", "item_count": 2, "items": [{"qty": 4, "sku": "SKU-784", "unit_price_cents": 13079}, {"qty": 5, "sku": "SKU-662", "unit_price_cents": 8335}], "status": "paid"}, {"carrier": "", "created": "2024-04-21", "customer": "Gilmore", "id": "O-5008", "item_count": 2, "items": [{"qty": 3, "sku": "SKU-295", "unit_price_cents": 11755}, {"qty": 3, "sku": "SKU-186", "unit_price_cents": 13477}], "status": "new"}, {"carrier": "", "created": "2024-03-03", "customer": "Gardner", "id": "O-5009", "item_count": 3, "items": [{"qty": 1, "sku": "SKU-260", "unit_price_cents": 10662}, {"qty": 2, "sku": "SKU-475", "unit_price_cents": 14446}, {"qty": 2, "sku": "SKU-545", "unit_price_cents": 3570}], "status": "shipped"}, {"carrier": "", "created": "2024-06-19", "customer": "Cole", "id": "O-5010", "item_count": 4, "items": [{"qty": 2, "sku": "SKU-205", "unit_price_cents": 13720}, {"qty": 4, "sku": "SKU-230", "unit_price_cents": 12434}, {"qty": 1, "sku": "SKU-864", "unit_price_cents": 850}, {"qty": 5, "sku": "SKU-312", "unit_price_cents": 3939}], "status": "shipped"}, {"carrier": "", "created": "2024-06-17", "customer": "Cole", "id": "O-5011", "item_count": 3, "items": [{"qty": 3, "sku": "SKU-349", "unit_price_cents": 8942}, {"qty": 4, "sku": "SKU-979", "unit_price_cents": 3291}, {"qty": 2, "sku": "SKU-759", "unit_price_cents": 8173}], "status": "cancelled"}, {"carrier": "", "created": "2024-03-02", "customer": "Ellis", "id": "O-5012", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-300", "unit_price_cents": 5537}, {"qty": 3, "sku": "SKU-333", "unit_price_cents": 2671}], "status": "shipped"}, {"carrier": "", "created": "2024-06-27", "customer": "Ellis", "id": "O-5013", "item_count": 4, "items": [{"qty": 3, "sku": "SKU-781", "unit_price_cents": 7117}, {"qty": 3, "sku": "SKU-884", "unit_price_cents": 7353}, {"qty": 3, "sku": "SKU-370", "unit_price_cents": 3324}, {"qty": 3, "sku": "SKU-996", "unit_price_cents": 5995}], "status": "new"}, {"carrier": "", "created": "2024-05-06", "customer": "Lyons", "id": "O-5014", "item_count": 1, "items": [{"qty": 5, "sku": "SKU-923", "unit_price_cents": 4600}], "status": "new"}, {"carrier": "", "created": "2024-04-01", "customer": "Gardner", "id": "O-5015", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-997", "unit_price_cents": 13189}, {"qty": 5, "sku": "SKU-174", "unit_price_cents": 5661}], "status": "paid"}, {"carrier": "", "created": "2024-03-24", "customer": "Gilmore", "id": "O-5016", "item_count": 3, "items": [{"qty": 1, "sku": "SKU-194", "unit_price_cents": 13308}, {"qty": 4, "sku": "SKU-695", "unit_price_cents": 14626}, {"qty": 1, "sku": "SKU-903", "unit_price_cents": 6346}], "status": "paid"}, {"carrier": "", "created": "2024-03-14", "customer": "Gilmore", "id": "O-5017", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-478", "unit_price_cents": 3466}, {"qty": 5, "sku": "SKU-212", "unit_price_cents": 7718}], "status": "paid"}, {"carrier": "", "created": "2024-03-02", "customer": "Gilmore", "id": "O-5018", "item_count": 3, "items": [{"qty": 1, "sku": "SKU-474", "unit_price_cents": 3196}, {"qty": 2, "sku": "SKU-575", "unit_price_cents": 13168}, {"qty": 1, "sku": "SKU-332", "unit_price_cents": 5851}], "status": "new"}, {"carrier": "", "created": "2024-06-03", "customer": "Gilmore", "id": "O-5019", "item_count": 1, "items": [{"qty": 4, "sku": "SKU-885", "unit_price_cents": 10361}], "status": "shipped"}, {"carrier": "", "created": "2024-03-04", "customer": "Gardner", "id": "O-5020", "item_count": 2, "items": [{"qty": 5, "sku": "SKU-692", "unit_price_cents": 12912}, {"qty": 3, "sku": "SKU-453", "unit_price_cents": 11821}], "status": "paid"}]')
TASK = json.loads('{"changed": 5, "expected": [{"carrier": "", "created": "2024-05-19", "customer": "Gilmore", "id": "O-5001", "item_count": 1, "items": [{"qty": 2, "sku": "SKU-827", "unit_price_cents": 9308}], "status": "new"}, {"carrier": "", "created": "2024-05-23", "customer": "Gilmore", "id": "O-5002", "item_count": 3, "items": [{"qty": 4, "sku": "SKU-394", "unit_price_cents": 5474}, {"qty": 2, "sku": "SKU-476", "unit_price_cents": 2585}, {"qty": 2, "sku": "SKU-298", "unit_price_cents": 6984}], "status": "shipped"}, {"carrier": "", "created": "2024-06-10", "customer": "Long", "id": "O-5003", "item_count": 4, "items": [{"qty": 4, "sku": "SKU-351", "unit_price_cents": 7760}, {"qty": 5, "sku": "SKU-818", "unit_price_cents": 13196}, {"qty": 1, "sku": "SKU-517", "unit_price_cents": 3203}, {"qty": 5, "sku": "SKU-745", "unit_price_cents": 6233}], "status": "new"}, {"carrier": "", "created": "2024-05-19", "customer": "Long", "id": "O-5004", "item_count": 2, "items": [{"qty": 3, "sku": "SKU-935", "unit_price_cents": 4964}, {"qty": 2, "sku": "SKU-536", "unit_price_cents": 8519}], "status": "new"}, {"carrier": "", "created": "2024-03-16", "customer": "Long", "id": "O-5005", "item_count": 3, "items": [{"qty": 4, "sku": "SKU-466", "unit_price_cents": 10044}, {"qty": 2, "sku": "SKU-663", "unit_price_cents": 2719}, {"qty": 4, "sku": "SKU-645", "unit_price_cents": 964}], "status": "shipped"}, {"carrier": "", "created": "2024-06-12", "customer": "Ellis", "id": "O-5006", "item_count": 4, "items": [{"qty": 1, "sku": "SKU-188", "unit_price_cents": 11599}, {"qty": 5, "sku": "SKU-596", "unit_price_cents": 7979}, {"qty": 4, "sku": "SKU-454", "unit_price_cents": 11989}, {"qty": 3, "sku": "SKU-377", "unit_price_cents": 8561}], "status": "new"}, {"carrier": "DHL", "created": "2024-03-20", "customer": "Ellis", "id": "O-5007", "item_count": 2, "items": [{"qty": 4, "sku": "SKU-784", "unit_price_cents": 13079}, {"qty": 5, "sku": "SKU-662", "unit_price_cents": 8335}], "status": "shipped"}, {"carrier": "", "created": "2024-04-21", "customer": "Gilmore", "id": "O-5008", "item_count": 2, "items": [{"qty": 3, "sku": "SKU-295", "unit_price_cents": 11755}, {"qty": 3, "sku": "SKU-186", "unit_price_cents": 13477}], "status": "new"}, {"carrier": "", "created": "2024-03-03", "customer": "Gardner", "id": "O-5009", "item_count": 3, "items": [{"qty": 1, "sku": "SKU-260", "unit_price_cents": 10662}, {"qty": 2, "sku": "SKU-475", "unit_price_cents": 14446}, {"qty": 2, "sku": "SKU-545", "unit_price_cents": 3570}], "status": "shipped"}, {"carrier": "", "created": "2024-06-19", "customer": "Cole", "id": "O-5010", "item_count": 4, "items": [{"qty": 2, "sku": "SKU-205", "unit_price_cents": 13720}, {"qty": 4, "sku": "SKU-230", "unit_price_cents": 12434}, {"qty": 1, "sku": "SKU-864", "unit_price_cents": 850}, {"qty": 5, "sku": "SKU-312", "unit_price_cents": 3939}], "status": "shipped"}, {"carrier": "", "created": "2024-06-17", "customer": "Cole", "id": "O-5011", "item_count": 3, "items": [{"qty": 3, "sku": "SKU-349", "unit_price_cents": 8942}, {"qty": 4, "sku": "SKU-979", "unit_price_cents": 3291}, {"qty": 2, "sku": "SKU-759", "unit_price_cents": 8173}], "status": "cancelled"}, {"carrier": "", "created": "2024-03-02", "customer": "Ellis", "id": "O-5012", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-300", "unit_price_cents": 5537}, {"qty": 3, "sku": "SKU-333", "unit_price_cents": 2671}], "status": "shipped"}, {"carrier": "", "created": "2024-06-27", "customer": "Ellis", "id": "O-5013", "item_count": 4, "items": [{"qty": 3, "sku": "SKU-781", "unit_price_cents": 7117}, {"qty": 3, "sku": "SKU-884", "unit_price_cents": 7353}, {"qty": 3, "sku": "SKU-370", "unit_price_cents": 3324}, {"qty": 3, "sku": "SKU-996", "unit_price_cents": 5995}], "status": "new"}, {"carrier": "", "created": "2024-05-06", "customer": "Lyons", "id": "O-5014", "item_count": 1, "items": [{"qty": 5, "sku": "SKU-923", "unit_price_cents": 4600}], "status": "new"}, {"carrier": "DHL", "created": "2024-04-01", "customer": "Gardner", "id": "O-5015", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-997", "unit_price_cents": 13189}, {"qty": 5, "sku": "SKU-174", "unit_price_cents": 5661}], "status": "shipped"}, {"carrier": "DHL", "created": "2024-03-24", "customer": "Gilmore", "id": "O-5016", "item_count": 3, "items": [{"qty": 1, "sku": "SKU-194", "unit_price_cents": 13308}, {"qty": 4, "sku": "SKU-695", "unit_price_cents": 14626}, {"qty": 1, "sku": "SKU-903", "unit_price_cents": 6346}], "status": "shipped"}, {"carrier": "DHL", "created": "2024-03-14", "customer": "Gilmore", "id": "O-5017", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-478", "unit_price_cents": 3466}, {"qty": 5, "sku": "SKU-212", "unit_price_cents": 7718}], "status": "shipped"}, {"carrier": "", "created": "2024-03-02", "customer": "Gilmore", "id": "O-5018", "item_count": 3, "items": [{"qty": 1, "sku": "SKU-474", "unit_price_cents": 3196}, {"qty": 2, "sku": "SKU-575", "unit_price_cents": 13168}, {"qty": 1, "sku": "SKU-332", "unit_price_cents": 5851}], "status": "new"}, {"carrier": "", "created": "2024-06-03", "customer": "Gilmore", "id": "O-5019", "item_count": 1, "items": [{"qty": 4, "sku": "SKU-885", "unit_price_cents": 10361}], "status": "shipped"}, {"carrier": "DHL", "created": "2024-03-04", "customer": "Gardner", "id": "O-5020", "item_count": 2, "items": [{"qty": 5, "sku": "SKU-692", "unit_price_cents": 12912}, {"qty": 3, "sku": "SKU-453", "unit_price_cents": 11821}], "status": "shipped"}]}')


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
