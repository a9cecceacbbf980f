#!/usr/bin/env python3
"""Inventory report.

Usage: python3 report.py INVENTORY.csv

See /app/inventory/SPEC.md for the exact input and output format.
"""
import sys
from collections import defaultdict

LOW_STOCK_THRESHOLD = 5


def load_items(path):
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    items = []
    # skip the header and the trailing newline
    for line in lines[1:len(lines) - 1]:
        if not line.strip():
            continue
        sku, name, category, quantity, unit_cost = line.split(",")
        items.append({
            "sku": sku.strip(),
            "name": name.strip(),
            "category": category.strip(),
            "quantity": int(quantity),
            "unit_cost": float(unit_cost),
        })
    return items


def main(argv):
    items = load_items(argv[1])
    for item in items:
        item["value"] = item["quantity"] * item["unit_cost"]

    print(f"ITEMS {len(items)}")
    print(f"TOTAL_VALUE {sum(item['value'] for item in items):.2f}")

    low = sorted(item["sku"] for item in items if item["quantity"] < LOW_STOCK_THRESHOLD)
    print(f"LOW_STOCK {','.join(low) if low else '-'}")

    print("TOP_VALUE")
    ranked = sorted(items, key=lambda item: (-item["quantity"], item["sku"]))
    for rank, item in enumerate(ranked[:3], start=1):
        print(f"{rank}. {item['sku']} {item['name']} {item['value']:.2f}")

    print("CATEGORIES")
    count = defaultdict(int)
    value = defaultdict(float)
    for item in items:
        count[item["category"]] += 1
        value[item["category"]] += item["value"]
    for category in sorted(count):
        print(f"{category} {count[category]} {value[category]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
