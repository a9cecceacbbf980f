#!/bin/bash
# Reference solution: fix the bugs in place, one targeted edit each.
#  1. banker's rounding instead of half-up
#  2. line totals were not rounded to cents before summing
#  3. tax was computed on the amount before discounts
set -euo pipefail
python3 - <<'PY'
import json
path = '/app/invoices/total.py'
src = open(path, encoding="utf-8").read()
# (buggy code, fixed code)
FIXES = json.loads('[["rounding=ROUND_HALF_EVEN", "rounding=ROUND_HALF_UP"], ["line = Decimal(item[\\"unit_price\\"]) * qty * factor", "line = cents(Decimal(item[\\"unit_price\\"]) * qty * factor)"], ["tax = cents(gross * TAX_RATE)", "tax = cents(subtotal * TAX_RATE)"]]')
for old, new in FIXES:
    assert src.count(old) == 1, f"expected exactly one occurrence of {old!r}"
    src = src.replace(old, new, 1)
open(path, "w", encoding="utf-8").write(src)
PY
echo "fixed /app/invoices/total.py; sample run:"
python3 /app/invoices/total.py /app/invoices/cart.json || true
