"""Verify the csv task against the service's data (embedded here) or its state file."""
import csv
import io
import json
import sys
from collections import Counter

KIND = 'csv'
STATE = '/app/.shop/state.json'
SEED = json.loads('[{"carrier": "", "created": "2024-06-26", "customer": "Brown", "id": "O-5001", "item_count": 2, "items": [{"qty": 5, "sku": "SKU-961", "unit_price_cents": 14338}, {"qty": 3, "sku": "SKU-241", "unit_price_cents": 4322}], "status": "paid"}, {"carrier": "", "created": "2024-04-10", "customer": "Brown", "id": "O-5002", "item_count": 2, "items": [{"qty": 2, "sku": "SKU-607", "unit_price_cents": 6484}, {"qty": 3, "sku": "SKU-861", "unit_price_cents": 14376}], "status": "shipped"}, {"carrier": "", "created": "2024-03-27", "customer": "Huffman", "id": "O-5003", "item_count": 1, "items": [{"qty": 4, "sku": "SKU-930", "unit_price_cents": 4665}], "status": "shipped"}, {"carrier": "", "created": "2024-06-07", "customer": "Lee", "id": "O-5004", "item_count": 4, "items": [{"qty": 4, "sku": "SKU-444", "unit_price_cents": 5225}, {"qty": 3, "sku": "SKU-579", "unit_price_cents": 3317}, {"qty": 3, "sku": "SKU-226", "unit_price_cents": 9979}, {"qty": 1, "sku": "SKU-391", "unit_price_cents": 1032}], "status": "new"}, {"carrier": "", "created": "2024-03-24", "customer": "Lee", "id": "O-5005", "item_count": 1, "items": [{"qty": 2, "sku": "SKU-175", "unit_price_cents": 10580}], "status": "paid"}, {"carrier": "", "created": "2024-03-15", "customer": "Huffman", "id": "O-5006", "item_count": 4, "items": [{"qty": 3, "sku": "SKU-236", "unit_price_cents": 4343}, {"qty": 3, "sku": "SKU-240", "unit_price_cents": 12996}, {"qty": 2, "sku": "SKU-779", "unit_price_cents": 6706}, {"qty": 2, "sku": "SKU-985", "unit_price_cents": 4190}], "status": "shipped"}, {"carrier": "", "created": "2024-06-18", "customer": "Bernard", "id": "O-5007", "item_count": 2, "items": [{"qty": 4, "sku": "SKU-888", "unit_price_cents": 3170}, {"qty": 3, "sku": "SKU-361", "unit_price_cents": 389}], "status": "shipped"}, {"carrier": "", "created": "2024-04-23", "customer": "Lee", "id": "O-5008", "item_count": 4, "items": [{"qty": 4, "sku": "SKU-833", "unit_price_cents": 8008}, {"qty": 5, "sku": "SKU-470", "unit_price_cents": 5968}, {"qty": 4, "sku": "SKU-667", "unit_price_cents": 13872}, {"qty": 1, "sku": "SKU-383", "unit_price_cents": 1892}], "status": "cancelled"}, {"carrier": "", "created": "2024-06-10", "customer": "Ferguson", "id": "O-5009", "item_count": 4, "items": [{"qty": 2, "sku": "SKU-869", "unit_price_cents": 12235}, {"qty": 4, "sku": "SKU-324", "unit_price_cents": 5624}, {"qty": 4, "sku": "SKU-218", "unit_price_cents": 13274}, {"qty": 2, "sku": "SKU-359", "unit_price_cents": 2706}], "status": "paid"}, {"carrier": "", "created": "2024-06-08", "customer": "Ferguson", "id": "O-5010", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-765", "unit_price_cents": 6894}, {"qty": 3, "sku": "SKU-783", "unit_price_cents": 11459}], "status": "shipped"}, {"carrier": "", "created": "2024-04-11", "customer": "Ferguson", "id": "O-5011", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-248", "unit_price_cents": 5584}, {"qty": 2, "sku": "SKU-892", "unit_price_cents": 2377}], "status": "cancelled"}, {"carrier": "", "created": "2024-06-28", "customer": "Huffman", "id": "O-5012", "item_count": 2, "items": [{"qty": 5, "sku": "SKU-647", "unit_price_cents": 13516}, {"qty": 3, "sku": "SKU-493", "unit_price_cents": 3932}], "status": "paid"}, {"carrier": "", "created": "2024-04-25", "customer": "Ferguson", "id": "O-5013", "item_count": 4, "items": [{"qty": 3, "sku": "SKU-348", "unit_price_cents": 10987}, {"qty": 4, "sku": "SKU-255", "unit_price_cents": 10803}, {"qty": 2, "sku": "SKU-907", "unit_price_cents": 9066}, {"qty": 3, "sku": "SKU-938", "unit_price_cents": 5799}], "status": "shipped"}, {"carrier": "", "created": "2024-05-04", "customer": "Huffman", "id": "O-5014", "item_count": 1, "items": [{"qty": 4, "sku": "SKU-864", "unit_price_cents": 9712}], "status": "paid"}, {"carrier": "", "created": "2024-03-25", "customer": "Lee", "id": "O-5015", "item_count": 1, "items": [{"qty": 1, "sku": "SKU-188", "unit_price_cents": 315}], "status": "paid"}, {"carrier": "", "created": "2024-03-27", "customer": "Flores", "id": "O-5016", "item_count": 4, "items": [{"qty": 1, "sku": "SKU-971", "unit_price_cents": 2696}, {"qty": 1, "sku": "SKU-287", "unit_price_cents": 6250}, {"qty": 3, "sku": "SKU-348", "unit_price_cents": 3418}, {"qty": 1, "sku": "SKU-160", "unit_price_cents": 10829}], "status": "new"}, {"carrier": "", "created": "2024-04-19", "customer": "Ferguson", "id": "O-5017", "item_count": 4, "items": [{"qty": 3, "sku": "SKU-667", "unit_price_cents": 14150}, {"qty": 3, "sku": "SKU-226", "unit_price_cents": 13088}, {"qty": 3, "sku": "SKU-563", "unit_price_cents": 7163}, {"qty": 3, "sku": "SKU-763", "unit_price_cents": 13292}], "status": "cancelled"}, {"carrier": "", "created": "2024-06-16", "customer": "Lee", "id": "O-5018", "item_count": 1, "items": [{"qty": 1, "sku": "SKU-141", "unit_price_cents": 14889}], "status": "shipped"}, {"carrier": "", "created": "2024-04-26", "customer": "Brown", "id": "O-5019", "item_count": 3, "items": [{"qty": 3, "sku": "SKU-255", "unit_price_cents": 14697}, {"qty": 4, "sku": "SKU-550", "unit_price_cents": 8531}, {"qty": 2, "sku": "SKU-850", "unit_price_cents": 7736}], "status": "cancelled"}, {"carrier": "", "created": "2024-06-11", "customer": "Huffman", "id": "O-5020", "item_count": 2, "items": [{"qty": 1, "sku": "SKU-211", "unit_price_cents": 2549}, {"qty": 2, "sku": "SKU-571", "unit_price_cents": 11826}], "status": "shipped"}, {"carrier": "", "created": "2024-05-05", "customer": "Flores", "id": "O-5021", "item_count": 3, "items": [{"qty": 4, "sku": "SKU-306", "unit_price_cents": 9526}, {"qty": 3, "sku": "SKU-898", "unit_price_cents": 11280}, {"qty": 2, "sku": "SKU-416", "unit_price_cents": 9986}], "status": "paid"}, {"carrier": "", "created": "2024-05-26", "customer": "Chase", "id": "O-5022", "item_count": 4, "items": [{"qty": 4, "sku": "SKU-878", "unit_price_cents": 5654}, {"qty": 5, "sku": "SKU-103", "unit_price_cents": 6072}, {"qty": 1, "sku": "SKU-932", "unit_price_cents": 985}, {"qty": 4, "sku": "SKU-698", "unit_price_cents": 7283}], "status": "paid"}, {"carrier": "", "created": "2024-06-29", "customer": "Bernard", "id": "O-5023", "item_count": 2, "items": [{"qty": 4, "sku": "SKU-134", "unit_price_cents": 7305}, {"qty": 4, "sku": "SKU-815", "unit_price_cents": 9393}], "status": "paid"}, {"carrier": "", "created": "2024-03-30", "customer": "Ferguson", "id": "O-5024", "item_count": 1, "items": [{"qty": 1, "sku": "SKU-325", "unit_price_cents": 10318}], "status": "paid"}]')
TASK = json.loads('{"expected": [["id", "customer", "units", "created"], ["O-5006", "Huffman", "10", "2024-03-15"], ["O-5016", "Flores", "6", "2024-03-27"], ["O-5013", "Ferguson", "12", "2024-04-25"], ["O-5021", "Flores", "9", "2024-05-05"], ["O-5022", "Chase", "14", "2024-05-26"], ["O-5004", "Lee", "11", "2024-06-07"], ["O-5009", "Ferguson", "12", "2024-06-10"], ["O-5007", "Bernard", "7", "2024-06-18"], ["O-5001", "Brown", "8", "2024-06-26"], ["O-5012", "Huffman", "8", "2024-06-28"], ["O-5023", "Bernard", "8", "2024-06-29"]], "path": "/app/report.csv"}')


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
