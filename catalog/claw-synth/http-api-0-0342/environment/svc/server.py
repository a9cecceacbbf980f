#!/usr/bin/env python3
"""Local mock JSON API of the shop service (started by /etc/openforge/init.d/)."""
import json
import os
import re
import tempfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Lock
from urllib.parse import parse_qs, urlparse

HOME = '/opt/shop'
STATE = '/app/.shop/state.json'
with open(os.path.join(HOME, "config.json"), encoding="utf-8") as fh:
    CONFIG = json.load(fh)
RES = CONFIG["resource"]
LOCK = Lock()


def load():
    path = STATE if os.path.exists(STATE) else os.path.join(HOME, "seed.json")
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


RECORDS = load()


def journal(method, rid, body):
    """Append one change to the journal beside the state file."""
    with open(os.path.join(os.path.dirname(STATE), "journal.jsonl"), "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"method": method, "id": rid, "body": body}, sort_keys=True) + "\n")


def save():
    os.makedirs(os.path.dirname(STATE), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(STATE))
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(RECORDS, fh, indent=1, sort_keys=True)
    os.replace(tmp, STATE)


def summary(rec):
    return {k: rec[k] for k in CONFIG["summary"]}


def shown(value):
    """A value as a query parameter spells it (JSON's true / false for booleans)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def valid(field, value):
    kind = CONFIG["fields"][field]
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if isinstance(kind, list):
        return value in kind
    return isinstance(value, str) and value != ""


class Handler(BaseHTTPRequestHandler):
    server_version = CONFIG["server_name"]

    def log_message(self, fmt, *args):
        pass

    def reply(self, code, obj):
        body = json.dumps(obj, ensure_ascii=False).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        try:
            return json.loads(self.rfile.read(length) or b"null")
        except ValueError:
            return None

    def authorized(self):
        auth = CONFIG["auth"]
        if auth["mode"] == "apikey":
            return self.headers.get("X-API-Key", "") == auth["secret"]
        return self.headers.get("Authorization", "") == "Bearer " + auth["secret"]

    def route(self, method):
        url = urlparse(self.path)
        path = url.path.rstrip("/") or "/"
        if method == "GET" and path == "/health":
            return self.reply(200, {"status": "ok"})
        if method == "GET" and path in ("/", "/api/v1"):
            return self.reply(200, CONFIG["index"])
        if method == "POST" and path == "/api/v1/login" and CONFIG["auth"]["mode"] == "login":
            data = self.body()
            if not isinstance(data, dict) or data.get("username") != CONFIG["auth"]["username"] \
                    or data.get("password") != CONFIG["auth"]["password"]:
                return self.reply(401, {"error": "invalid credentials"})
            return self.reply(200, {"token": CONFIG["auth"]["secret"], "token_type": "Bearer"})
        if not self.authorized():
            return self.reply(401, {"error": "missing or invalid credentials"})
        base = f"/api/v1/{RES}"
        if path == base and method == "GET":
            return self.list(parse_qs(url.query))
        if path == base and method == "POST":
            return self.create()
        m = re.fullmatch(re.escape(base) + r"/([A-Za-z0-9_-]+)", path)
        if m:
            with LOCK:
                rec = next((r for r in RECORDS if str(r["id"]) == m.group(1)), None)
                if rec is None:
                    return self.reply(404, {"error": f"no such {RES[:-1]}"})
                if method == "GET":
                    return self.reply(200, {"data": rec})
                if method == "PATCH":
                    data = self.body()
                    if not isinstance(data, dict) or not data:
                        return self.reply(400, {"error": "body must be a non-empty JSON object"})
                    for k, v in data.items():
                        if k not in CONFIG["patchable"]:
                            return self.reply(400, {"error": f"field {k!r} cannot be changed"})
                        if not valid(k, v):
                            return self.reply(400, {"error": f"invalid value for {k!r}"})
                    rec.update(data)
                    save()
                    journal("PATCH", rec["id"], data)
                    return self.reply(200, {"data": rec})
        return self.reply(404 if method == "GET" else 405, {"error": "not found"})

    def list(self, qs):
        def arg(name, default):
            try:
                return int(qs.get(name, [str(default)])[0])
            except ValueError:
                return None

        with LOCK:
            rows = list(RECORDS)
        for field in CONFIG["filters"]:
            if field in qs:
                rows = [r for r in rows if shown(r[field]) == qs[field][0]]
        page = CONFIG["pagination"]
        size = arg("per_page" if page == "page" else "limit", CONFIG["default_size"])
        if size is None or size < 1:
            return self.reply(400, {"error": "bad page size"})
        size = min(size, CONFIG["max_size"])
        if page == "page":
            n = arg("page", 1)
            if n is None or n < 1:
                return self.reply(400, {"error": "page must be an integer >= 1"})
            pages = max(1, -(-len(rows) // size))
            chunk = rows[(n - 1) * size : n * size]
            return self.reply(200, {"data": [summary(r) for r in chunk],
                                    "pagination": {"page": n, "per_page": size, "total_items": len(rows),
                                                   "total_pages": pages, "next_page": n + 1 if n < pages else None}})
        if page == "offset":
            off = arg("offset", 0)
            if off is None or off < 0:
                return self.reply(400, {"error": "offset must be an integer >= 0"})
            return self.reply(200, {"items": [summary(r) for r in rows[off : off + size]], "total": len(rows),
                                    "offset": off, "limit": size})
        cursor = qs.get("cursor", [""])[0]
        start = 0
        if cursor:
            if not re.fullmatch(r"c[0-9a-f]{6}", cursor):
                return self.reply(400, {"error": "invalid cursor"})
            start = int(cursor[1:], 16) ^ CONFIG["cursor_salt"]
        nxt = start + size
        return self.reply(200, {"results": [summary(r) for r in rows[start:nxt]],
                                "next_cursor": f"c{nxt ^ CONFIG['cursor_salt']:06x}" if nxt < len(rows) else None})

    def create(self):
        data = self.body()
        if not isinstance(data, dict):
            return self.reply(400, {"error": "body must be a JSON object"})
        for k in CONFIG["required"]:
            if k not in data or not valid(k, data[k]):
                return self.reply(400, {"error": f"missing or invalid field {k!r}"})
        for k in data:
            if k not in CONFIG["creatable"]:
                return self.reply(400, {"error": f"unknown field {k!r}"})
        with LOCK:
            top = max(int(str(r["id"]).removeprefix(CONFIG["id_prefix"])) for r in RECORDS)
            rec = {**CONFIG["defaults"], **data, "id": CONFIG["id_prefix"] + str(top + 1)}
            RECORDS.append(rec)
            save()
            journal("POST", rec["id"], data)
        return self.reply(201, {"data": rec})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PATCH(self):
        self.route("PATCH")

    def do_PUT(self):
        self.route("PUT")

    def do_DELETE(self):
        self.route("DELETE")


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", CONFIG["port"]), Handler).serve_forever()
