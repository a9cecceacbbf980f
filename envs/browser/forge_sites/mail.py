"""Mail: inbox, starred, sent and archive folders, message view, compose, reply, star, archive, search.

Why: tasks that find a fact in a mailbox and act on it (reply to the right person, file a message, write
a new one with exact fields). Sending only stores the message in `sent`: nothing leaves the machine.
"""

from __future__ import annotations

import re
import sqlite3

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .common import SETTINGS_SQL, Site, form, open_db, redirect, today, write

SCHEMA = (
    """
CREATE TABLE messages (id INTEGER PRIMARY KEY,
  folder TEXT NOT NULL CHECK (folder IN ('inbox', 'sent', 'archive')),
  sender TEXT NOT NULL, sender_name TEXT NOT NULL, recipients TEXT NOT NULL, subject TEXT NOT NULL,
  body TEXT NOT NULL, sent_at TEXT NOT NULL, is_read INTEGER NOT NULL DEFAULT 0,
  starred INTEGER NOT NULL DEFAULT 0, in_reply_to INTEGER REFERENCES messages(id));
"""
    + SETTINGS_SQL
)

FOLDERS = {"inbox": "Inbox", "starred": "Starred", "sent": "Sent", "archive": "Archive"}
ADDRESS = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
SEND_TIME = "09:30"


def seed(conn: sqlite3.Connection, data: dict) -> None:
    me = data.get("me", {"email": "alex@northwind.test", "name": "Alex Morgan"})
    conn.executemany(
        "INSERT INTO settings (key, value) VALUES (?, ?)", [("email", me["email"]), ("name", me["name"])]
    )
    for m in data.get("messages", []):
        mine = "from" not in m  # no sender: a message Alex wrote
        conn.execute(
            "INSERT INTO messages (folder, sender, sender_name, recipients, subject, body, sent_at,"
            " is_read, starred)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                m["folder"],
                me["email"] if mine else m["from"],
                me["name"] if mine else m["from_name"],
                m.get("to", me["email"]),
                m["subject"],
                m["body"],
                m["date"],
                int(m.get("read", mine)),
                int(m.get("starred", False)),
            ),
        )


def setting(conn: sqlite3.Connection, key: str) -> str:
    return conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()["value"]


def nav(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    unread = conn.execute("SELECT COUNT(*) FROM messages WHERE folder = 'inbox' AND is_read = 0").fetchone()[
        0
    ]
    return [
        ("nav-inbox", "/", f"Inbox ({unread})"),
        ("nav-starred", "/folder/starred", "Starred"),
        ("nav-sent", "/folder/sent", "Sent"),
        ("nav-archive", "/folder/archive", "Archive"),
        ("nav-compose", "/compose", "Compose"),
    ]


async def folder(request: Request) -> Response:
    name = request.path_params.get("name", "inbox")
    if name not in FOLDERS:
        return SITE.error(request, "No such folder.", 404)
    where = "starred = 1" if name == "starred" else "folder = ?"
    with open_db(request) as conn:
        rows = conn.execute(
            f"SELECT * FROM messages WHERE {where} ORDER BY sent_at DESC, id DESC",
            () if name == "starred" else (name,),
        ).fetchall()
    return SITE.render(request, "list.html", FOLDERS[name], messages=rows, folder=name, q="")


async def search(request: Request) -> Response:
    q = request.query_params.get("q", "").strip()
    with open_db(request) as conn:
        like = f"%{q}%"
        rows = (
            conn.execute(
                "SELECT * FROM messages WHERE subject LIKE ? OR body LIKE ? OR sender LIKE ?"
                " OR sender_name LIKE ?"
                " OR recipients LIKE ? ORDER BY sent_at DESC, id DESC",
                (like,) * 5,
            ).fetchall()
            if q
            else []
        )
    return SITE.render(
        request, "list.html", f'Search: "{q}"' if q else "Search", messages=rows, folder="search", q=q
    )


async def message(request: Request) -> Response:
    mid = request.path_params["id"]
    with open_db(request) as conn:
        m = conn.execute("SELECT * FROM messages WHERE id = ?", (mid,)).fetchone()
        if m is None:
            return SITE.error(request, "No such message.", 404)
        if not m["is_read"]:
            write(conn, "UPDATE messages SET is_read = 1 WHERE id = ?", (mid,))
        parent = (
            m["in_reply_to"]
            and conn.execute("SELECT id, subject FROM messages WHERE id = ?", (m["in_reply_to"],)).fetchone()
        )
        mine = m["sender"] == setting(conn, "email")
    return SITE.render(request, "message.html", m["subject"], m=m, parent=parent, mine=mine)


async def action(request: Request) -> Response:
    """POST /message/{id}/star (toggle), /archive, /restore (back to inbox or sent), /unread."""
    mid, verb = request.path_params["id"], request.path_params["action"]
    with open_db(request) as conn:
        m = conn.execute("SELECT * FROM messages WHERE id = ?", (mid,)).fetchone()
        if m is None or verb not in ("star", "archive", "restore", "unread"):
            return SITE.error(request, "No such message or action.", 404)
        if verb == "star":
            write(conn, "UPDATE messages SET starred = 1 - starred WHERE id = ?", (mid,))
            return redirect(f"/message/{mid}?ok={'unstarred' if m['starred'] else 'starred'}")
        if verb == "unread":
            write(conn, "UPDATE messages SET is_read = 0 WHERE id = ?", (mid,))
            return redirect("/?ok=unread")
        if verb == "archive" and m["folder"] == "archive":
            return SITE.error(request, "This message is already in the archive.")
        if verb == "restore" and m["folder"] != "archive":
            return SITE.error(request, "Only archived messages can be moved back.")
        back = "sent" if m["sender"] == setting(conn, "email") else "inbox"
        write(
            conn,
            "UPDATE messages SET folder = ? WHERE id = ?",
            ("archive" if verb == "archive" else back, mid),
        )
    return redirect(f"/?ok={verb}d" if verb == "archive" else f"/folder/archive?ok={verb}d")


def quote_reply(m: sqlite3.Row) -> str:
    quoted = "\n".join(f"> {line}" for line in m["body"].splitlines())
    return f"\n\nOn {m['sent_at']}, {m['sender_name']} wrote:\n{quoted}"


async def compose(request: Request) -> Response:
    error = None
    with open_db(request) as conn:
        if request.method == "POST":
            f = await form(request)
            addresses = [a.strip() for a in f.get("to", "").replace(";", ",").split(",") if a.strip()]
            parent = f.get("in_reply_to", "")
            if not addresses or not all(ADDRESS.fullmatch(a) for a in addresses):
                error = "Enter one or more valid email addresses, separated by commas."
            elif not f.get("subject"):
                error = "The subject cannot be empty."
            elif parent and not (
                parent.isdigit() and conn.execute("SELECT 1 FROM messages WHERE id = ?", (parent,)).fetchone()
            ):
                error = "The message you are replying to no longer exists."
            else:
                write(
                    conn,
                    "INSERT INTO messages (folder, sender, sender_name, recipients, subject, body, sent_at,"
                    " is_read, in_reply_to) VALUES ('sent', ?, ?, ?, ?, ?, ?, 1, ?)",
                    (
                        setting(conn, "email"),
                        setting(conn, "name"),
                        ", ".join(addresses),
                        f["subject"],
                        f.get("body", ""),
                        f"{today(conn)} {SEND_TIME}",
                        int(parent) if parent else None,
                    ),
                )
                return redirect("/folder/sent?ok=sent")
        else:
            f = {"to": request.query_params.get("to", ""), "subject": "", "body": "", "in_reply_to": ""}
            reply_to = request.query_params.get("reply_to", "")
            m = (
                reply_to.isdigit()
                and conn.execute("SELECT * FROM messages WHERE id = ?", (reply_to,)).fetchone()
            )
            if m:
                mine = m["sender"] == setting(conn, "email")
                subject = m["subject"] if m["subject"].lower().startswith("re:") else f"Re: {m['subject']}"
                f = {
                    "to": m["recipients"] if mine else m["sender"],
                    "subject": subject,
                    "body": quote_reply(m),
                    "in_reply_to": str(m["id"]),
                }
    title = "Reply" if f.get("in_reply_to") else "New message"
    return SITE.render(request, "compose.html", title, 400 if error else 200, f=f, error=error)


def make_app(db_path: str) -> Starlette:
    return SITE.app(
        db_path,
        [
            Route("/", folder),
            Route("/folder/{name:str}", folder),
            Route("/search", search),
            Route("/message/{id:int}", message),
            Route("/message/{id:int}/{action:str}", action, methods=["POST"]),
            Route("/compose", compose, methods=["GET", "POST"]),
        ],
    )


SITE = Site(
    "Forge Mail",
    "mail",
    nav,
    {
        "sent": "Your message has been sent.",
        "starred": "Message starred.",
        "unstarred": "Star removed.",
        "archived": "Message archived.",
        "restored": "Message moved back.",
        "unread": "Message marked as unread.",
    },
)
