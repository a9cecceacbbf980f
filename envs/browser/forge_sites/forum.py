"""Forum: categories, a searchable thread list, threads with posts, new threads, replies and upvotes.

Why: tasks that read discussions (who said what, which answer scored best) and write to them (start a
thread in the right category, reply, upvote). The user is fixed (settings 'user', default alex): no login.
"""

from __future__ import annotations

import sqlite3

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .common import SETTINGS_SQL, Site, form, open_db, redirect, today, write

SCHEMA = (
    """
CREATE TABLE users (id INTEGER PRIMARY KEY, username TEXT UNIQUE NOT NULL, display_name TEXT NOT NULL,
  joined TEXT NOT NULL, bio TEXT NOT NULL DEFAULT '');
CREATE TABLE categories (id INTEGER PRIMARY KEY, slug TEXT UNIQUE NOT NULL, name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '');
CREATE TABLE threads (id INTEGER PRIMARY KEY, category_id INTEGER NOT NULL REFERENCES categories(id),
  title TEXT NOT NULL, author_id INTEGER NOT NULL REFERENCES users(id), created TEXT NOT NULL,
  pinned INTEGER NOT NULL DEFAULT 0, locked INTEGER NOT NULL DEFAULT 0);
CREATE TABLE posts (id INTEGER PRIMARY KEY, thread_id INTEGER NOT NULL REFERENCES threads(id),
  author_id INTEGER NOT NULL REFERENCES users(id), body TEXT NOT NULL, created TEXT NOT NULL,
  score INTEGER NOT NULL DEFAULT 0);
CREATE TABLE votes (post_id INTEGER NOT NULL REFERENCES posts(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  PRIMARY KEY (post_id, user_id));
"""
    + SETTINGS_SQL
)

THREADS = """SELECT t.*, c.name AS category, c.slug AS category_slug, u.username AS author,
  (SELECT COUNT(*) - 1 FROM posts WHERE thread_id = t.id) AS replies,
  (SELECT MAX(created) FROM posts WHERE thread_id = t.id) AS last_post
  FROM threads t JOIN categories c ON c.id = t.category_id JOIN users u ON u.id = t.author_id"""


def seed(conn: sqlite3.Connection, data: dict) -> None:
    conn.execute("INSERT INTO settings (key, value) VALUES ('user', ?)", (data.get("current_user", "alex"),))
    for u in data.get("users", []):
        conn.execute(
            "INSERT INTO users (username, display_name, joined, bio) VALUES (?, ?, ?, ?)",
            (u["username"], u["display_name"], u["joined"], u.get("bio", "")),
        )
    for c in data.get("categories", []):
        conn.execute(
            "INSERT INTO categories (slug, name, description) VALUES (?, ?, ?)",
            (c["slug"], c["name"], c.get("description", "")),
        )
    uid = "(SELECT id FROM users WHERE username = ?)"
    for t in data.get("threads", []):
        tid = conn.execute(
            f"INSERT INTO threads (category_id, title, author_id, created, pinned, locked) VALUES"
            f" ((SELECT id FROM categories WHERE slug = ?), ?, {uid}, ?, ?, ?)",
            (
                t["category"],
                t["title"],
                t["posts"][0]["author"],
                t["posts"][0]["created"],
                int(t.get("pinned", False)),
                int(t.get("locked", False)),
            ),
        ).lastrowid
        for p in t["posts"]:
            pid = conn.execute(
                f"INSERT INTO posts (thread_id, author_id, body, created, score) VALUES (?, {uid}, ?, ?, ?)",
                (tid, p["author"], p["body"], p["created"], p.get("score", 0)),
            ).lastrowid
            for voter in p.get("voters", []):
                conn.execute(f"INSERT INTO votes (post_id, user_id) VALUES (?, {uid})", (pid, voter))


def me(conn: sqlite3.Connection) -> sqlite3.Row:
    return conn.execute(
        "SELECT * FROM users WHERE username = (SELECT value FROM settings WHERE key = 'user')"
    ).fetchone()


def nav(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    user = me(conn)
    return [
        ("nav-threads", "/", "All threads"),
        ("nav-new-thread", "/new", "New thread"),
        ("nav-profile", f"/user/{user['username']}", f"Signed in as {user['username']}"),
    ]


async def threads(request: Request) -> Response:
    q = request.query_params.get("q", "").strip()
    category = request.query_params.get("category", "")
    sql, params = THREADS + " WHERE 1=1", []
    if q:
        sql += (
            " AND (t.title LIKE ? OR EXISTS"
            " (SELECT 1 FROM posts p WHERE p.thread_id = t.id AND p.body LIKE ?))"
        )
        params += [f"%{q}%", f"%{q}%"]
    if category:
        sql += " AND c.slug = ?"
        params.append(category)
    with open_db(request) as conn:
        rows = conn.execute(sql + " ORDER BY t.pinned DESC, last_post DESC, t.id DESC", params).fetchall()
        categories = conn.execute(
            "SELECT c.*, (SELECT COUNT(*) FROM threads WHERE category_id = c.id) AS threads"
            " FROM categories c ORDER BY c.name"
        ).fetchall()
    return SITE.render(
        request, "threads.html", "Discussions", threads=rows, categories=categories, q=q, category=category
    )


async def thread(request: Request) -> Response:
    return thread_page(request, request.path_params["id"])


def thread_page(request: Request, tid: int, error: str | None = None, body: str = "") -> Response:
    with open_db(request) as conn:
        t = conn.execute(THREADS + " WHERE t.id = ?", (tid,)).fetchone()
        if t is None:
            return SITE.error(request, "No such thread.", 404)
        posts = conn.execute(
            "SELECT p.*, u.username AS author, u.display_name,"
            " EXISTS (SELECT 1 FROM votes v WHERE v.post_id = p.id AND v.user_id = ?) AS voted"
            " FROM posts p JOIN users u ON u.id = p.author_id WHERE p.thread_id = ? ORDER BY p.created, p.id",
            (me(conn)["id"], tid),
        ).fetchall()
    return SITE.render(
        request, "thread.html", t["title"], 400 if error else 200, t=t, posts=posts, error=error, body=body
    )


async def reply(request: Request) -> Response:
    f = await form(request)
    tid = request.path_params["id"]
    with open_db(request) as conn:
        t = conn.execute("SELECT * FROM threads WHERE id = ?", (tid,)).fetchone()
        if t is None:
            return SITE.error(request, "No such thread.", 404)
        if t["locked"]:
            return thread_page(request, tid, "This thread is locked: no new replies.", f.get("body", ""))
        if not f.get("body"):
            return thread_page(request, tid, "Your reply is empty.")
        pid = write(
            conn,
            "INSERT INTO posts (thread_id, author_id, body, created) VALUES (?, ?, ?, ?)",
            (tid, me(conn)["id"], f["body"], f"{today(conn)} 09:00"),
        )
    return redirect(f"/thread/{tid}?ok=replied#post-{pid}")


async def upvote(request: Request) -> Response:
    pid = request.path_params["id"]
    with open_db(request) as conn:
        post = conn.execute("SELECT * FROM posts WHERE id = ?", (pid,)).fetchone()
        if post is None:
            return SITE.error(request, "No such post.", 404)
        user = me(conn)
        if post["author_id"] == user["id"]:
            return thread_page(request, post["thread_id"], "You cannot upvote your own post.")
        if conn.execute(
            "SELECT 1 FROM votes WHERE post_id = ? AND user_id = ?", (pid, user["id"])
        ).fetchone():
            return thread_page(request, post["thread_id"], "You have already upvoted this post.")
        write(conn, "INSERT INTO votes (post_id, user_id) VALUES (?, ?)", (pid, user["id"]))
        write(conn, "UPDATE posts SET score = score + 1 WHERE id = ?", (pid,))
    return redirect(f"/thread/{post['thread_id']}?ok=upvoted#post-{pid}")


async def new_thread(request: Request) -> Response:
    f = (
        await form(request)
        if request.method == "POST"
        else {"category": request.query_params.get("category", "")}
    )
    error = None
    with open_db(request) as conn:
        categories = conn.execute("SELECT * FROM categories ORDER BY name").fetchall()
        if request.method == "POST":
            cat = conn.execute(
                "SELECT id FROM categories WHERE slug = ?", (f.get("category", ""),)
            ).fetchone()
            if cat is None:
                error = "Please choose a category."
            elif not f.get("title") or len(f["title"]) > 120:
                error = "The title must be 1 to 120 characters."
            elif not f.get("body"):
                error = "The first post cannot be empty."
            else:
                user, now = me(conn)["id"], f"{today(conn)} 09:00"
                tid = write(
                    conn,
                    "INSERT INTO threads (category_id, title, author_id, created) VALUES (?, ?, ?, ?)",
                    (cat["id"], f["title"], user, now),
                )
                write(
                    conn,
                    "INSERT INTO posts (thread_id, author_id, body, created) VALUES (?, ?, ?, ?)",
                    (tid, user, f["body"], now),
                )
                return redirect(f"/thread/{tid}?ok=created")
    return SITE.render(
        request,
        "new.html",
        "Start a new thread",
        400 if error else 200,
        f=f,
        categories=categories,
        error=error,
    )


async def user(request: Request) -> Response:
    with open_db(request) as conn:
        u = conn.execute("SELECT * FROM users WHERE username = ?", (request.path_params["name"],)).fetchone()
        if u is None:
            return SITE.error(request, "No such user.", 404)
        started = conn.execute(
            THREADS + " WHERE t.author_id = ? ORDER BY t.created DESC", (u["id"],)
        ).fetchall()
        stats = conn.execute(
            "SELECT COUNT(*) AS posts, COALESCE(SUM(score), 0) AS score FROM posts WHERE author_id = ?",
            (u["id"],),
        ).fetchone()
    return SITE.render(request, "user.html", u["display_name"], u=u, threads=started, stats=stats)


def make_app(db_path: str) -> Starlette:
    return SITE.app(
        db_path,
        [
            Route("/", threads),
            Route("/thread/{id:int}", thread),
            Route("/thread/{id:int}/reply", reply, methods=["POST"]),
            Route("/post/{id:int}/upvote", upvote, methods=["POST"]),
            Route("/new", new_thread, methods=["GET", "POST"]),
            Route("/user/{name:str}", user),
        ],
    )


SITE = Site(
    "Forge Forum",
    "forum",
    nav,
    {
        "replied": "Your reply has been posted.",
        "upvoted": "Upvoted.",
        "created": "Your thread has been created.",
    },
)
