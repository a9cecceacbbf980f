"""Generate the data pools of the claw domain: CSV tables, JSON/JSONL records and logs.

Run once from the repository root (`python synth/pools/make_data_pools.py`); the output is committed:
`synth/pools/claw/tables/*.csv`, `synth/pools/claw/records/*.json[l]`, `synth/pools/claw/logs/*.log`.
Everything is our own synthetic data (Faker and `random`, both seeded), so the same Faker version gives
the same bytes. The files are deliberately a little messy (stray whitespace, inconsistent case, missing
and invalid values, duplicate keys, blank and malformed lines): the data families build their rules
around that.
"""

from __future__ import annotations

import csv
import io
import json
import random
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from faker import Faker

ROOT = Path(__file__).parent / "claw"
SEED = 20240514
GOODS = ["Speaker", "Cable", "Drive", "Monitor", "Keyboard", "Router", "Mouse", "Hub"]
REFERRERS = ["-", "https://shop.example.com/", "https://www.google.com/"]


def _faker(seed: int) -> Faker:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    return fake


def _csv_text(header: list[str], rows: list[list[str] | None]) -> str:
    """Header and rows as CSV; a None row is a blank line, a short list a truncated record."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        if row is None:
            out.write("\n")
        else:
            writer.writerow(row)
    return out.getvalue()


def _mess(
    rng: random.Random,
    rows: list[list[str]],
    *,
    cats: list[int],
    nums: list[int],
    rate: float = 0.08,
) -> list[list[str] | None]:
    """Stray whitespace and case in categorical columns, invalid numbers, truncated records, exact and
    conflicting duplicates, blank lines."""
    out: list[list[str] | None] = []
    for row in rows:
        row = list(row)
        if rng.random() < rate:
            c = rng.choice(cats)
            row[c] = rng.choice(
                [f" {row[c]}", f"{row[c]} ", row[c].upper(), row[c].lower(), f"  {row[c].title()}"]
            )
        if rng.random() < rate / 2:
            n = rng.choice(nums)
            row[n] = rng.choice(["", "N/A", "n/a", "-", "?", "TBD", "1,0"])
        out.append(row)
        roll = rng.random()
        if roll < rate / 4:
            out.append(None)
        elif roll < rate / 2:
            out.append(row[: rng.randint(2, len(row) - 1)])
        elif roll < rate * 0.75 and len(out) > 3:
            earlier = next(r for r in reversed(out[:-1]) if r is not None)
            dup = list(earlier)
            if rng.random() < 0.5 and len(dup) == len(row):
                n = rng.choice(nums)
                dup[n] = str(rng.randint(1, 90))
            out.append(dup)
    return out


def _dates(rng: random.Random, start: date, days: int) -> str:
    return (start + timedelta(days=rng.randrange(days))).isoformat()


def _money(rng: random.Random, low: float, high: float) -> str:
    return f"{rng.uniform(low, high):.2f}"


def tables() -> dict[str, str]:
    rng = random.Random(SEED)
    fake = _faker(SEED)
    files: dict[str, str] = {}

    # sales orders
    products = [
        ("Widget", "4.75"),
        ("Gadget", "19.99"),
        ('Gizmo "Pro"', "49.00"),
        ("Sprocket", "0.95"),
        ("Cable 2m", "3.35"),
        ("Adapter", "8.10"),
        ("Widget, large", "7.25"),
        ("Hub", "24.50"),
        ("Dock", "89.00"),
        ("Charger", "15.40"),
    ]
    customers = [fake.company() for _ in range(12)] + ["Doe, Jane", "Smith, John", "O'Neil & Sons"]
    rows = []
    for i in range(230):
        product, price = rng.choice(products)
        rows.append(
            [
                f"SO-{10001 + i}",
                _dates(rng, date(2024, 1, 1), 181),
                rng.choice(["North", "South", "East", "West", "Central"]),
                rng.choice(["online", "retail", "partner"]),
                rng.choice(customers),
                product,
                str(rng.randint(1, 40)),
                price,
            ]
        )
    files["sales_orders.csv"] = _csv_text(
        ["order_id", "order_date", "region", "channel", "customer", "product", "quantity", "unit_price"],
        _mess(rng, rows, cats=[2, 3], nums=[6, 7]),
    )

    # inventory
    rows = []
    suppliers = [fake.company() for _ in range(8)]
    for i in range(210):
        rows.append(
            [
                f"INV-{4000 + i * 7}",
                rng.choice(["Rotterdam", "Leipzig", "Lyon", "Porto", "Gdansk"]),
                rng.choice(["fasteners", "tools", "electrical", "plumbing", "paint", "safety"]),
                rng.choice(suppliers),
                str(rng.choice([0, rng.randint(0, 40), rng.randint(0, 600)])),
                str(rng.choice([10, 20, 25, 50, 100])),
                _money(rng, 0.2, 180),
                _dates(rng, date(2024, 2, 1), 90),
            ]
        )
    files["inventory.csv"] = _csv_text(
        ["sku", "warehouse", "category", "supplier", "on_hand", "reorder_level", "unit_cost", "last_counted"],
        _mess(rng, rows, cats=[1, 2], nums=[4, 6]),
    )

    # employees
    rows = []
    for i in range(190):
        dept = rng.choice(["Engineering", "Sales", "Support", "Finance", "Marketing", "Operations", "Legal"])
        rows.append(
            [
                f"E{1001 + i}",
                fake.name(),
                dept,
                rng.choice(["Berlin", "Austin", "Toronto", "Singapore", "Remote"]),
                rng.choice(["full-time", "full-time", "full-time", "part-time", "contractor"]),
                _dates(rng, date(2015, 1, 1), 3400),
                str(rng.randrange(42000, 185000, 500)),
                f"{rng.uniform(1.0, 5.0):.1f}",
            ]
        )
    files["employees.csv"] = _csv_text(
        [
            "employee_id",
            "full_name",
            "department",
            "office",
            "contract",
            "hire_date",
            "salary",
            "performance_score",
        ],
        _mess(rng, rows, cats=[2, 3, 4], nums=[6, 7]),
    )

    # sensor readings
    rows = []
    sensors = {
        f"S-{n:02d}": rng.choice(["greenhouse-a", "greenhouse-b", "cold-room", "warehouse", "office"])
        for n in range(1, 13)
    }
    base = {"greenhouse-a": 24.0, "greenhouse-b": 22.0, "cold-room": -2.0, "warehouse": 14.0, "office": 21.0}
    when = datetime(2024, 3, 1)
    for i in range(320):
        sensor = rng.choice(sorted(sensors))
        site = sensors[sensor]
        when += timedelta(minutes=rng.choice([5, 10, 15, 20]))
        rows.append(
            [
                f"R{100001 + i}",
                sensor,
                site,
                when.strftime("%Y-%m-%d"),
                when.strftime("%H:%M"),
                f"{base[site] + rng.uniform(-4, 4):.1f}",
                f"{rng.uniform(25, 95):.1f}",
                f"{rng.uniform(2.7, 3.7):.2f}",
            ]
        )
    files["sensor_readings.csv"] = _csv_text(
        [
            "reading_id",
            "sensor_id",
            "site",
            "reading_date",
            "reading_time",
            "temperature_c",
            "humidity_pct",
            "battery_v",
        ],
        _mess(rng, rows, cats=[2], nums=[5, 6, 7], rate=0.06),
    )

    # card transactions
    rows = []
    accounts = [f"ACC-{rng.randint(1000, 9999)}" for _ in range(20)]
    merchants = {
        "grocery": ["FreshMart", "Green Basket"],
        "travel": ["SkyJet", "RailOne"],
        "dining": ["Trattoria Roma", "Noodle Bar"],
        "fuel": ["FuelStop"],
        "electronics": ["TechCorner", "Byte Shop"],
        "utilities": ["CityPower"],
        "health": ["CarePharm"],
    }
    for i in range(250):
        category = rng.choice(sorted(merchants))
        amount = rng.uniform(2, 420) * (-1 if rng.random() < 0.07 else 1)
        rows.append(
            [
                f"T-{700001 + i}",
                rng.choice(accounts),
                _dates(rng, date(2024, 4, 1), 92),
                rng.choice(merchants[category]),
                category,
                f"{amount:.2f}",
                rng.choice(["EUR", "EUR", "USD", "GBP"]),
                rng.choice(["settled"] * 6 + ["pending", "declined", "reversed"]),
            ]
        )
    files["card_transactions.csv"] = _csv_text(
        ["txn_id", "account", "txn_date", "merchant", "merchant_category", "amount", "currency", "status"],
        _mess(rng, rows, cats=[4, 6, 7], nums=[5]),
    )

    # support tickets
    rows = []
    for i in range(230):
        closed = rng.random() < 0.7
        rows.append(
            [
                f"TCK-{5001 + i}",
                _dates(rng, date(2024, 5, 1), 60),
                rng.choice(["low", "medium", "medium", "high", "urgent"]),
                rng.choice(["billing", "platform", "mobile", "onboarding"]),
                rng.choice(["email", "chat", "phone"]),
                "closed" if closed else rng.choice(["open", "pending"]),
                str(rng.randint(1, 600)),
                str(rng.randint(1, 5)) if closed and rng.random() < 0.8 else "",
            ]
        )
    files["support_tickets.csv"] = _csv_text(
        ["ticket_id", "opened_on", "priority", "team", "channel", "status", "first_response_min", "csat"],
        _mess(rng, rows, cats=[2, 3, 4], nums=[6]),
    )

    # shipments
    rows = []
    for i in range(220):
        weight = rng.uniform(0.2, 38)
        rows.append(
            [
                f"SHP-{880001 + i}",
                _dates(rng, date(2024, 2, 1), 120),
                rng.choice(["DHL", "UPS", "FedEx", "PostNL", "GLS"]),
                rng.choice(["AMS", "FRA", "MAD", "WAW"]),
                rng.choice(["DE", "FR", "NL", "BE", "ES", "IT", "PL", "SE"]),
                f"{weight:.2f}",
                f"{4.5 + weight * rng.uniform(0.6, 1.4):.2f}",
                str(rng.randint(1, 9)),
            ]
        )
    files["shipments.csv"] = _csv_text(
        [
            "shipment_id",
            "ship_date",
            "carrier",
            "origin_hub",
            "destination_country",
            "weight_kg",
            "cost_eur",
            "transit_days",
        ],
        _mess(rng, rows, cats=[2, 3, 4], nums=[5, 6, 7]),
    )

    # expense claims
    rows = []
    staff = [(fake.name(), rng.choice(["Engineering", "Sales", "Finance", "Marketing"])) for _ in range(25)]
    for i in range(200):
        who, dept = rng.choice(staff)
        rows.append(
            [
                f"EXP-{30001 + i}",
                _dates(rng, date(2024, 1, 1), 150),
                who,
                dept,
                rng.choice(["travel", "meals", "lodging", "software", "training", "office"]),
                _money(rng, 3, 950),
                rng.choice(["yes", "yes", "yes", "no"]),
            ]
        )
    files["expense_claims.csv"] = _csv_text(
        ["claim_id", "submitted_on", "employee", "department", "category", "amount", "approved"],
        _mess(rng, rows, cats=[3, 4, 6], nums=[5]),
    )
    return files


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def records() -> dict[str, str]:
    rng = random.Random(SEED + 1)
    fake = _faker(SEED + 1)
    files: dict[str, str] = {}

    countries = ["DE", "FR", "NL", "US", "GB", "ES", "JP", "BR"]
    users: list[dict[str, Any]] = []
    for uid in range(101, 191):
        first, last = fake.first_name(), fake.last_name()
        user: dict[str, Any] = {
            "id": uid,
            "name": f"{first} {last}",
            "email": f"{first}.{last}@{rng.choice(['example.com', 'mail.test', 'corp.example'])}".lower(),
            "country": rng.choice(countries),
            "plan": rng.choice(["free", "free", "pro", "team", "enterprise"]),
            "signup_date": _dates(rng, date(2022, 1, 1), 800),
            "active": rng.random() < 0.8,
            "address": {"city": fake.city(), "postcode": fake.postcode()},
            "logins": rng.randint(0, 300),
        }
        roll = rng.random()
        if roll < 0.08:
            user["email"] = f"  {user['email'].upper()} "
        elif roll < 0.12:
            user["email"] = user["email"].replace("@", " at ")
        elif roll < 0.15:
            user["email"] = None
        if rng.random() < 0.06:
            user["plan"] = None
        if rng.random() < 0.05:
            del user["country"]
        if rng.random() < 0.04:
            user["logins"] = str(user["logins"])
        users.append(user)
    users.insert(40, dict(users[12], logins=users[12]["logins"] + 5))  # a duplicated id
    files["users.json"] = json.dumps(users, indent=1, ensure_ascii=False) + "\n"

    categories = ["audio", "cables", "storage", "displays", "input", "networking"]
    products = []
    for n in range(1, 61):
        product: dict[str, Any] = {
            "sku": f"P-{n * 13:04d}",
            "name": f"{fake.color_name()} {rng.choice(GOODS)}",
            "category": rng.choice(categories),
            "price": round(rng.uniform(3, 400), 2),
            "stock": rng.choice([0, rng.randint(0, 30), rng.randint(0, 300)]),
            "dimensions": {
                "w_cm": rng.randint(2, 80),
                "h_cm": rng.randint(1, 50),
                "d_cm": rng.randint(1, 40),
            },
            "tags": sorted(
                rng.sample(["new", "sale", "eco", "bundle", "refurb", "bestseller"], rng.randint(0, 3))
            ),
            "discontinued": rng.random() < 0.12,
        }
        if rng.random() < 0.05:
            product["price"] = str(product["price"])
        if rng.random() < 0.05:
            product["stock"] = None
        products.append(product)
    files["products.json"] = (
        json.dumps({"exported_at": "2024-06-01T00:00:00Z", "currency": "EUR", "products": products}, indent=1)
        + "\n"
    )

    lines = []
    start = datetime(2024, 5, 1, tzinfo=UTC)
    for n in range(1, 141):
        product = rng.choice(products)
        created = start + timedelta(minutes=rng.randint(0, 60 * 24 * 45))
        order = {
            "order_id": f"O-{60000 + n}",
            "user_id": rng.choice(users)["id"] if rng.random() > 0.04 else rng.randint(900, 999),
            "sku": product["sku"],
            "quantity": rng.randint(1, 6),
            "unit_price": product["price"]
            if isinstance(product["price"], float)
            else float(product["price"]),
            "created_at": _iso(created),
            "status": rng.choice(["paid"] * 5 + ["refunded", "cancelled", "pending"]),
            "coupon": rng.choice([None, None, None, "SPRING10", "VIP"]),
        }
        lines.append(json.dumps(order))
    files["orders.jsonl"] = "\n".join(lines) + "\n"

    lines = []
    when = datetime(2024, 6, 3, 8, 0, tzinfo=UTC)
    for n in range(1, 151):
        when += timedelta(seconds=rng.randint(5, 400))
        kind = rng.choice(["page_view"] * 5 + ["click"] * 3 + ["search", "purchase", "logout", "error"])
        event: dict[str, Any] = {
            "event_id": f"ev-{n:05d}",
            "ts": _iso(when),
            "user_id": rng.choice(users)["id"],
            "type": kind,
            "session": f"s-{rng.randint(1, 40):03d}",
            "props": {
                "path": rng.choice(["/", "/shop", "/cart", "/checkout", "/account", "/help"]),
                "device": rng.choice(["desktop", "mobile", "tablet"]),
                "ms": rng.randint(20, 4000),
            },
        }
        if rng.random() < 0.05:
            event["user_id"] = None
        lines.append(json.dumps(event))
    files["events.jsonl"] = "\n".join(lines) + "\n"

    lines = []
    for user in rng.sample(users, 60):
        updated = datetime(2024, 3, 1, tzinfo=UTC) + timedelta(minutes=rng.randint(0, 90 * 24 * 60))
        contact = {
            "id": user["id"],
            "name": user["name"] if rng.random() < 0.8 else user["name"].split()[0],
            "email": (user["email"] or fake.email()).strip().lower(),
            "phone": fake.numerify("+1-555-####"),
            "country": user.get("country") or rng.choice(countries),
            "owner": rng.choice(["ana", "bo", "chen", "dara"]),
            "updated_at": _iso(updated),
        }
        lines.append(json.dumps(contact))
    files["crm_contacts.jsonl"] = "\n".join(lines) + "\n"

    reviews = []
    for n in range(1, 131):
        reviews.append(
            {
                "review_id": 5000 + n,
                "sku": rng.choice(products)["sku"],
                "user_id": rng.choice(users)["id"],
                "rating": rng.choice([1, 2, 3, 4, 4, 5, 5, 5]),
                "title": fake.sentence(nb_words=4).rstrip("."),
                "created_at": _dates(rng, date(2024, 1, 1), 160),
                "verified": rng.random() < 0.7,
                "helpful_votes": rng.randint(0, 40),
            }
        )
        if rng.random() < 0.04:
            reviews[-1]["rating"] = None
    files["reviews.json"] = json.dumps(reviews, indent=1) + "\n"
    return files


def logs() -> dict[str, str]:
    rng = random.Random(SEED + 2)
    fake = _faker(SEED + 2)
    files: dict[str, str] = {}

    hot = [fake.ipv4_public() for _ in range(6)] + ["10.0.0.5", "10.0.0.12", "2001:db8::7"]
    ips = hot * 4 + [fake.ipv4_public() for _ in range(30)]
    pages = [
        "/",
        "/index.html",
        "/about",
        "/products",
        "/products/42",
        "/static/app.js",
        "/static/site.css",
        "/favicon.ico",
        "/login",
        "/search?q=shoes",
        "/api/orders",
        "/api/orders?status=open",
        "/api/cart",
        "/api/cart?id=991",
        "/api/payments",
        "/api/users/17",
    ]
    agents = [
        "Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0",
        "curl/8.5.0",
        "python-requests/2.31.0",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) Safari/605.1.15",
        "Googlebot/2.1",
    ]

    def access(timed: bool, n: int, start: datetime, common: bool = False) -> str:
        lines = []
        when = start
        for _ in range(n):
            when += timedelta(seconds=rng.randint(0, 45))
            path = rng.choice(pages)
            api = path.startswith("/api")
            method = rng.choice(["GET", "GET", "POST", "PUT", "DELETE"]) if api else "GET"
            roll = rng.random()
            status = (
                rng.choice([500, 502, 503, 504])
                if api and roll < 0.15
                else rng.choice([301, 304, 404, 404, 403, 400])
                if roll < 0.27
                else 200
            )
            size = "-" if status == 304 else str(rng.randint(0, 52000))
            ip = rng.choice(ips)
            stamp = when.strftime("%d/%b/%Y:%H:%M:%S +0000")
            request = f"{method} {path} HTTP/1.1" if rng.random() > 0.01 else "-"
            user = rng.choice(["-"] * 6 + ["alice", "bob"])
            if common:
                line = f'{ip} - {user} [{stamp}] "{request}" {status} {size}'
            else:
                line = (
                    f'{ip} - {user} [{stamp}] "{request}" {status} {size} '
                    f'"{rng.choice(REFERRERS)}" "{rng.choice(agents)}"'
                )
            if timed:
                seconds = rng.expovariate(8.0) + (0.8 if status >= 500 else 0.0)
                line += f" {seconds:.3f}"
            lines.append(line)
        for at, bad in sorted(
            [(rng.randrange(n), "") for _ in range(2)]
            + [
                (rng.randrange(n), lines[rng.randrange(n)][:60]),
                (rng.randrange(n), "GET /api/payments HTTP/1.1 502"),
                (rng.randrange(n), "\tconnection reset by peer"),
                (rng.randrange(n), lines[rng.randrange(n)].replace('" 200 ', '" 2OO ')),
            ],
            reverse=True,
        ):
            lines.insert(at, bad)
        return "\n".join(lines) + "\n"

    files["nginx_access.log"] = access(False, 200, datetime(2024, 6, 14, 6, 0, 0))
    files["nginx_timed_access.log"] = access(True, 180, datetime(2024, 6, 20, 13, 0, 0))
    files["apache_access.log"] = access(False, 200, datetime(2024, 7, 2, 21, 30, 0), common=True)

    # application log with levels, components and traceback continuation lines
    lines = []
    when = datetime(2024, 5, 14, 9, 0, 0)
    components = ["api", "db", "auth", "worker", "cache", "payments"]
    messages = {
        "DEBUG": ["cache lookup key=user:{n}", "query took {n}ms"],
        "INFO": [
            "request handled in {n}ms",
            "user {n} logged in",
            "job {n} finished",
            "cache warmed ({n} keys)",
        ],
        "WARNING": [
            "slow query took {n}ms",
            "retrying job {n} (attempt 2)",
            "token for user {n} expires soon",
        ],
        "ERROR": [
            "timeout talking to upstream after {n}ms",
            "payment {n} declined by gateway",
            "job {n} failed: connection refused",
            "deadlock detected on table orders",
        ],
        "CRITICAL": ["database connection pool exhausted", "disk usage at {n}%"],
    }
    for _ in range(260):
        when += timedelta(seconds=rng.randint(0, 50), milliseconds=rng.randint(0, 999))
        burst = 10 <= when.minute % 30 <= 13
        level = rng.choices(list(messages), weights=[2, 10, 3, 6 if burst else 1.2, 0.6 if burst else 0.15])[
            0
        ]
        text = rng.choice(messages[level]).format(n=rng.randint(2, 9000))
        stamp = when.strftime("%Y-%m-%d %H:%M:%S") + f",{when.microsecond // 1000:03d}"
        lines.append(f"{stamp} {level} [{rng.choice(components)}] {text}")
        if level in ("ERROR", "CRITICAL") and rng.random() < 0.25:
            lines += [
                "Traceback (most recent call last):",
                '  File "app/worker.py", line 88, in run',
                "ConnectionError: upstream closed the connection",
            ]
    lines.insert(rng.randrange(len(lines)), "")
    lines.insert(rng.randrange(len(lines)), "2024-05-14 10:1 ERROR [api] truncated stamp")
    files["app.log"] = "\n".join(lines) + "\n"

    # syslog-style auth log
    lines = []
    when = datetime(2024, 4, 8, 0, 2, 11)
    attackers = [fake.ipv4_public() for _ in range(5)]
    users = ["root", "admin", "ubuntu", "deploy", "git", "test", "oracle"]
    for _ in range(200):
        when += timedelta(seconds=rng.randint(1, 120))
        host = rng.choice(["web-01", "web-02", "db-01"])
        stamp = f"{when.strftime('%b')} {when.day:>2} {when.strftime('%H:%M:%S')}"
        roll = rng.random()
        pid = rng.randint(1000, 32000)
        if roll < 0.45:
            invalid = rng.random() < 0.4
            who = (
                rng.choice(users) if not invalid else rng.choice(["oracle", "test", "pi", "guest", "support"])
            )
            msg = (
                f"sshd[{pid}]: Failed password for {'invalid user ' if invalid else ''}{who} "
                f"from {rng.choice([*attackers, fake.ipv4_public()])} port {rng.randint(1024, 65000)} ssh2"
            )
        elif roll < 0.6:
            msg = (
                f"sshd[{pid}]: Accepted publickey for {rng.choice(['deploy', 'git', 'alice'])} from "
                f"10.0.{rng.randint(0, 3)}.{rng.randint(2, 250)} port {rng.randint(1024, 65000)} ssh2"
            )
        elif roll < 0.7:
            who = rng.choice(attackers)
            msg = f"sshd[{pid}]: Disconnected from authenticating user root {who} port 22 [preauth]"
        elif roll < 0.82:
            msg = f"CRON[{pid}]: pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)"
        elif roll < 0.92:
            msg = (
                f"sudo[{pid}]: alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ; "
                "COMMAND=/usr/bin/systemctl restart nginx"
            )
        else:
            msg = f"systemd-logind[{pid}]: New session {rng.randint(10, 999)} of user alice."
        lines.append(f"{stamp} {host} {msg}")
    lines.insert(rng.randrange(len(lines)), "-- MARK --")
    lines.insert(rng.randrange(len(lines)), "")
    files["auth_syslog.log"] = "\n".join(lines) + "\n"

    # key=value gateway log
    lines = []
    when = datetime(2024, 6, 1, 12, 0, 0, tzinfo=UTC)
    routes = [
        "/api/v1/orders",
        "/api/v1/users",
        "/api/v1/search",
        "/api/v1/cart",
        "/api/v1/payments",
        "/healthz",
    ]
    for _n in range(190):
        when += timedelta(milliseconds=rng.randint(50, 30000))
        route = rng.choice(routes)
        status = rng.choices(
            [200, 201, 204, 400, 401, 404, 429, 500, 503], weights=[60, 6, 4, 5, 3, 5, 3, 4, 2]
        )[0]
        ms = int(rng.lognormvariate(4.2 if route != "/api/v1/search" else 5.3, 0.7)) + (
            300 if status >= 500 else 0
        )
        level = "error" if status >= 500 else "warn" if status >= 400 else "info"
        lines.append(
            f"ts={when.strftime('%Y-%m-%dT%H:%M:%S.')}{when.microsecond // 1000:03d}Z level={level} "
            f"method={rng.choice(['GET', 'GET', 'POST', 'PUT', 'DELETE']) if route != '/healthz' else 'GET'} "
            f"path={route} status={status} duration_ms={ms} client={rng.choice(hot[:6])} "
            f"req_id={rng.getrandbits(32):08x}"
        )
    lines.insert(rng.randrange(len(lines)), 'ts=2024-06-01T12:30:00.000Z level=info msg="config reloaded"')
    lines.insert(rng.randrange(len(lines)), "panic: runtime error: index out of range")
    lines.insert(rng.randrange(len(lines)), "")
    files["api_gateway.log"] = "\n".join(lines) + "\n"
    return files


def main() -> None:
    for folder, made in (("tables", tables()), ("records", records()), ("logs", logs())):
        target = ROOT / folder
        target.mkdir(parents=True, exist_ok=True)
        for name, text in made.items():
            (target / name).write_text(text, encoding="utf-8")
            print(f"{folder}/{name}: {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
