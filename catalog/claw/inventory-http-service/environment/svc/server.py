#!/usr/bin/env python3
"""Mock inventory API (read-only) used by the inventory-http-service task."""
import json
import math
import re
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

DATA_FILE = "/opt/inventory/items.json"
TOKEN_FILE = "/opt/inventory/token"

with open(DATA_FILE, encoding="utf-8") as fh:
    ITEMS = json.load(fh)["items"]
BY_SKU = {it["sku"]: it for it in ITEMS}
with open(TOKEN_FILE, encoding="utf-8") as fh:
    TOKEN = fh.read().strip()


def summary(it):
    return {k: it[k] for k in ("sku", "name", "category", "reorder_point", "discontinued")}


class Handler(BaseHTTPRequestHandler):
    server_version = "InventoryAPI/1.3"

    def log_message(self, fmt, *args):
        pass

    def send_json(self, code, obj):
        body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urlparse(self.path)
        path = url.path.rstrip("/") or "/"
        if path in ("/", "/api/v1"):
            return self.send_json(200, {
                "service": "inventory", "version": "1.3",
                "auth": "send header 'Authorization: Bearer <token>'",
                "endpoints": {
                    "GET /api/v1/items?page=<n>&per_page=<n>": "paginated item list (per_page default 20, max 50)",
                    "GET /api/v1/items/<sku>": "one item including per-warehouse stock",
                },
            })
        if self.headers.get("Authorization", "") != "Bearer " + TOKEN:
            return self.send_json(401, {"error": "missing or invalid bearer token"})
        if path == "/api/v1/items":
            qs = parse_qs(url.query)
            try:
                page = int(qs.get("page", ["1"])[0])
                per_page = int(qs.get("per_page", ["20"])[0])
            except ValueError:
                return self.send_json(400, {"error": "page and per_page must be integers"})
            if page < 1 or per_page < 1:
                return self.send_json(400, {"error": "page and per_page must be >= 1"})
            per_page = min(per_page, 50)
            total_pages = max(1, math.ceil(len(ITEMS) / per_page))
            chunk = ITEMS[(page - 1) * per_page: page * per_page]
            return self.send_json(200, {
                "data": [summary(it) for it in chunk],
                "pagination": {
                    "page": page, "per_page": per_page, "total_items": len(ITEMS),
                    "total_pages": total_pages,
                    "next_page": page + 1 if page < total_pages else None,
                },
            })
        m = re.fullmatch(r"/api/v1/items/([A-Za-z0-9-]+)", path)
        if m:
            it = BY_SKU.get(m.group(1))
            if it is None:
                return self.send_json(404, {"error": "unknown sku"})
            return self.send_json(200, {"data": it})
        return self.send_json(404, {"error": "not found"})


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", 8080), Handler).serve_forever()
