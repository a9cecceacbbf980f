"""What the five sites share: one layout and stylesheet, SQLite access, form parsing and validation.

Why: the sites are screenshot and Playwright targets, so they share one fixed, font-stable page (1100px
wide, DejaVu Sans, no scripts, no external resources). State lives only in SQLite with a rollback journal
and a commit after each write, so a checker reading the file sees every change. Forms are parsed here
(urlencoded only) so the package needs nothing beyond starlette, uvicorn and jinja2.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

SETTINGS_SQL = "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
"""Every site keeps its fixed 'today' here, so dates shown and written do not depend on the clock."""

DEFAULT_TODAY = "2026-03-16"
TEMPLATES = Path(__file__).parent / "templates"

CSS = """
* { box-sizing: border-box; }
body { margin: 0; font-family: "DejaVu Sans", sans-serif; font-size: 14px; line-height: 1.45;
  color: #1d232a; background: #f3f4f6; }
.wrap { width: 1100px; margin: 0 auto; }
#topbar { background: #24425f; color: #fff; height: 52px; }
#topbar .wrap { display: flex; align-items: center; height: 52px; gap: 24px; }
#site-name { color: #fff; font-size: 20px; font-weight: bold; text-decoration: none; margin-right: 16px; }
#nav a { color: #dce6f0; text-decoration: none; margin-right: 18px; }
#nav a:hover { color: #fff; text-decoration: underline; }
main.wrap { background: #fff; min-height: 600px; padding: 20px 28px 40px; border: 1px solid #dde1e6;
  border-top: 0; }
h1 { font-size: 22px; margin: 4px 0 16px; }
h2 { font-size: 17px; margin: 20px 0 10px; }
a { color: #1f5f99; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #e3e6ea; vertical-align: top; }
th { background: #f0f2f5; font-weight: bold; }
form.inline { display: inline; margin: 0; }
label { display: block; margin: 10px 0 4px; font-weight: bold; }
label.choice { display: inline-block; font-weight: normal; margin: 4px 18px 4px 0; }
input[type=text], input[type=number], input[type=email], textarea { font-family: inherit; font-size: 14px;
  padding: 6px 8px; border: 1px solid #b8c0c8; border-radius: 3px; width: 420px; }
textarea { width: 640px; height: 160px; }
input.short { width: 90px; }
button { font-family: inherit; font-size: 14px; padding: 6px 14px; border: 1px solid #1f5f99;
  background: #2b6cb0; color: #fff; border-radius: 3px; cursor: pointer; }
button.secondary { background: #fff; color: #1f5f99; }
button:disabled { background: #c9ced4; border-color: #c9ced4; color: #555; }
.error { background: #fdecea; border: 1px solid #e0a39d; color: #8a1f11; padding: 8px 12px; }
.notice { background: #e8f5e9; border: 1px solid #9ccc9f; color: #1e5e22; padding: 8px 12px; }
.muted { color: #667380; }
.cols { display: flex; gap: 28px; }
.side { width: 220px; flex: none; }
.grow { flex: 1; }
.card { border: 1px solid #e3e6ea; border-radius: 4px; padding: 10px 14px; margin-bottom: 10px; }
.search { margin-bottom: 14px; }
.search input[type=text] { width: 360px; }
.tag { display: inline-block; background: #eef2f7; border-radius: 3px; padding: 0 6px; font-size: 12px; }
"""

BASE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }} - {{ site_name }}</title>
<style>{{ css }}</style></head>
<body><header id="topbar"><div class="wrap"><a id="site-name" href="/">{{ site_name }}</a>
<nav id="nav">{% for nid, href, label in nav %}<a id="{{ nid }}" href="{{ href }}">{{ label }}</a>{% endfor %}
</nav></div></header>
<main class="wrap" id="main">
{% if notice %}<p id="notice" class="notice">{{ notice }}</p>{% endif %}
{% if error %}<p id="error" class="error" role="alert">{{ error }}</p>{% endif %}
<h1 id="page-title">{{ title }}</h1>
{% block content %}{% endblock %}
</main></body></html>
"""

ERROR = """{% extends "base.html" %}{% block content %}
<p><a id="home-link" href="/">Back to the start page</a></p>{% endblock %}"""

NavItems = Sequence[tuple[str, str, str]]
"""(id, href, label) for each link in the top bar."""


def connect(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=10)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


@contextmanager
def open_db(request: Request) -> Iterator[sqlite3.Connection]:
    conn = connect(request.app.state.db_path)
    try:
        yield conn
    finally:
        conn.close()


def write(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()) -> int:
    """Run one write and commit it at once; return the new row's id."""
    cur = conn.execute(sql, params)
    conn.commit()
    return cur.lastrowid or 0


def today(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT value FROM settings WHERE key = 'today'").fetchone()
    return row["value"] if row else DEFAULT_TODAY


def create_db(path: str, schema: str, seed: Callable[[sqlite3.Connection, dict], None], data: dict) -> None:
    """Create a new database from a schema and seed data; an existing file is refused."""
    if Path(path).exists():
        raise FileExistsError(f"{path} already exists")
    conn = connect(path)
    try:
        conn.executescript(schema)
        conn.execute(
            "INSERT INTO settings (key, value) VALUES ('today', ?)", (data.get("today", DEFAULT_TODAY),)
        )
        seed(conn, data)
        conn.commit()
    except BaseException:
        conn.close()
        Path(path).unlink(missing_ok=True)
        raise
    conn.close()


async def form(request: Request) -> dict[str, str]:
    """The urlencoded body of a POST, values stripped (every form here is urlencoded)."""
    body = (await request.body()).decode("utf-8", "replace")
    pairs = parse_qsl(body, keep_blank_values=True)
    return {key: value.replace("\r\n", "\n").strip() for key, value in pairs}


def to_int(value: str | None, low: int, high: int) -> int | None:
    """An integer within [low, high], or None."""
    if value is None or not re.fullmatch(r"-?\d{1,9}", value.strip()):
        return None
    number = int(value)
    return number if low <= number <= high else None


def parse_date(value: str | None) -> date | None:
    if not value or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        return None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        return None


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def redirect(url: str) -> RedirectResponse:
    """POST-redirect-GET: after a write, send the browser to a page with 303."""
    return RedirectResponse(url, status_code=303)


class Site:
    """A site's name, top bar and templates (templates/<folder>/*.html); renders pages into the layout."""

    def __init__(
        self,
        name: str,
        folder: str,
        nav: Callable[[sqlite3.Connection], NavItems],
        notices: dict[str, str] | None = None,
    ) -> None:
        self.name = name
        self.nav = nav
        self.notices = notices or {}
        loader = jinja2.ChoiceLoader(
            [
                jinja2.DictLoader({"base.html": BASE, "error.html": ERROR}),
                jinja2.FileSystemLoader(TEMPLATES / folder),
            ]
        )
        self.env = jinja2.Environment(loader=loader, autoescape=True, undefined=jinja2.StrictUndefined)
        self.env.filters["money"] = money

    def render(
        self, request: Request, template: str, title: str, status: int = 200, **context: Any
    ) -> HTMLResponse:
        with open_db(request) as conn:
            nav = self.nav(conn)
        context.setdefault("error", None)
        notice = self.notices.get(request.query_params.get("ok", ""))
        html = self.env.get_template(template).render(
            css=CSS, site_name=self.name, nav=nav, title=title, notice=notice, **context
        )
        return HTMLResponse(html, status_code=status)

    def error(self, request: Request, message: str, status: int = 400) -> HTMLResponse:
        titles = {400: "Something is wrong", 404: "Not found", 405: "Not allowed"}
        return self.render(request, "error.html", titles.get(status, "Error"), status, error=message)

    def app(self, db_path: str, routes: list[Route]) -> Starlette:
        async def http_error(request: Request, exc: Exception) -> Response:
            code = exc.status_code if isinstance(exc, HTTPException) else 500
            message = "This page does not exist." if code == 404 else "That request is not allowed here."
            return self.error(request, message, code)

        handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
            404: http_error,
            405: http_error,
        }
        app = Starlette(routes=routes, exception_handlers=handlers)
        app.state.db_path = db_path
        return app
