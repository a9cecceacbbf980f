#!/bin/bash
# Reference solution: exact Decimal arithmetic, csv module for quoting.
set -euo pipefail
python3 - <<'PY'
import csv, json, re
from decimal import Decimal, ROUND_HALF_UP

def r2(x):
    return float(x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))

seen, skipped = set(), 0
regions = {}
with open("/app/data/sales.csv", newline="") as fh:
    reader = csv.reader(fh)
    next(reader)
    for row in reader:
        if not row:
            continue  # empty line
        fields = [f.strip() for f in row]
        ok = len(fields) == 7
        if ok:
            oid, _date, region, _cust, product, qty, price = fields
            ok = (oid != "" and region != "" and product != ""
                  and re.fullmatch(r"[0-9]+", qty) is not None and int(qty) > 0
                  and re.fullmatch(r"[0-9]+(\.[0-9]+)?", price) is not None
                  and oid not in seen)
        if not ok:
            skipped += 1
            continue
        seen.add(oid)
        q, p = int(qty), Decimal(price)
        reg = regions.setdefault(region.lower(), {"orders": 0, "units": 0, "revenue": Decimal(0), "products": {}})
        reg["orders"] += 1
        reg["units"] += q
        reg["revenue"] += q * p
        reg["products"][product] = reg["products"].get(product, Decimal(0)) + q * p

out = {"regions": {}, "total": {"orders": 0, "units": 0, "revenue": 0.0}, "skipped_rows": skipped}
total_rev = Decimal(0)
for name in sorted(regions):
    reg = regions[name]
    top = sorted(reg["products"].items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    out["regions"][name] = {
        "orders": reg["orders"],
        "units": reg["units"],
        "revenue": r2(reg["revenue"]),
        "avg_order_value": r2(reg["revenue"] / reg["orders"]),
        "top_product": top,
    }
    out["total"]["orders"] += reg["orders"]
    out["total"]["units"] += reg["units"]
    total_rev += reg["revenue"]
out["total"]["revenue"] = r2(total_rev)
with open("/app/summary.json", "w") as fh:
    json.dump(out, fh, indent=2)
    fh.write("\n")
PY
