#!/bin/bash
# Reference solution: fix the three bugs in place.
#  1. parsing: line.split(",") breaks quoted fields -> use the csv module
#  2. off-by-one: lines[1:len(lines)-1] drops the last item
#  3. wrong sort key: TOP_VALUE was ranked by quantity instead of value
set -euo pipefail
python3 - <<'PY'
path = "/app/inventory/report.py"
src = open(path).read()

old_load = src[src.index("def load_items(path):"):src.index("def main(argv):")]
new_load = '''def load_items(path):
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    items = []
    for row in rows[1:]:
        if not row or all(not field.strip() for field in row):
            continue
        sku, name, category, quantity, unit_cost = (field.strip() for field in row)
        items.append({
            "sku": sku,
            "name": name,
            "category": category,
            "quantity": int(quantity),
            "unit_cost": float(unit_cost),
        })
    return items


'''
src = src.replace(old_load, new_load)
src = src.replace("import sys\n", "import csv\nimport sys\n", 1)
src = src.replace('key=lambda item: (-item["quantity"], item["sku"])', 'key=lambda item: (-item["value"], item["sku"])')
open(path, "w").write(src)
PY
