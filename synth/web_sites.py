"""What the LLM proposer is told about the five local sites, read from the sites themselves.

A browser task's script may only name `#id`s that exist and its checker may only read tables that exist,
so the reference a prompt shows is derived from the sites' own code where it can be: the routes from each
site's app, the control ids from its templates (`id="..."`, a `{{ row.slug }}` part shown as `{slug}`)
and the shared layout, the tables from its SCHEMA. Only a line per site on what the pages take (query
parameters, rules) is written by hand (and pinned by a test against the code).
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from types import ModuleType

from envs.browser.forge_sites import SITES
from envs.browser_image import SITES_DIR
from synth.families.web import SITE_URL

TEMPLATES_DIR = SITES_DIR / "templates"
COMMON_IDS = ("site-name", "page-title", "notice", "error", "home-link")
"""The shared layout's ids (common.py): the top bar, the title, the notice and error lines."""
ID_ATTR = re.compile(r'\bid="([^"]+)"')
JINJA_EXPR = re.compile(r"\{\{\s*(.*?)\s*\}\}")
NAV_ID = re.compile(r'\(\s*"(nav-[a-z0-9-]+)"')
ID_PART = "[A-Za-z0-9_-]+"
"""What a `{slug}` (or any other) part of an id stands for in a selector; a row id is a number."""
PART_PATTERNS = {"{id}": "[0-9]+", "{rev}": "[0-9]+", "{date}": "[0-9]{4}-[0-9]{2}-[0-9]{2}"}

NOTES = {
    "shop": (
        "Catalogue `/?q=TEXT&category=SLUG&sort=name|price_asc|price_desc`. Cart quantities 1-99, never "
        "over stock. Checkout needs name, address and a shipping radio (standard $4.99, express $12.99, "
        "pickup $0); placing an order empties the cart and lowers stock (new order: status `placed`, "
        "created = today)."
    ),
    "mail": (
        "Inbox `/`, folders `/folder/inbox|starred|sent|archive`, search `/search?q=TEXT`; opening a "
        "message marks it read. Compose `/compose?to=ADDR&reply_to=ID` (a reply is prefilled: To = "
        "sender, Subject `Re: ...`); `to` may hold several addresses separated by commas. Sent messages "
        "get folder `sent`, sent_at = today 09:30."
    ),
    "calendar": (
        "Week view `/?date=YYYY-MM-DD`, booking form `/book?room=SLUG&date=&start=&end=`. Rules: date "
        "not before today; HH:MM on a 15-minute step within 07:00-21:00; end after start; title 1-80 "
        "chars; 1 <= attendees <= the room's capacity; no overlap with a confirmed booking of the room. "
        "The user may cancel their own future bookings (status `cancelled`)."
    ),
    "wiki": (
        "Pages `/wiki/SLUG` (slug = lowercased title, non-alphanumerics as `-`), `/wiki/SLUG/edit`, "
        "`/wiki/SLUG/history`, `/new?title=TITLE`, `/search?q=TEXT`. Markup: `== Heading ==`, `* item`, "
        "`[[Page title]]`. Every save adds a revision (author = the user, created = today)."
    ),
    "forum": (
        "Threads `/?q=TEXT&category=SLUG`, new thread `/new?category=SLUG`, profiles `/user/USERNAME`. "
        "Replies are refused on a locked thread; a post can be upvoted once, never one's own."
    ),
}
"""What the derived lists do not say: the query parameters and rules of each site (docs: the sites'
README)."""


def site_module(site: str) -> ModuleType:
    if site not in SITES:
        raise ValueError(f"unknown site {site!r}; the sites: {', '.join(SITES)}")
    return importlib.import_module(f"envs.browser.forge_sites.{site}")


def _placeholder(expression: str) -> str:
    """`r.slug` -> `{slug}`, `d.isoformat()` -> `{date}`, `key` -> `{key}`."""
    if expression.endswith("isoformat()"):
        return "{date}"
    return "{" + expression.split(".")[-1].strip("() ") + "}"


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


@cache
def control_ids(site: str) -> dict[str, tuple[str, ...]]:
    """The ids a script may use, per page (template name; `every page` for the layout and nav)."""
    source = (SITES_DIR / f"{site}.py").read_text(encoding="utf-8")
    site_module(site)  # an unknown site is an error
    pages: dict[str, tuple[str, ...]] = {
        "every page": tuple(_unique([*COMMON_IDS[:1], *NAV_ID.findall(source), *COMMON_IDS[1:]]))
    }
    for template in sorted((TEMPLATES_DIR / site).glob("*.html")):
        ids = [
            JINJA_EXPR.sub(lambda m: _placeholder(m.group(1)), found)
            for found in ID_ATTR.findall(template.read_text(encoding="utf-8"))
        ]
        if ids:
            pages[template.stem] = tuple(_unique(ids))
    return pages


@cache
def id_pattern(site: str) -> re.Pattern[str]:
    """A selector's id (without `#`) that names one of the site's controls matches this in full."""
    every = sorted({i for ids in control_ids(site).values() for i in ids})
    alternatives = [
        "".join(
            PART_PATTERNS.get(part, ID_PART) if part.startswith("{") else re.escape(part)
            for part in re.split(r"(\{\w+\})", i)
        )
        for i in every
    ]
    return re.compile("(?:" + "|".join(alternatives) + ")")


def selector_problem(site: str, selector: str) -> str | None:
    """Why `selector` is not a `#id` of one of the site's controls (None: it is)."""
    if not selector.startswith("#") or not re.fullmatch("#" + ID_PART, selector):
        return f"selector {selector!r} is not `#id` (ids only: no classes, tags, attributes or spaces)"
    if not id_pattern(site).fullmatch(selector[1:]):
        return f"selector {selector!r} names no control of the {site} site (see its ids)"
    return None


@cache
def routes(site: str) -> tuple[str, ...]:
    """`GET /product/{id:int}`, `POST /cart/{action:str}`, ... from the site's app."""
    app = site_module(site).make_app(":memory:")
    found = []
    for route in app.routes:
        methods = sorted(set(getattr(route, "methods", None) or ["GET"]) - {"HEAD"})
        found.append(f"{'|'.join(methods)} {getattr(route, 'path', '')}")
    return tuple(found)


def schema(site: str) -> str:
    """The site's CREATE TABLE statements (the database a checker reads)."""
    text: str = site_module(site).SCHEMA
    return text.strip()


@cache
def reference(site: str) -> str:
    """The site as a prompt shows it: URL, routes, what the pages take, control ids, database."""
    ids = "\n".join(
        f"- {page}: {', '.join('#' + i for i in found)}" for page, found in control_ids(site).items()
    )
    return (
        f"Site `{site}`, served at {SITE_URL} (the agent's browser starts there).\n"
        f"Routes: {'; '.join(routes(site))}\n"
        f"{NOTES[site]}\n\n"
        f"Control ids, per page template (`{{id}}` is a row's id in the database, `{{slug}}` its slug, "
        f"`{{date}}` YYYY-MM-DD):\n{ids}\n\n"
        "Database: SQLite at /var/lib/forge-web/site.db (open it read-only: "
        "`sqlite3.connect('file:/var/lib/forge-web/site.db?mode=ro', uri=True)`); the `settings` table "
        "holds `today` (and the signed-in user). Its tables:\n"
        f"{schema(site)}\n"
    )
