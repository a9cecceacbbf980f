#!/bin/bash
# Reference solution: SQL aggregation per order, then per customer in Python.
set -euo pipefail
python3 - <<'PY'
import csv, sqlite3

db = sqlite3.connect("file:/app/shop.db?mode=ro", uri=True)
rows = db.execute("""
    WITH order_amounts AS (
        SELECT o.id, o.customer_id,
               MAX(SUM(i.quantity * i.unit_price_cents) - o.discount_cents, 0) AS amount
        FROM orders o
        JOIN order_items i ON i.order_id = o.id
        WHERE LOWER(TRIM(o.status)) = 'completed'
          AND o.ordered_at >= '2024-01-01 00:00:00'
          AND o.ordered_at <= '2024-12-31 23:59:59'
        GROUP BY o.id
    )
    SELECT c.id, c.name, c.email, COUNT(*) AS n, SUM(a.amount) AS total
    FROM order_amounts a JOIN customers c ON c.id = a.customer_id
    GROUP BY c.id
    ORDER BY total DESC, c.id ASC
""").fetchall()
with open("/app/customer_totals.csv", "w", newline="", encoding="utf-8") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["customer_id", "name", "email", "order_count", "total_spent"])
    for cid, name, email, n, total in rows:
        # SQLite's LOWER() only folds ASCII, so lowercase in Python
        w.writerow([cid, name, email.strip().lower(), n, "%d.%02d" % divmod(total, 100)])
PY
