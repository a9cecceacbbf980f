"""The five browser-task sites (envs/browser/forge_sites), each seeded from its default seed and driven
through starlette's TestClient: pages render with unique ids and labelled controls, each write changes
exactly the rows it should, bad input gets a 400 page with a visible message, search and filters work.

The package is imported as the top-level `forge_sites`, as the browser image runs it."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

BROWSER = Path(__file__).resolve().parents[3] / "envs" / "browser"
sys.path.insert(0, str(BROWSER))

from forge_sites import SITES, calendar, forum, mail, shop, wiki  # noqa: E402
from forge_sites.__main__ import main  # noqa: E402
from forge_sites.common import create_db  # noqa: E402

MODULES = {"shop": shop, "forum": forum, "wiki": wiki, "mail": mail, "calendar": calendar}
SEEDS = BROWSER / "forge_sites" / "seeds"


class Site:
    """A seeded site: its client and its database file."""

    def __init__(self, name: str, tmp_path: Path) -> None:
        self.name = name
        self.db = str(tmp_path / f"{name}.db")
        create_db(
            self.db,
            MODULES[name].SCHEMA,
            MODULES[name].seed,
            json.loads((SEEDS / f"{name}.json").read_text()),
        )
        self.client = TestClient(MODULES[name].make_app(self.db))

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        conn = sqlite3.connect(self.db)
        try:
            return [tuple(r) for r in conn.execute(sql, params).fetchall()]
        finally:
            conn.close()

    def one(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        return self.rows(sql, params)[0][0]

    def get(self, url: str, status: int = 200) -> str:
        response = self.client.get(url)
        assert response.status_code == status, (url, response.status_code)
        return response.text

    def post(self, url: str, data: dict[str, str] | None = None, location: str | None = None) -> str:
        """A POST that must redirect (303) to `location` (a prefix)."""
        response = self.client.post(url, data=data or {}, follow_redirects=False)
        assert response.status_code == 303, (url, response.status_code, error_text(response.text))
        assert location is None or response.headers["location"].startswith(location), response.headers
        return response.headers["location"]

    def bad(self, url: str, data: dict[str, str] | None = None, message: str = "") -> str:
        """A POST refused with 400 and a visible error message containing `message`."""
        response = self.client.post(url, data=data or {}, follow_redirects=False)
        assert response.status_code == 400, (url, response.status_code)
        assert message in error_text(response.text)
        return response.text


@pytest.fixture
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    s = Site(request.param, tmp_path)
    with s.client:
        yield s


def use(name: str) -> Any:
    return pytest.mark.parametrize("site", [name], indirect=True)


def error_text(html: str) -> str:
    match = re.search(r'<p id="error"[^>]*>(.*?)</p>', html, re.S)
    return match.group(1) if match else ""


class Controls(HTMLParser):
    """Ids, and the controls that lack an id, a name or visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.problems: list[str] = []
        self.urls: list[str] = []
        self.open: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(a["id"] or "")
        self.urls += [v or "" for k, v in attrs if k in ("href", "src", "action")]
        hidden = tag == "input" and a.get("type") == "hidden"
        if tag in ("input", "textarea") and not hidden and not (a.get("id") and a.get("name")):
            self.problems.append(f"{tag} {a}")
        if tag in ("a", "button"):
            if not a.get("id"):
                self.problems.append(f"{tag} without id {a}")
            self.open = {"tag": tag, "attrs": a, "text": ""}

    def handle_data(self, data: str) -> None:
        if self.open is not None:
            self.open["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if self.open is not None and self.open["tag"] == tag:
            if not self.open["text"].strip():
                self.problems.append(f"{tag} without text {self.open['attrs']}")
            self.open = None


PAGES = {
    "shop": [
        "/",
        "/?q=cast",
        "/?category=books&sort=price_desc",
        "/product/1",
        "/product/13",
        "/cart",
        "/checkout",
        "/orders",
        "/orders/1",
    ],
    "forum": ["/", "/?q=sourdough", "/?category=cycling", "/thread/1", "/thread/7", "/new", "/user/alex"],
    "wiki": [
        "/",
        "/search?q=wi-fi",
        "/search",
        "/search?q=zzzz",
        "/recent",
        "/wiki/main-page",
        "/wiki/expense-policy/history",
        "/wiki/expense-policy/rev/1",
        "/wiki/expense-policy/edit",
        "/new?title=Parking%20rules",
    ],
    "mail": [
        "/",
        "/folder/sent",
        "/folder/archive",
        "/folder/starred",
        "/search?q=invoice",
        "/search",
        "/message/1",
        "/message/30",
        "/compose",
        "/compose?reply_to=1",
    ],
    "calendar": [
        "/",
        "/?date=2026-03-25",
        "/rooms",
        "/book",
        "/book?room=avon&date=2026-03-18",
        "/booking/1",
        "/my",
    ],
}


@pytest.mark.parametrize("site", SITES, indirect=True)
def test_every_page_renders_with_unique_ids_and_labelled_controls(site: Site) -> None:
    for url in PAGES[site.name]:
        html = site.get(url)
        assert '<h1 id="page-title">' in html and 'id="site-name"' in html, url
        parser = Controls()
        parser.feed(html)
        duplicates = {i for i in parser.ids if parser.ids.count(i) > 1}
        assert not duplicates, (url, duplicates)
        assert not parser.problems, (url, parser.problems)
        assert not [u for u in parser.urls if u.startswith(("http:", "https:", "//"))], url
        assert "<script" not in html and "DejaVu Sans" in html and "1100px" in html
    missing = site.get("/no/such/page", 404)
    assert 'id="error"' in missing and "does not exist" in missing


def test_seed_cli_refuses_an_existing_database(tmp_path: Path) -> None:
    db = tmp_path / "site.db"
    assert main(["seed", "wiki", "--seed", str(SEEDS / "wiki.json"), "--db", str(db)]) == 0
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*) FROM pages").fetchone()[0] == 18
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
    before = db.read_bytes()
    assert main(["seed", "wiki", "--seed", str(SEEDS / "wiki.json"), "--db", str(db)]) == 1
    assert db.read_bytes() == before


def test_a_seed_that_fails_leaves_no_database(tmp_path: Path) -> None:
    db = tmp_path / "site.db"
    with pytest.raises(KeyError):
        create_db(str(db), shop.SCHEMA, shop.seed, {"categories": [{"slug": "x"}]})
    assert not db.exists()


# --- shop ---


@use("shop")
def test_shop_search_filter_and_sort(site: Site) -> None:
    html = site.get("/?q=cast")
    assert re.findall(r'id="product-link-(\d+)"', html) == [
        "2",
        "26",
    ]  # Cast Iron Skillet, Cooking with Cast Iron
    html = site.get("/?category=books&sort=price_asc")
    names = re.findall(r'id="product-link-\d+" href="[^"]+">([^<]+)<', html)
    assert names == [
        "Cooking with Cast Iron",
        "The Pragmatic Gardener",
        "Night Trains of Europe",
        "A Short History of Maps",
        "Learn Python in 30 Days",
    ]
    html = site.get("/?sort=price_desc")
    assert re.findall(r'id="product-link-(\d+)"', html)[0] == "12"  # the 4K monitor
    assert 'id="no-results"' in site.get("/?q=nothing-like-this")


@use("shop")
def test_shop_cart_and_checkout_write_the_order(site: Site) -> None:
    site.post("/cart/add", {"product_id": "2", "quantity": "2"}, "/cart")
    site.post("/cart/add", {"product_id": "2", "quantity": "1"}, "/cart")
    site.post("/cart/add", {"product_id": "21", "quantity": "5"}, "/cart")
    site.post("/cart/add", {"product_id": "8", "quantity": "1"}, "/cart")
    assert site.rows("SELECT product_id, quantity FROM cart_items ORDER BY product_id") == [
        (2, 3),
        (8, 1),
        (21, 5),
    ]
    site.post("/cart/update", {"product_id": "21", "quantity": "2"}, "/cart")
    site.post("/cart/remove", {"product_id": "8"}, "/cart")
    assert site.rows("SELECT product_id, quantity FROM cart_items ORDER BY product_id") == [(2, 3), (21, 2)]
    assert "Cart (5)" in site.get("/cart")
    location = site.post(
        "/checkout", {"name": "Jo Bloggs", "address": "1 High St\r\nBath", "shipping": "express"}, "/orders/7"
    )
    assert site.rows(
        "SELECT customer_name, address, shipping_method, shipping_cents, total_cents, status, created"
        " FROM orders WHERE id = 7"
    ) == [
        ("Jo Bloggs", "1 High St\nBath", "express", 1299, 3 * 3499 + 2 * 1450 + 1299, "placed", "2026-03-16")
    ]
    assert site.rows(
        "SELECT product_id, quantity, unit_price_cents FROM order_items WHERE order_id = 7"
        " ORDER BY product_id"
    ) == [(2, 3, 3499), (21, 2, 1450)]
    assert site.rows("SELECT stock FROM products WHERE id IN (2, 21) ORDER BY id") == [(19,), (58,)]
    assert site.one("SELECT COUNT(*) FROM cart_items") == 0
    page = site.client.get(location).text
    assert "Thank you! Your order has been placed." in page and "Jo Bloggs" in page
    assert 'id="order-link-7"' in site.get("/orders")


@use("shop")
def test_shop_bad_input_is_refused(site: Site) -> None:
    site.bad("/cart/add", {"product_id": "2", "quantity": "0"}, "Quantity must be a whole number")
    site.bad("/cart/add", {"product_id": "2", "quantity": "two"}, "Quantity must be a whole number")
    site.bad("/cart/add", {"product_id": "12", "quantity": "5"}, "Only 4 of")
    site.bad("/cart/add", {"product_id": "13", "quantity": "1"}, "Only 0 of")  # out of stock
    site.bad("/cart/add", {"product_id": "999", "quantity": "1"}, "No such product")
    site.bad("/checkout", {"name": "A", "address": "B", "shipping": "standard"}, "Your cart is empty")
    site.post("/cart/add", {"product_id": "1", "quantity": "1"})
    site.bad("/checkout", {"name": "", "address": "B", "shipping": "standard"}, "name and address")
    html = site.bad("/checkout", {"name": "A", "address": "B", "shipping": "drone"}, "shipping method")
    assert 'value="A"' in html  # what was typed stays in the form
    site.bad("/cart/update", {"product_id": "1", "quantity": "100"}, "Quantity must be")
    assert site.rows("SELECT product_id, quantity FROM cart_items") == [(1, 1)]
    assert site.one("SELECT COUNT(*) FROM orders") == 6


# --- forum ---


@use("forum")
def test_forum_search_and_categories(site: Site) -> None:
    assert re.findall(r'id="thread-link-(\d+)"', site.get("/?q=rye")) == ["7"]
    cycling = re.findall(r'id="thread-link-(\d+)"', site.get("/?category=cycling"))
    assert sorted(cycling) == ["3", "4", "5", "6"] and cycling[0] == "3"  # most recent activity first
    assert re.findall(r'id="thread-link-(\d+)"', site.get("/"))[:2] == ["2", "1"]  # pinned first
    assert 'id="no-results"' in site.get("/?q=rye&category=cycling")


@use("forum")
def test_forum_reply_upvote_and_new_thread(site: Site) -> None:
    site.post("/thread/7/reply", {"body": "Mine took ten days.\r\n\r\nKeep going!"}, "/thread/7")
    assert site.rows(
        "SELECT p.thread_id, u.username, p.body, p.created, p.score FROM posts p"
        " JOIN users u ON u.id = p.author_id ORDER BY p.id DESC LIMIT 1"
    ) == [(7, "alex", "Mine took ten days.\n\nKeep going!", "2026-03-16 09:00", 0)]
    assert "<p>Keep going!</p>" in site.get("/thread/7")
    pid = site.one("SELECT id FROM posts WHERE body LIKE 'Try feeding with 50%'")
    site.post(f"/post/{pid}/upvote", location="/thread/7")
    assert site.one("SELECT score FROM posts WHERE id = ?", (pid,)) == 15
    assert site.rows(
        "SELECT u.username FROM votes v JOIN users u ON u.id = v.user_id WHERE v.post_id = ?", (pid,)
    ) == [("alex",)]
    assert re.search(rf'id="upvote-{pid}" disabled>Upvoted<', site.get("/thread/7"))
    site.bad(f"/post/{pid}/upvote", message="already upvoted")
    own = site.one("SELECT id FROM posts WHERE body LIKE 'I ride 12 km%'")
    site.bad(f"/post/{own}/upvote", message="your own post")
    assert site.one("SELECT score FROM posts WHERE id = ?", (pid,)) == 15
    location = site.post(
        "/new", {"category": "gardening", "title": "Slugs on my lettuce", "body": "Help!"}, "/thread/"
    )
    tid = int(location.split("/")[2].split("?")[0])
    assert site.rows(
        "SELECT c.slug, t.title, t.locked FROM threads t JOIN categories c ON c.id = t.category_id"
        " WHERE t.id = ?",
        (tid,),
    ) == [("gardening", "Slugs on my lettuce", 0)]
    assert site.rows("SELECT body FROM posts WHERE thread_id = ?", (tid,)) == [("Help!",)]
    assert f'id="thread-link-{tid}"' in site.get("/?category=gardening")


@use("forum")
def test_forum_bad_input_is_refused(site: Site) -> None:
    posts = site.one("SELECT COUNT(*) FROM posts")
    site.bad("/thread/7/reply", {"body": "  "}, "Your reply is empty")
    locked = site.one("SELECT id FROM threads WHERE locked = 1 AND title LIKE 'Old thread%'")
    html = site.bad(f"/thread/{locked}/reply", {"body": "hello"}, "locked")
    assert "hello" not in error_text(html)
    site.bad("/new", {"category": "nope", "title": "T", "body": "B"}, "choose a category")
    site.bad("/new", {"category": "cycling", "title": "", "body": "B"}, "title")
    site.bad("/new", {"category": "cycling", "title": "x" * 121, "body": "B"}, "title")
    site.bad("/new", {"category": "cycling", "title": "T", "body": ""}, "cannot be empty")
    assert site.one("SELECT COUNT(*) FROM posts") == posts
    assert site.get("/thread/999", 404)


# --- wiki ---


@use("wiki")
def test_wiki_markup_links_and_search(site: Site) -> None:
    html = site.get("/wiki/main-page")
    assert '<h2 id="section-policies">Policies</h2>' in html
    assert (
        '<a id="link-expense-policy" class="wikilink" href="/wiki/expense-policy">Expense policy</a>' in html
    )
    assert re.findall(r'id="result-link-([a-z-]+)"', site.get("/search?q=wi-fi")) == ["it-support"]
    assert re.findall(r'id="result-link-([a-z-]+)"', site.get("/search?q=Avon")) == [
        "fire-safety",
        "meeting-rooms",
    ]
    assert 'id="create-from-search"' in site.get("/search?q=zebra")
    assert "up to 40 pounds" not in site.get("/wiki/expense-policy/rev/1")
    assert "up to 40 pounds" in site.get("/wiki/expense-policy")


@use("wiki")
def test_wiki_edit_create_and_restore_write_revisions(site: Site) -> None:
    body = "Submit expenses within 14 days.\n\n<script>alert(1)</script> [[Travel policy|travel]] [[Nowhere]]"
    site.post("/wiki/expense-policy/edit", {"title": "Expense policy", "body": body, "summary": "Shorter"})
    assert site.rows(
        "SELECT r.rev, r.body, r.summary, r.author, r.created FROM revisions r"
        " JOIN pages p ON p.id = r.page_id"
        " WHERE p.slug = 'expense-policy' ORDER BY rev DESC LIMIT 1"
    ) == [(4, body, "Shorter", "alex", "2026-03-16")]
    assert site.rows("SELECT body, updated, author FROM pages WHERE slug = 'expense-policy'") == [
        (body, "2026-03-16", "alex")
    ]
    html = site.get("/wiki/expense-policy")
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert 'href="/wiki/travel-policy">travel</a>' in html and 'href="/new?title=Nowhere">Nowhere</a>' in html
    assert 'id="rev-4"' in site.get("/wiki/expense-policy/history")
    site.post("/wiki/expense-policy/rev/2/restore", location="/wiki/expense-policy")
    assert site.rows(
        "SELECT rev, summary FROM revisions r JOIN pages p ON p.id = r.page_id"
        " WHERE p.slug = 'expense-policy' ORDER BY rev DESC LIMIT 1"
    ) == [(5, "Restored revision 2")]
    assert "up to 40 pounds per day" in site.one("SELECT body FROM pages WHERE slug = 'expense-policy'")
    site.post(
        "/new",
        {"title": "Bike Repair Stand", "body": "In the basement.", "summary": ""},
        "/wiki/bike-repair-stand",
    )
    assert site.rows(
        "SELECT p.title, r.rev, r.summary FROM pages p JOIN revisions r ON r.page_id = p.id"
        " WHERE p.slug = 'bike-repair-stand'"
    ) == [("Bike Repair Stand", 1, "Created page")]
    assert 'id="page-link-bike-repair-stand"' in site.get("/")


@use("wiki")
def test_wiki_bad_input_is_refused(site: Site) -> None:
    revisions = site.one("SELECT COUNT(*) FROM revisions")
    page = site.rows("SELECT title, body FROM pages WHERE slug = 'parking'")[0]
    site.bad("/wiki/parking/edit", {"title": page[0], "body": page[1], "summary": "x"}, "No changes")
    site.bad("/wiki/parking/edit", {"title": "", "body": "x"}, "title")
    site.bad("/wiki/parking/edit", {"title": "Parking", "body": ""}, "cannot be empty")
    site.bad("/new", {"title": "Glossary", "body": "dup"}, "already exists")
    site.bad("/new", {"title": "!!!", "body": "x"}, "title")
    site.bad("/wiki/parking/rev/1/restore", message="same as the current page")
    assert site.one("SELECT COUNT(*) FROM revisions") == revisions
    site.get("/wiki/no-such-page", 404)
    site.get("/wiki/parking/rev/9", 404)


# --- mail ---


@use("mail")
def test_mail_folders_search_and_reading(site: Site) -> None:
    assert len(re.findall(r'id="msg-row-', site.get("/"))) == 22
    assert len(re.findall(r'id="msg-row-', site.get("/folder/sent"))) == 6
    assert len(re.findall(r'id="msg-row-', site.get("/folder/archive"))) == 5
    assert len(re.findall(r'id="msg-row-', site.get("/folder/starred"))) == 4
    assert "Inbox (7)" in site.get("/")
    assert re.findall(r'id="msg-link-(\d+)"', site.get("/search?q=tomasz")) == ["23", "4", "18"]
    site.get("/message/1")
    assert site.one("SELECT is_read FROM messages WHERE id = 1") == 1
    assert "Inbox (6)" in site.get("/")
    site.post("/message/1/unread", location="/")
    assert site.one("SELECT is_read FROM messages WHERE id = 1") == 0


@use("mail")
def test_mail_star_archive_compose_and_reply(site: Site) -> None:
    site.post("/message/6/star", location="/message/6")
    assert site.one("SELECT starred FROM messages WHERE id = 6") == 1
    site.post("/message/6/star")
    assert site.one("SELECT starred FROM messages WHERE id = 6") == 0
    site.post("/message/6/archive", location="/")
    assert site.one("SELECT folder FROM messages WHERE id = 6") == "archive"
    site.post("/message/6/restore")
    assert site.one("SELECT folder FROM messages WHERE id = 6") == "inbox"
    site.post("/message/23/archive")
    site.post("/message/23/restore")
    assert (
        site.one("SELECT folder FROM messages WHERE id = 23") == "sent"
    )  # Alex's own message goes back to Sent
    form = site.get("/compose?reply_to=6")
    assert (
        'value="lucia.romero@northwind.test"' in form and 'value="Re: Code review for the export job"' in form
    )
    site.post(
        "/compose",
        {
            "to": "lucia.romero@northwind.test",
            "subject": "Re: Code review for the export job",
            "body": "Done, two comments.",
            "in_reply_to": "6",
        },
        "/folder/sent",
    )
    site.post("/compose", {"to": "a@example.com; b@example.org", "subject": "Hi", "body": ""}, "/folder/sent")
    assert site.rows(
        "SELECT folder, sender, recipients, subject, body, sent_at, in_reply_to FROM messages"
        " WHERE id > 33 ORDER BY id"
    ) == [
        (
            "sent",
            "alex@northwind.test",
            "lucia.romero@northwind.test",
            "Re: Code review for the export job",
            "Done, two comments.",
            "2026-03-16 09:30",
            6,
        ),
        ("sent", "alex@northwind.test", "a@example.com, b@example.org", "Hi", "", "2026-03-16 09:30", None),
    ]
    assert 'id="msg-link-34"' in site.get("/folder/sent")


@use("mail")
def test_mail_bad_input_is_refused(site: Site) -> None:
    site.bad("/compose", {"to": "", "subject": "x"}, "valid email")
    site.bad("/compose", {"to": "alex@northwind.test, not-an-address", "subject": "x"}, "valid email")
    html = site.bad("/compose", {"to": "a@example.com", "subject": "", "body": "kept"}, "subject")
    assert ">\nkept</textarea>" in html
    site.bad("/compose", {"to": "a@example.com", "subject": "x", "in_reply_to": "999"}, "no longer exists")
    site.bad("/message/30/archive", message="already in the archive")
    site.bad("/message/1/restore", message="Only archived messages")
    assert site.one("SELECT COUNT(*) FROM messages") == 33
    assert site.client.post("/message/999/star").status_code == 404


# --- calendar ---


@use("calendar")
def test_calendar_week_view_and_rooms(site: Site) -> None:
    html = site.get("/")
    assert "Week of 16 March 2026" in html
    assert len(re.findall(r'id="booking-\d+"', html)) == 17
    cell = re.search(r'id="cell-avon-2026-03-18"(.*?)</td>', html, re.S)
    assert cell and "15:00-16:00 Customer call: Bluebell Foods" in cell.group(1)
    assert (
        'id="book-avon-2026-03-18"' in html and 'id="book-avon-2026-03-15"' not in html
    )  # no booking the past
    week = site.get("/?date=2026-03-26")
    assert "Week of 23 March 2026" in week and len(re.findall(r'id="booking-\d+"', week)) == 9
    assert (
        len(re.findall(r'id="booking-\d+"', site.get("/?date=2026-03-13"))) == 5
    )  # cancelled ones are hidden
    assert 'id="error"' in site.get("/?date=2026-13-01", 400)
    assert 'id="room-temple"' in site.get("/rooms")


@use("calendar")
def test_calendar_book_and_cancel(site: Site) -> None:
    good = {
        "room": "avon",
        "date": "2026-03-18",
        "start": "16:00",
        "end": "17:00",
        "title": "Sync",
        "attendees": "3",
    }
    location = site.post("/book", good, "/booking/")
    bid = int(location.split("/")[2].split("?")[0])
    assert site.rows(
        "SELECT r.slug, b.date, b.start, b.end, b.title, b.booked_by, b.attendees, b.status"
        " FROM bookings b JOIN rooms r ON r.id = b.room_id WHERE b.id = ?",
        (bid,),
    ) == [("avon", "2026-03-18", "16:00", "17:00", "Sync", "alex", 3, "confirmed")]
    assert f'id="booking-{bid}"' in site.get("/?date=2026-03-18")
    assert f'id="my-booking-{bid}"' in site.get("/my")
    site.post(f"/booking/{bid}/cancel", location="/my")
    assert site.one("SELECT status FROM bookings WHERE id = ?", (bid,)) == "cancelled"
    assert f'id="booking-{bid}"' not in site.get("/?date=2026-03-18")
    site.post("/book", good, "/booking/")  # the slot is free again


@use("calendar")
def test_calendar_bad_input_is_refused(site: Site) -> None:
    good = {
        "room": "avon",
        "date": "2026-03-18",
        "start": "16:00",
        "end": "17:00",
        "title": "Sync",
        "attendees": "3",
    }
    cases = [
        ("room", "attic", "choose a room"),
        ("date", "2026-02-30", "YYYY-MM-DD"),
        ("date", "18/03/2026", "YYYY-MM-DD"),
        ("date", "2026-03-13", "in the past"),
        ("start", "9:00", "HH:MM"),
        ("start", "06:30", "HH:MM"),
        ("end", "16:10", "HH:MM"),
        ("end", "15:45", "end time must be after"),
        ("title", "", "title"),
        ("attendees", "0", "Attendees"),
        ("attendees", "13", "Avon holds at most 12 people"),
        (
            "start",
            "15:30",
            "Avon is already booked from 15:00 to 16:00 on 2026-03-18 (Customer call: Bluebell Foods)",
        ),
    ]
    for key, value, message in cases:
        html = site.bad("/book", {**good, key: value}, message)
        assert 'value="Sync"' in html or key == "title"  # what was typed stays in the form
    before = site.one("SELECT COUNT(*) FROM bookings")
    others = site.one("SELECT id FROM bookings WHERE booked_by = 'tomasz' AND date = '2026-03-23'")
    site.bad(f"/booking/{others}/cancel", message="Only tomasz can cancel")
    past = site.one("SELECT id FROM bookings WHERE title = 'Churn analysis kick-off'")
    site.bad(f"/booking/{past}/cancel", message="Past bookings")
    cancelled = site.one("SELECT id FROM bookings WHERE status = 'cancelled'")
    site.bad(f"/booking/{cancelled}/cancel", message="already cancelled")
    assert site.one("SELECT COUNT(*) FROM bookings") == before
    assert site.one("SELECT COUNT(*) FROM bookings WHERE status = 'cancelled'") == 1
