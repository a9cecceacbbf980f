"""Wiki: pages in a small markup, search, page view, edit (each save a revision), create, history, restore.

Why: tasks that look facts up across linked pages and that edit text precisely; every save is a row in
`revisions`, so a checker sees exactly what changed, by whom and with which summary.
Markup: a blank line separates paragraphs; `== Heading ==`; `* item` lines make a list;
`[[Page title]]` or `[[Page title|text]]` links to another page.
"""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import quote

from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .common import SETTINGS_SQL, Site, form, open_db, redirect, today, write

SCHEMA = (
    """
CREATE TABLE pages (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL, title TEXT NOT NULL,
  body TEXT NOT NULL,
  updated TEXT NOT NULL, author TEXT NOT NULL);
CREATE TABLE revisions (id INTEGER PRIMARY KEY, page_id INTEGER NOT NULL REFERENCES pages(id),
  rev INTEGER NOT NULL,
  title TEXT NOT NULL, body TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '', author TEXT NOT NULL,
  created TEXT NOT NULL, UNIQUE (page_id, rev));
"""
    + SETTINGS_SQL
)

LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")


def slugify(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def seed(conn: sqlite3.Connection, data: dict) -> None:
    conn.execute("INSERT INTO settings (key, value) VALUES ('user', ?)", (data.get("current_user", "alex"),))
    for page in data.get("pages", []):
        revs = page["revisions"]
        last = revs[-1]
        pid = conn.execute(
            "INSERT INTO pages (slug, title, body, updated, author) VALUES (?, ?, ?, ?, ?)",
            (
                page.get("slug") or slugify(page["title"]),
                page["title"],
                last["body"],
                last["created"],
                last["author"],
            ),
        ).lastrowid
        for n, r in enumerate(revs, 1):
            conn.execute(
                "INSERT INTO revisions (page_id, rev, title, body, summary, author, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    pid,
                    n,
                    r.get("title", page["title"]),
                    r["body"],
                    r.get("summary", ""),
                    r["author"],
                    r["created"],
                ),
            )


def render_markup(text: str, existing: set[str]) -> Markup:
    """The page body as HTML: every piece of text is escaped; a link to a missing page points at /new.
    The first link to each page has the id link-<slug>."""
    seen: set[str] = set()

    def inline(line: str) -> str:
        out, pos = [], 0
        for m in LINK.finditer(line):
            out.append(str(escape(line[pos : m.start()])))
            target, label = m.group(1).strip(), (m.group(2) or m.group(1)).strip()
            slug = slugify(target)
            ident = "" if slug in seen else f' id="link-{slug}"'
            seen.add(slug)
            if slug in existing:
                out.append(f'<a{ident} class="wikilink" href="/wiki/{slug}">{escape(label)}</a>')
            else:
                href = f"/new?title={escape(quote(target))}"
                out.append(f'<a{ident} class="wikilink missing" href="{href}">{escape(label)}</a>')
            pos = m.end()
        return "".join(out) + str(escape(line[pos:]))

    html: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        items: list[str] = []
        para: list[str] = []
        for line in [*block.splitlines(), ""]:
            line = line.strip()
            if para and (not line or line.startswith("* ") or line.startswith("==")):
                html.append("<p>" + "<br>".join(para) + "</p>")
                para = []
            if items and not line.startswith("* "):
                html.append("<ul>" + "".join(items) + "</ul>")
                items = []
            if heading := re.fullmatch(r"==\s*(.+?)\s*==", line):
                html.append(f'<h2 id="section-{slugify(heading.group(1))}">{inline(heading.group(1))}</h2>')
            elif line.startswith("* "):
                items.append(f"<li>{inline(line[2:])}</li>")
            elif line:
                para.append(inline(line))
    return Markup("\n".join(html))


def nav(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    return [
        ("nav-main", "/", "All pages"),
        ("nav-recent", "/recent", "Recent changes"),
        ("nav-new-page", "/new", "Create page"),
    ]


def page_row(conn: sqlite3.Connection, slug: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM pages WHERE slug = ?", (slug,)).fetchone()


def save(conn: sqlite3.Connection, page_id: int, title: str, body: str, summary: str) -> None:
    """A new revision and the page's current text, written together."""
    user = conn.execute("SELECT value FROM settings WHERE key = 'user'").fetchone()["value"]
    rev = conn.execute(
        "SELECT COALESCE(MAX(rev), 0) + 1 FROM revisions WHERE page_id = ?", (page_id,)
    ).fetchone()[0]
    conn.execute(
        "INSERT INTO revisions (page_id, rev, title, body, summary, author, created)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (page_id, rev, title, body, summary, user, today(conn)),
    )
    write(
        conn,
        "UPDATE pages SET title = ?, body = ?, updated = ?, author = ? WHERE id = ?",
        (title, body, today(conn), user, page_id),
    )


def check(f: dict[str, str]) -> str | None:
    if not f.get("title") or len(f["title"]) > 120 or not slugify(f["title"]):
        return "The title must be 1 to 120 characters and contain a letter or digit."
    if not f.get("body"):
        return "The page text cannot be empty."
    return None


async def index(request: Request) -> Response:
    with open_db(request) as conn:
        pages = conn.execute("SELECT * FROM pages ORDER BY title COLLATE NOCASE").fetchall()
    return SITE.render(request, "index.html", "All pages", pages=pages)


async def search(request: Request) -> Response:
    q = request.query_params.get("q", "").strip()
    with open_db(request) as conn:
        rows = (
            conn.execute(
                "SELECT * FROM pages WHERE title LIKE ? OR body LIKE ? ORDER BY title COLLATE NOCASE",
                (f"%{q}%", f"%{q}%"),
            ).fetchall()
            if q
            else []
        )
    return SITE.render(request, "search.html", "Search", q=q, results=rows)


async def recent(request: Request) -> Response:
    with open_db(request) as conn:
        rows = conn.execute(
            "SELECT r.*, p.slug FROM revisions r JOIN pages p ON p.id = r.page_id"
            " ORDER BY r.created DESC, r.id DESC LIMIT 40"
        ).fetchall()
    return SITE.render(request, "recent.html", "Recent changes", revisions=rows)


async def view(request: Request) -> Response:
    with open_db(request) as conn:
        page = page_row(conn, request.path_params["slug"])
        if page is None:
            return SITE.error(request, "There is no page with that name. Use Create page to start it.", 404)
        rev = request.path_params.get("rev")
        old = None
        if rev is not None:
            old = conn.execute(
                "SELECT * FROM revisions WHERE page_id = ? AND rev = ?", (page["id"], rev)
            ).fetchone()
            if old is None:
                return SITE.error(request, "No such revision.", 404)
        existing = {r["slug"] for r in conn.execute("SELECT slug FROM pages")}
    shown = old or page
    return SITE.render(
        request, "page.html", shown["title"], page=page, old=old, html=render_markup(shown["body"], existing)
    )


async def edit(request: Request) -> Response:
    with open_db(request) as conn:
        page = page_row(conn, request.path_params["slug"])
        if page is None:
            return SITE.error(request, "There is no page with that name.", 404)
        f = {"title": page["title"], "body": page["body"], "summary": ""}
        error = None
        if request.method == "POST":
            f = await form(request)
            error = check(f)
            if not error and (f["title"], f["body"]) == (page["title"], page["body"]):
                error = "No changes to save."
            if not error:
                save(conn, page["id"], f["title"], f["body"], f.get("summary", ""))
                return redirect(f"/wiki/{page['slug']}?ok=saved")
    return SITE.render(
        request, "edit.html", f"Editing {page['title']}", 400 if error else 200, page=page, f=f, error=error
    )


async def restore(request: Request) -> Response:
    with open_db(request) as conn:
        page = page_row(conn, request.path_params["slug"])
        old = (
            page
            and conn.execute(
                "SELECT * FROM revisions WHERE page_id = ? AND rev = ?",
                (page["id"], request.path_params["rev"]),
            ).fetchone()
        )
        if not page or not old:
            return SITE.error(request, "No such revision.", 404)
        if (old["title"], old["body"]) == (page["title"], page["body"]):
            return SITE.error(request, "That revision is the same as the current page.")
        save(conn, page["id"], old["title"], old["body"], f"Restored revision {old['rev']}")
    return redirect(f"/wiki/{page['slug']}?ok=restored")


async def history(request: Request) -> Response:
    with open_db(request) as conn:
        page = page_row(conn, request.path_params["slug"])
        if page is None:
            return SITE.error(request, "There is no page with that name.", 404)
        revs = conn.execute(
            "SELECT * FROM revisions WHERE page_id = ? ORDER BY rev DESC", (page["id"],)
        ).fetchall()
    return SITE.render(request, "history.html", f"History of {page['title']}", page=page, revisions=revs)


async def create(request: Request) -> Response:
    f = {"title": request.query_params.get("title", ""), "body": "", "summary": ""}
    error = None
    if request.method == "POST":
        f = await form(request)
        error = check(f)
        with open_db(request) as conn:
            if not error and page_row(conn, slugify(f["title"])):
                error = f"A page called {f['title']} already exists."
            if not error:
                slug = slugify(f["title"])
                pid = write(
                    conn,
                    "INSERT INTO pages (slug, title, body, updated, author) VALUES (?, ?, ?, ?, '')",
                    (slug, f["title"], f["body"], today(conn)),
                )
                save(conn, pid, f["title"], f["body"], f.get("summary") or "Created page")
                return redirect(f"/wiki/{slug}?ok=created")
    return SITE.render(request, "new.html", "Create a page", 400 if error else 200, f=f, error=error)


def make_app(db_path: str) -> Starlette:
    return SITE.app(
        db_path,
        [
            Route("/", index),
            Route("/search", search),
            Route("/recent", recent),
            Route("/new", create, methods=["GET", "POST"]),
            Route("/wiki/{slug:str}", view),
            Route("/wiki/{slug:str}/edit", edit, methods=["GET", "POST"]),
            Route("/wiki/{slug:str}/history", history),
            Route("/wiki/{slug:str}/rev/{rev:int}", view),
            Route("/wiki/{slug:str}/rev/{rev:int}/restore", restore, methods=["POST"]),
        ],
    )


SITE = Site(
    "Forge Wiki",
    "wiki",
    nav,
    {
        "saved": "Your changes have been saved.",
        "created": "Page created.",
        "restored": "The old revision has been restored.",
    },
)
