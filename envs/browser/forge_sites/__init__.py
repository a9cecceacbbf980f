"""Five small local web applications (shop, forum, wiki, mail, calendar) for browser tasks.

Why: a browser task needs a site whose whole state a checker can read exactly, with no network and no
flakiness. Each site is server-rendered HTML over one SQLite file, with a fixed layout and stable element
ids, so a solution can be replayed click for click and a checker can compare rows. The package is
standalone (stdlib, starlette, uvicorn, jinja2): it is copied into the browser image and run there.
"""

SITES = ("shop", "forum", "wiki", "mail", "calendar")
