"""Shop: a catalogue with search, category filter and price sort, a cart, checkout and past orders.

Why: the commonest web task shape (find a product, compare prices, buy it with given details); the cart
and the orders tables make the outcome exact for a checker.
"""

from __future__ import annotations

import sqlite3

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .common import SETTINGS_SQL, Site, form, open_db, redirect, to_int, today, write

SCHEMA = (
    """
CREATE TABLE categories (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL, name TEXT NOT NULL);
CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT UNIQUE NOT NULL, name TEXT NOT NULL,
  category_id INTEGER NOT NULL REFERENCES categories(id), price_cents INTEGER NOT NULL,
  stock INTEGER NOT NULL, rating REAL NOT NULL DEFAULT 0, description TEXT NOT NULL DEFAULT '');
CREATE TABLE cart_items (product_id INTEGER PRIMARY KEY REFERENCES products(id), quantity INTEGER NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, created TEXT NOT NULL, customer_name TEXT NOT NULL,
  address TEXT NOT NULL, shipping_method TEXT NOT NULL, shipping_cents INTEGER NOT NULL,
  total_cents INTEGER NOT NULL, status TEXT NOT NULL DEFAULT 'placed');
CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id),
  product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL,
  unit_price_cents INTEGER NOT NULL);
"""
    + SETTINGS_SQL
)

SHIPPING = {
    "standard": ("Standard (3-5 days)", 499),
    "express": ("Express (next day)", 1299),
    "pickup": ("Pick up in store", 0),
}
SORTS = {"name": "p.name", "price_asc": "p.price_cents, p.name", "price_desc": "p.price_cents DESC, p.name"}
MAX_QTY = 99


def seed(conn: sqlite3.Connection, data: dict) -> None:
    for c in data.get("categories", []):
        conn.execute("INSERT INTO categories (slug, name) VALUES (?, ?)", (c["slug"], c["name"]))
    for p in data.get("products", []):
        conn.execute(
            "INSERT INTO products (sku, name, category_id, price_cents, stock, rating, description) VALUES "
            "(?, ?, (SELECT id FROM categories WHERE slug = ?), ?, ?, ?, ?)",
            (
                p["sku"],
                p["name"],
                p["category"],
                p["price_cents"],
                p["stock"],
                p.get("rating", 0),
                p.get("description", ""),
            ),
        )
    for o in data.get("orders", []):
        items = [(i["sku"], i["quantity"]) for i in o["items"]]
        prices = {
            sku: conn.execute("SELECT id, price_cents FROM products WHERE sku = ?", (sku,)).fetchone()
            for sku, _ in items
        }
        ship = SHIPPING[o["shipping_method"]][1]
        total = ship + sum(prices[sku]["price_cents"] * q for sku, q in items)
        oid = conn.execute(
            "INSERT INTO orders (created, customer_name, address, shipping_method, shipping_cents,"
            " total_cents, status) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                o["created"],
                o["customer_name"],
                o["address"],
                o["shipping_method"],
                ship,
                total,
                o.get("status", "delivered"),
            ),
        ).lastrowid
        for sku, q in items:
            conn.execute(
                "INSERT INTO order_items (order_id, product_id, quantity, unit_price_cents)"
                " VALUES (?, ?, ?, ?)",
                (oid, prices[sku]["id"], q, prices[sku]["price_cents"]),
            )
    for c in data.get("cart", []):
        conn.execute(
            "INSERT INTO cart_items (product_id, quantity) SELECT id, ? FROM products WHERE sku = ?",
            (c["quantity"], c["sku"]),
        )


def nav(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    count = conn.execute("SELECT COALESCE(SUM(quantity), 0) FROM cart_items").fetchone()[0]
    return [
        ("nav-catalogue", "/", "Catalogue"),
        ("nav-cart", "/cart", f"Cart ({count})"),
        ("nav-orders", "/orders", "Orders"),
    ]


def product_row(conn: sqlite3.Connection, pid: int | None) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT p.*, c.name AS category, c.slug AS category_slug FROM products p"
        " JOIN categories c ON c.id = p.category_id WHERE p.id = ?",
        (pid,),
    ).fetchone()


def cart_rows(conn: sqlite3.Connection) -> tuple[list[sqlite3.Row], int]:
    rows = conn.execute(
        "SELECT p.id, p.name, p.sku, p.price_cents, p.stock, c.quantity, p.price_cents * c.quantity AS line"
        " FROM cart_items c JOIN products p ON p.id = c.product_id ORDER BY p.name"
    ).fetchall()
    return rows, sum(r["line"] for r in rows)


async def catalogue(request: Request) -> Response:
    q = request.query_params.get("q", "").strip()
    category = request.query_params.get("category", "")
    sort = request.query_params.get("sort", "name")
    sql = "SELECT p.*, c.name AS category FROM products p JOIN categories c ON c.id = p.category_id WHERE 1=1"
    params: list[str] = []
    if q:
        sql += " AND (p.name LIKE ? OR p.description LIKE ? OR p.sku LIKE ?)"
        params += [f"%{q}%"] * 3
    if category:
        sql += " AND c.slug = ?"
        params.append(category)
    with open_db(request) as conn:
        products = conn.execute(f"{sql} ORDER BY {SORTS.get(sort, SORTS['name'])}", params).fetchall()
        categories = conn.execute("SELECT * FROM categories ORDER BY name").fetchall()
    return SITE.render(
        request,
        "catalogue.html",
        "Catalogue",
        products=products,
        categories=categories,
        q=q,
        category=category,
        sort=sort,
    )


async def product(request: Request) -> Response:
    with open_db(request) as conn:
        item = product_row(conn, request.path_params["id"])
    if item is None:
        return SITE.error(request, "No such product.", 404)
    return SITE.render(request, "product.html", item["name"], p=item)


async def cart(request: Request, error: str | None = None) -> Response:
    with open_db(request) as conn:
        rows, subtotal = cart_rows(conn)
    return SITE.render(
        request, "cart.html", "Your cart", 400 if error else 200, rows=rows, subtotal=subtotal, error=error
    )


async def cart_change(request: Request) -> Response:
    """POST /cart/add, /cart/update and /cart/remove."""
    action = request.path_params["action"]
    if action not in ("add", "update", "remove"):
        return SITE.error(request, "This page does not exist.", 404)
    f = await form(request)
    with open_db(request) as conn:
        p = product_row(conn, to_int(f.get("product_id"), 1, 10**9))
        if p is None:
            return SITE.error(request, "No such product.")
        if action == "remove":
            write(conn, "DELETE FROM cart_items WHERE product_id = ?", (p["id"],))
            return redirect("/cart?ok=removed")
        qty = to_int(f.get("quantity"), 1, MAX_QTY)
        have = conn.execute("SELECT quantity FROM cart_items WHERE product_id = ?", (p["id"],)).fetchone()
        new = (qty or 0) + (have["quantity"] if have and action == "add" else 0)
        problem = None
        if qty is None:
            problem = f"Quantity must be a whole number from 1 to {MAX_QTY}."
        elif new > p["stock"]:
            problem = f"Only {p['stock']} of {p['name']} in stock."
        if problem:
            if action == "add":
                return SITE.render(request, "product.html", p["name"], 400, p=p, error=problem)
            return await cart(request, problem)
        write(
            conn,
            "INSERT INTO cart_items (product_id, quantity) VALUES (?, ?) ON CONFLICT(product_id)"
            " DO UPDATE SET quantity = excluded.quantity",
            (p["id"], new),
        )
    return redirect("/cart?ok=added" if action == "add" else "/cart?ok=updated")


async def checkout(request: Request) -> Response:
    f = await form(request) if request.method == "POST" else {}
    with open_db(request) as conn:
        rows, subtotal = cart_rows(conn)
        error = None
        if request.method == "POST":
            if not rows:
                error = "Your cart is empty."
            elif not f.get("name") or not f.get("address"):
                error = "Please enter your name and address."
            elif f.get("shipping") not in SHIPPING:
                error = "Please choose a shipping method."
            elif any(r["quantity"] > r["stock"] for r in rows):
                error = "Some items are no longer in stock in that quantity."
            else:
                ship = SHIPPING[f["shipping"]][1]
                oid = write(
                    conn,
                    "INSERT INTO orders (created, customer_name, address, shipping_method,"
                    " shipping_cents, total_cents) VALUES (?, ?, ?, ?, ?, ?)",
                    (today(conn), f["name"], f["address"], f["shipping"], ship, subtotal + ship),
                )
                for r in rows:
                    write(
                        conn,
                        "INSERT INTO order_items (order_id, product_id, quantity, unit_price_cents)"
                        " VALUES (?, ?, ?, ?)",
                        (oid, r["id"], r["quantity"], r["price_cents"]),
                    )
                    write(
                        conn, "UPDATE products SET stock = stock - ? WHERE id = ?", (r["quantity"], r["id"])
                    )
                write(conn, "DELETE FROM cart_items")
                return redirect(f"/orders/{oid}?ok=placed")
    return SITE.render(
        request,
        "checkout.html",
        "Checkout",
        400 if error else 200,
        rows=rows,
        subtotal=subtotal,
        shipping=SHIPPING,
        f=f,
        error=error,
    )


async def orders(request: Request) -> Response:
    with open_db(request) as conn:
        rows = conn.execute(
            "SELECT o.*, (SELECT SUM(quantity) FROM order_items WHERE order_id = o.id) AS items"
            " FROM orders o ORDER BY o.created DESC, o.id DESC"
        ).fetchall()
    return SITE.render(request, "orders.html", "Your orders", orders=rows)


async def order(request: Request) -> Response:
    with open_db(request) as conn:
        o = conn.execute("SELECT * FROM orders WHERE id = ?", (request.path_params["id"],)).fetchone()
        items = conn.execute(
            "SELECT i.*, p.name, p.sku FROM order_items i JOIN products p ON p.id = i.product_id"
            " WHERE i.order_id = ? ORDER BY i.id",
            (request.path_params["id"],),
        ).fetchall()
    if o is None:
        return SITE.error(request, "No such order.", 404)
    return SITE.render(request, "order.html", f"Order #{o['id']}", o=o, items=items, shipping=SHIPPING)


def make_app(db_path: str) -> Starlette:
    return SITE.app(
        db_path,
        [
            Route("/", catalogue),
            Route("/product/{id:int}", product),
            Route("/cart", cart),
            Route("/cart/{action:str}", cart_change, methods=["POST"]),
            Route("/checkout", checkout, methods=["GET", "POST"]),
            Route("/orders", orders),
            Route("/orders/{id:int}", order),
        ],
    )


SITE = Site(
    "Forge Shop",
    "shop",
    nav,
    {
        "added": "Added to your cart.",
        "updated": "Cart updated.",
        "removed": "Removed from your cart.",
        "placed": "Thank you! Your order has been placed.",
    },
)
