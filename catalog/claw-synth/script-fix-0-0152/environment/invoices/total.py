#!/usr/bin/env python3
"""Invoice totals for one order.

Usage: python3 total.py ORDER.json
"""
import json
import sys
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal  # noqa: F401

BULK_QTY = 10
BULK_DISCOUNT = Decimal("10") / 100
TAX_RATE = Decimal("20") / 100


def cents(amount):
    return amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN)


def main(argv):
    with open(argv[1], encoding="utf-8") as fh:
        order = json.load(fh)
    gross = Decimal(0)
    subtotal = Decimal(0)
    for item in order["lines"]:
        qty = int(item["qty"])
        factor = 1 - BULK_DISCOUNT if qty >= BULK_QTY else Decimal(1)
        line = Decimal(item["unit_price"]) * qty * factor
        gross += cents(Decimal(item["unit_price"]) * qty)
        subtotal += line
        print(f"{item['sku']} {qty} x {Decimal(item['unit_price']):.2f} = {cents(line):.2f}")
    subtotal = cents(subtotal)
    tax = cents(gross * TAX_RATE)
    print(f"subtotal {subtotal:.2f}")
    print(f"tax {tax:.2f}")
    print(f"total {subtotal + tax:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
