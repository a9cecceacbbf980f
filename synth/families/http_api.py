"""http-api: a local JSON HTTP API (python3 http.server, stdlib only) started at sandbox start by an
/etc/openforge/init.d/ hook; the task waits for it with a healthcheck. The API has an auth scheme
(bearer token, API key header, or a login call that returns a token), a pagination style (page
numbers, offset/limit, or opaque cursors), filters, and detail endpoints with fields the list does not
show. The agent queries it and writes an exact report (JSON or CSV), or changes records through it
(PATCH) or creates records from a local file (POST); the checker then reads the service's state file,
which the service rewrites after every change."""

from __future__ import annotations

import csv
import io
import json
import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any, ClassVar

from faker import Faker

from synth.families.base import Draft, Family, render
from synth.pools import Pools

RESOURCES: dict[str, dict[str, Any]] = {
    "tickets": {
        "service": "helpdesk",
        "prefix": "T-",
        "start": 1001,
        "fields": {
            "title": "str",
            "status": ["open", "pending", "closed"],
            "priority": ["low", "normal", "high", "urgent"],
            "assignee": "str",
            "created": "str",
            "comments": "int",
            "customer": "str",
        },
        "summary": ["id", "title", "status", "priority", "assignee", "created"],
        "filters": ["status", "assignee", "priority"],
        "patchable": ["status", "priority", "assignee"],
        "creatable": ["title", "priority", "assignee", "customer"],
        "required": ["title", "priority", "assignee"],
        "defaults": {"status": "open", "comments": 0, "created": "2024-07-01", "customer": "internal"},
    },
    "devices": {
        "service": "fleet",
        "prefix": "D-",
        "start": 201,
        "fields": {
            "hostname": "str",
            "site": ["ams", "fra", "lon", "nyc", "sgp", "syd"],
            "status": ["online", "offline", "maintenance"],
            "os": ["debian-12", "ubuntu-22.04", "alpine-3.19"],
            "firmware": "str",
            "last_seen": "str",
            "owner_team": "str",
        },
        "summary": ["id", "hostname", "site", "status", "os"],
        "filters": ["site", "status", "os"],
        "patchable": ["status", "owner_team", "site"],
        "creatable": ["hostname", "site", "os", "owner_team"],
        "required": ["hostname", "site", "os", "owner_team"],
        "defaults": {"status": "offline", "firmware": "0.0.0", "last_seen": "never"},
    },
    "orders": {
        "service": "shop",
        "prefix": "O-",
        "start": 5001,
        "fields": {
            "customer": "str",
            "status": ["new", "paid", "shipped", "cancelled"],
            "created": "str",
            "item_count": "int",
            "items": "list",
            "carrier": "str",
        },
        "summary": ["id", "customer", "status", "created", "item_count"],
        "filters": ["status", "customer"],
        "patchable": ["status", "carrier"],
        "creatable": [],
        "required": [],
        "defaults": {},
    },
    "users": {
        "service": "directory",
        "prefix": "U-",
        "start": 301,
        "fields": {
            "username": "str",
            "team": ["data", "infra", "mobile", "payments", "search", "web"],
            "role": ["viewer", "editor", "admin"],
            "active": "bool",
            "last_login": "str",
            "mfa": "bool",
        },
        "summary": ["id", "username", "team", "role", "active"],
        "filters": ["team", "role", "active"],
        "patchable": ["role", "active", "team"],
        "creatable": ["username", "team", "role"],
        "required": ["username", "team", "role"],
        "defaults": {"active": True, "last_login": "never", "mfa": False},
    },
}
KINDS = {
    "tickets": ["json", "csv", "patch", "create"],
    "devices": ["json", "csv", "patch", "create"],
    "orders": ["json", "csv", "patch"],
    "users": ["json", "csv", "patch", "create"],
}
LEADS = {
    "json": [
        "I need a report from it: {title}.",
        "Goal: {title}, as a JSON file.",
        "We need numbers from it ({title}).",
    ],
    "csv": [
        "I need an export from it: {title}.",
        "Goal: {title}, as a CSV file.",
        "Please pull a list out of it ({title}).",
    ],
    "patch": [
        "Some records have to be changed through it: {title}.",
        "Goal: {title}.",
        "Housekeeping through the API: {title}.",
    ],
    "create": [
        "New records have to be created through it: {title}.",
        "Goal: {title}.",
        "Data entry through the API: {title}.",
    ],
}
PORTS = [8080, 8081, 8088, 5000, 5080, 7070, 9000, 9090]
FIRMWARE = ["1.9.4", "2.0.0", "2.1.3", "2.4.1", "2.10.0", "3.0.2", "3.1.0"]


def version_key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def rows_csv(rows: list[list[Any]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


class HttpApi(Family):
    name = "http-api"
    category = "http"
    pool_kinds: ClassVar[tuple[str, ...]] = ()

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        fake = Faker()
        fake.seed_instance(rng.randrange(2**31))
        resource = rng.choice(sorted(RESOURCES))
        kind = rng.choice(KINDS[resource])
        spec = RESOURCES[resource]
        for _ in range(20):  # redraw the data until the task has something to find or change
            n = {1: rng.randint(18, 30), 2: rng.randint(35, 60), 3: rng.randint(70, 110)}[difficulty]
            records = getattr(self, f"_make_{resource}")(rng, fake, n, spec)
            try:
                task = getattr(self, f"_task_{resource}_{kind}")(rng, records, difficulty)
                break
            except ValueError:
                continue
        else:
            raise ValueError(f"http-api: no data found for {resource}/{kind}")
        auth_mode = rng.choice(["bearer", "apikey", "login"])
        pagination = rng.choice(["page", "offset", "cursor"])
        port = rng.choice(PORTS)
        service = spec["service"]
        secret = "".join(rng.choice("abcdefghjkmnpqrstuvwxyz0123456789") for _ in range(24))
        auth: dict[str, Any] = {"mode": auth_mode, "secret": f"{service[:3]}_{secret}"}
        if auth_mode == "login":
            auth["username"] = rng.choice(["reporter", "automation", "ops-bot", "svc-report"])
            auth["password"] = "".join(
                rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789") for _ in range(16)
            )
        default_size, max_size = rng.choice([(10, 25), (20, 50), (5, 20), (15, 30)])
        home = f"/opt/{service}"
        # under the working directory: the tests run in a fresh sandbox that gets /app back, not /var
        state_path = f"/app/.{service}/state.json"
        cred_file = {
            "bearer": rng.choice(["/app/api_token.txt", "/app/secrets/token", "/app/.token"]),
            "apikey": rng.choice(["/app/api_key.txt", "/app/secrets/api-key", "/app/key.txt"]),
            "login": rng.choice(["/app/credentials.json", "/app/secrets/login.json"]),
        }[auth_mode]
        index = {
            "service": service,
            "version": f"{rng.randint(1, 3)}.{rng.randint(0, 9)}",
            "resource": resource,
            "auth": {
                "bearer": "Authorization: Bearer <token>",
                "apikey": "X-API-Key: <key>",
                "login": "POST /api/v1/login, then Authorization: Bearer <token>",
            }[auth_mode],
        }
        config = {
            "resource": resource,
            "port": port,
            "server_name": f"{service.capitalize()}API/{index['version']}",
            "auth": auth,
            "pagination": pagination,
            "default_size": default_size,
            "max_size": max_size,
            "cursor_salt": rng.randrange(1, 2**20),
            "fields": spec["fields"],
            "summary": spec["summary"],
            "filters": spec["filters"],
            "patchable": spec["patchable"],
            "creatable": spec["creatable"],
            "required": spec["required"],
            "defaults": spec["defaults"],
            "id_prefix": spec["prefix"],
            "index": index,
        }
        cred_text = (
            json.dumps({"username": auth["username"], "password": auth["password"]}, indent=2) + "\n"
            if auth_mode == "login"
            else auth["secret"] + "\n"
        )
        base = f"http://127.0.0.1:{port}"
        ctx = {
            "service": service,
            "resource": resource,
            "singular": resource[:-1],
            "base": base,
            "auth_mode": auth_mode,
            "cred_file": cred_file,
            "pagination": pagination,
            "default_size": default_size,
            "max_size": max_size,
            "summary": spec["summary"],
            "detail_only": [f for f in spec["fields"] if f not in spec["summary"]],
            "filters": spec["filters"],
            "kind": kind,
            "task": {
                **task,
                "lead": rng.choice(LEADS[kind]).format(title=task["title"][0].lower() + task["title"][1:]),
            },
            "intro": rng.randrange(3),
            "style": rng.randrange(2),
        }
        files = {
            "environment/Dockerfile": render(
                "http-api/Dockerfile.j2",
                home=home,
                service=service,
                cred_file=cred_file,
                state_dir=state_path.rsplit("/", 1)[0],
                extra=sorted(task.get("env", {})),
            ),
            "environment/svc/server.py": render(
                "http-api/server.py.j2", service=service, home=home, state_path=state_path
            ),
            "environment/svc/config.json": json.dumps(config, indent=1, sort_keys=True) + "\n",
            "environment/svc/seed.json": json.dumps(records, indent=1, sort_keys=True) + "\n",
            "environment/svc/credentials": cred_text,
            "environment/svc/50-service": f"#!/bin/sh\nexec python3 {home}/server.py\n",
            "tests/check.py": render(
                "http-api/check.py.j2",
                kind=kind,
                state_path=state_path,
                seed=records,
                task=task["check"],
            ),
            "solution/solve.sh": render(
                "http-api/solve.sh.j2",
                base=base,
                resource=resource,
                auth_mode=auth_mode,
                cred_file=cred_file,
                pagination=pagination,
                max_size=max_size,
                code=task["solve"],
            ),
        }
        for rel, text in task.get("env", {}).items():
            files[f"environment/svc/{rel}"] = text
        return Draft(
            title=task["title"],
            instruction=render("http-api/instruction.md.j2", **ctx),
            files=files,
            params={
                "resource": resource,
                "kind": kind,
                "auth": auth_mode,
                "pagination": pagination,
                "port": port,
                "records": n,
                "task": task["name"],
            },
            keywords=["http", "api", "json", pagination, kind],
            healthcheck=f"curl -fsS --max-time 2 {base}/health",
        )

    # ------------------------------------------------------------------ data

    def _make_tickets(
        self, rng: random.Random, fake: Faker, n: int, spec: dict[str, Any]
    ) -> list[dict[str, Any]]:
        people = sorted({fake.first_name().lower() for _ in range(8)})[:6]
        customers = [fake.company() for _ in range(6)]
        verbs = ["Cannot", "Unable to", "Error when trying to", "Slow response when I", "Timeout while I"]
        objects = [
            "log in",
            "export the report",
            "reset my password",
            "upload an invoice",
            "open the dashboard",
            "sync contacts",
            "change my plan",
            "download receipts",
        ]
        out = []
        for i in range(n):
            created = date(2024, 1, 1) + timedelta(days=rng.randint(0, 180))
            out.append(
                {
                    "id": f"T-{spec['start'] + i}",
                    "title": f"{rng.choice(verbs)} {rng.choice(objects)}",
                    "status": rng.choices(["open", "pending", "closed"], [4, 3, 3])[0],
                    "priority": rng.choices(["low", "normal", "high", "urgent"], [3, 4, 2, 1])[0],
                    "assignee": rng.choice(people),
                    "created": created.isoformat(),
                    "comments": rng.choice([0, 0, 1, 2, 3, 5, 8, 13]),
                    "customer": rng.choice(customers),
                }
            )
        return out

    def _make_devices(
        self, rng: random.Random, fake: Faker, n: int, spec: dict[str, Any]
    ) -> list[dict[str, Any]]:
        teams = ["core", "edge", "retail", "lab", "ops"]
        out = []
        used: set[str] = set()
        for i in range(n):
            site = rng.choice(spec["fields"]["site"])
            while True:
                role = rng.choice(["web", "db", "cache", "gw", "pos", "kiosk"])
                host = f"{site}-{role}-{rng.randint(1, 40):02d}"
                if host not in used:
                    used.add(host)
                    break
            out.append(
                {
                    "id": f"D-{spec['start'] + i}",
                    "hostname": host,
                    "site": site,
                    "status": rng.choices(["online", "offline", "maintenance"], [6, 3, 1])[0],
                    "os": rng.choice(spec["fields"]["os"]),
                    "firmware": rng.choice(FIRMWARE),
                    "last_seen": (date(2024, 6, 30) - timedelta(days=rng.randint(0, 60))).isoformat(),
                    "owner_team": rng.choice(teams),
                }
            )
        return out

    def _make_orders(
        self, rng: random.Random, fake: Faker, n: int, spec: dict[str, Any]
    ) -> list[dict[str, Any]]:
        customers = sorted({fake.last_name() for _ in range(10)})[:7]
        out = []
        for i in range(n):
            items = [
                {
                    "sku": f"SKU-{rng.randint(100, 999)}",
                    "qty": rng.randint(1, 5),
                    "unit_price_cents": rng.randint(199, 15000),
                }
                for _ in range(rng.randint(1, 4))
            ]
            out.append(
                {
                    "id": f"O-{spec['start'] + i}",
                    "customer": rng.choice(customers),
                    "status": rng.choices(["new", "paid", "shipped", "cancelled"], [2, 4, 3, 1])[0],
                    "created": (date(2024, 3, 1) + timedelta(days=rng.randint(0, 120))).isoformat(),
                    "item_count": len(items),
                    "items": items,
                    "carrier": "",
                }
            )
        return out

    def _make_users(
        self, rng: random.Random, fake: Faker, n: int, spec: dict[str, Any]
    ) -> list[dict[str, Any]]:
        names: set[str] = set()
        while len(names) < n:
            names.add(fake.user_name())
        out = []
        ordered = sorted(names)
        rng.shuffle(ordered)
        for i, name in enumerate(ordered):
            active = rng.random() < 0.75
            out.append(
                {
                    "id": f"U-{spec['start'] + i}",
                    "username": name,
                    "team": rng.choice(spec["fields"]["team"]),
                    "role": rng.choices(["viewer", "editor", "admin"], [5, 3, 2])[0],
                    "active": active,
                    "last_login": (date(2024, 6, 30) - timedelta(days=rng.randint(0, 200))).isoformat(),
                    "mfa": rng.random() < 0.6,
                }
            )
        return out

    # ------------------------------------------------------------------ tasks

    @staticmethod
    def _report_json(
        rng: random.Random, name: str, title: str, text: str, expected: Any, solve: str
    ) -> dict[str, Any]:
        if not expected:
            raise ValueError(f"{name}: nothing to report")
        out = rng.choice(["/app/report.json", "/app/out/summary.json", f"/app/{name}.json"])
        return {
            "name": name,
            "title": title,
            "text": text,
            "output": out,
            "format": "json",
            "check": {"path": out, "expected": expected},
            "solve": solve.replace("__OUT__", out),
        }

    @staticmethod
    def _report_csv(
        rng: random.Random, name: str, title: str, text: str, rows: list[list[Any]], solve: str
    ) -> dict[str, Any]:
        if len(rows) < 3:  # the header and at least two records
            raise ValueError(f"{name}: too little to report")
        out = rng.choice(["/app/report.csv", "/app/out/list.csv", f"/app/{name}.csv"])
        return {
            "name": name,
            "title": title,
            "text": text,
            "output": out,
            "format": "csv",
            "check": {"path": out, "expected": [[str(x) for x in r] for r in rows]},
            "solve": solve.replace("__OUT__", out),
        }

    @staticmethod
    def _patch(
        name: str,
        title: str,
        text: str,
        records: list[dict[str, Any]],
        change: Callable[[dict[str, Any]], dict[str, Any] | None],
        solve: str,
    ) -> dict[str, Any]:
        expected, changed = [], 0
        for rec in records:
            update = change(rec)
            if update:
                changed += 1
            expected.append({**rec, **(update or {})})
        if changed == 0 or changed == len(records):
            raise ValueError(f"{name}: the change would touch {changed} of {len(records)} records")
        return {
            "name": name,
            "title": title,
            "text": text,
            "format": "state",
            "check": {"expected": expected, "changed": changed},
            "solve": solve,
        }

    def _task_tickets_json(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        field = rng.choice(["assignee", "priority"])
        status = rng.choice(["open", "pending"])
        min_comments = rng.choice([1, 2, 3]) if d >= 2 else 0
        counts: dict[str, int] = {}
        for r in records:
            if r["status"] == status and r["comments"] >= min_comments:
                counts[r[field]] = counts.get(r[field], 0) + 1
        cond = f"status `{status}`" + (
            f" and at least {min_comments} comment{'s' if min_comments > 1 else ''} "
            "(`comments`, a detail field)"
            if min_comments
            else ""
        )
        text = (
            f"Count the tickets with {cond}, per `{field}`. Write `__OUT__` as one JSON object mapping each "
            f"`{field}` value that has at least one such ticket to its count (integers), e.g. "
            f'`{{"{next(iter(sorted(counts)), "x")}": 3, ...}}`. Values with no such ticket are left out.'
        )
        solve = f"""counts = {{}}
for t in fetch_all():
    if t["status"] != {status!r}:
        continue
    if {min_comments} and detail(t["id"])["comments"] < {min_comments}:
        continue
    counts[t[{field!r}]] = counts.get(t[{field!r}], 0) + 1
write_json("__OUT__", counts)
"""
        task = self._report_json(
            rng,
            f"{status}_by_{field}",
            f"Count {status} helpdesk tickets per {field} through the local API",
            text,
            counts,
            solve,
        )
        task["text"] = task["text"].replace("__OUT__", task["output"])
        return task

    def _task_tickets_csv(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        prios = ["high", "urgent"] if rng.random() < 0.5 else ["urgent"]
        if d == 1:
            prios = ["normal", "high", "urgent"]
        rows = [r for r in records if r["priority"] in prios and r["status"] != "closed"]
        rows.sort(key=lambda r: (-r["comments"], r["id"]))
        table = [["id", "customer", "assignee", "comments"]] + [
            [r["id"], r["customer"], r["assignee"], r["comments"]] for r in rows
        ]
        text = (
            "List every ticket that is not `closed` and whose priority is "
            f"{' or '.join(f'`{p}`' for p in prios)}. Write "
            "`__OUT__` as CSV with the header `id,customer,assignee,comments` and one row per such ticket "
            "(`customer` and `comments` come from the detail endpoint), sorted by `comments` descending, "
            "then by `id` "
            "ascending. Standard CSV quoting (Python's `csv` module defaults), `\\n` line endings."
        )
        solve = f"""rows = []
for t in fetch_all():
    if t["priority"] in {prios!r} and t["status"] != "closed":
        full = detail(t["id"])
        rows.append([t["id"], full["customer"], t["assignee"], full["comments"]])
rows.sort(key=lambda r: (-r[3], r[0]))
write_csv("__OUT__", ["id", "customer", "assignee", "comments"], rows)
"""
        task = self._report_csv(
            rng,
            "escalations",
            "Export the open high-priority tickets of the local helpdesk API to CSV",
            text,
            table,
            solve,
        )
        task["text"] = task["text"].replace("__OUT__", task["output"])
        return task

    def _task_tickets_patch(
        self, rng: random.Random, records: list[dict[str, Any]], d: int
    ) -> dict[str, Any]:
        if rng.random() < 0.5:
            cutoff = rng.choice(["2024-03-01", "2024-04-01", "2024-05-01"])
            text = (
                "Close stale tickets: every ticket whose status is `pending` and whose `created` date is "
                f"**before** {cutoff} must get the status `closed`. Change nothing else, and no other ticket."
            )
            solve = f"""for t in fetch_all():
    if t["status"] == "pending" and t["created"] < {cutoff!r}:
        patch(t["id"], {{"status": "closed"}})
"""
            return self._patch(
                "close_stale",
                "Close stale pending tickets through the local helpdesk API",
                text,
                records,
                lambda r: (
                    {"status": "closed"} if r["status"] == "pending" and r["created"] < cutoff else None
                ),
                solve,
            )
        people = sorted({r["assignee"] for r in records})
        a, b = rng.sample(people, 2)
        text = (
            f"`{a}` is leaving. Reassign every ticket of `{a}` that is not `closed` to `{b}` "
            f"(field `assignee`); {a}'s closed tickets stay as they are, and nothing else changes."
        )
        solve = f"""for t in fetch_all():
    if t["assignee"] == {a!r} and t["status"] != "closed":
        patch(t["id"], {{"assignee": {b!r}}})
"""
        return self._patch(
            "reassign",
            "Reassign a leaving agent's tickets through the local helpdesk API",
            text,
            records,
            lambda r: {"assignee": b} if r["assignee"] == a and r["status"] != "closed" else None,
            solve,
        )

    def _task_tickets_create(
        self, rng: random.Random, records: list[dict[str, Any]], d: int
    ) -> dict[str, Any]:
        people = sorted({r["assignee"] for r in records})
        new = []
        for i in range({1: 3, 2: 5, 3: 8}[d]):
            new.append(
                {
                    "title": rng.choice(
                        [
                            "Printer offline",
                            "VPN drops every hour",
                            "Wrong invoice total",
                            "Cannot attach files",
                            "Calendar sync broken",
                            "Dark mode unreadable",
                            "Search misses new items",
                            "Password mail never arrives",
                        ]
                    )
                    + f" (#{i + 1})",
                    "priority": rng.choice(["low", "normal", "high", "urgent"]),
                    "assignee": rng.choice(people),
                    "customer": rng.choice(["Acme Corp", "Globex", "Initech", "Hooli, Inc."]),
                }
            )
        return self._create(
            rng,
            "tickets",
            new,
            ["title", "priority", "assignee", "customer"],
            "File the tickets listed in `__FILE__` (one per row) through the API",
        )

    def _create(
        self, rng: random.Random, resource: str, new: list[dict[str, Any]], columns: list[str], lead: str
    ) -> dict[str, Any]:
        file = rng.choice([f"new_{resource}.csv", f"import/{resource}.csv", "to_create.csv"])
        text = (
            lead.replace("__FILE__", f"/app/{file}")
            + f": one `POST` per row, with a JSON body holding exactly the columns "
            f"{', '.join(f'`{c}`' for c in columns)} as strings, as they appear in the file. "
            "Create each exactly once; do not change or delete existing records."
        )
        table = [columns] + [[row[c] for c in columns] for row in new]
        solve = f"""import csv
with open("/app/{file}", newline="", encoding="utf-8") as fh:
    for row in csv.DictReader(fh):
        post({{k: row[k] for k in {columns!r}}})
"""
        return {
            "name": f"create_{resource}",
            "title": f"Create {len(new)} {resource} from a CSV file through the local API",
            "text": text,
            "format": "state",
            "check": {"new": [[row[c] for c in columns] for row in new], "columns": columns},
            "solve": solve,
            "env": {file: rows_csv(table)},
        }

    def _task_devices_json(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        status = rng.choice(["offline", "online"])
        by = rng.choice(["site", "os"])
        out: dict[str, list[str]] = {}
        for r in records:
            if r["status"] == status:
                out.setdefault(r[by], []).append(r["hostname"])
        result = {k: sorted(v) for k, v in sorted(out.items())}
        text = (
            f"For each `{by}`, list the hostnames of the devices whose status is `{status}`. "
            f"Write `__OUT__` as one JSON object: keys are the `{by}` values that have at least one "
            "such device, values are the sorted (ascending) lists of their hostnames."
        )
        solve = f"""out = {{}}
for dev in fetch_all():
    if dev["status"] == {status!r}:
        out.setdefault(dev[{by!r}], []).append(dev["hostname"])
write_json("__OUT__", {{k: sorted(v) for k, v in out.items()}})
"""
        task = self._report_json(
            rng,
            f"{status}_by_{by}",
            f"Group {status} devices by {by} from the local fleet API",
            text,
            result,
            solve,
        )
        task["text"] = task["text"].replace("__OUT__", task["output"])
        return task

    def _task_devices_csv(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        minimum = rng.choice(["2.1.3", "2.4.1", "2.10.0", "3.0.2"])
        rows = [
            r
            for r in records
            if r["status"] != "maintenance" and version_key(r["firmware"]) < version_key(minimum)
        ]
        rows.sort(key=lambda r: (r["site"], r["hostname"]))
        table = [["hostname", "site", "firmware", "last_seen"]] + [
            [r["hostname"], r["site"], r["firmware"], r["last_seen"]] for r in rows
        ]
        text = (
            "Find the devices that need a firmware upgrade: status other than `maintenance` and "
            f"`firmware` (a detail field) lower than `{minimum}`, comparing versions number by number "
            "(so `2.4.1` < `2.10.0`). Write `__OUT__` "
            "as CSV with the header `hostname,site,firmware,last_seen`, one row per device, sorted by "
            "`site` then "
            "`hostname` (both ascending)."
        )
        solve = f"""def key(v):
    return tuple(int(x) for x in v.split("."))
rows = []
for dev in fetch_all():
    if dev["status"] == "maintenance":
        continue
    full = detail(dev["id"])
    if key(full["firmware"]) < key({minimum!r}):
        rows.append([dev["hostname"], dev["site"], full["firmware"], full["last_seen"]])
rows.sort(key=lambda r: (r[1], r[0]))
write_csv("__OUT__", ["hostname", "site", "firmware", "last_seen"], rows)
"""
        task = self._report_csv(
            rng,
            "firmware_upgrades",
            "List devices below a firmware version from the local fleet API",
            text,
            table,
            solve,
        )
        task["text"] = task["text"].replace("__OUT__", task["output"])
        return task

    def _task_devices_patch(
        self, rng: random.Random, records: list[dict[str, Any]], d: int
    ) -> dict[str, Any]:
        sites = sorted({r["site"] for r in records if r["status"] == "offline"})
        site = rng.choice(sites) if sites else "ams"
        team = rng.choice(["field-ops", "noc", "site-services"])
        text = (
            f"Every device at site `{site}` whose status is `offline` goes into maintenance: "
            f"set its `status` to `maintenance` and its `owner_team` to `{team}`, in one `PATCH` each "
            "or two, as you like. No other device may change."
        )
        solve = f"""for dev in fetch_all():
    if dev["site"] == {site!r} and dev["status"] == "offline":
        patch(dev["id"], {{"status": "maintenance", "owner_team": {team!r}}})
"""
        return self._patch(
            "maintenance",
            f"Put the offline {site} devices into maintenance through the local fleet API",
            text,
            records,
            lambda r: (
                {"status": "maintenance", "owner_team": team}
                if r["site"] == site and r["status"] == "offline"
                else None
            ),
            solve,
        )

    def _task_devices_create(
        self, rng: random.Random, records: list[dict[str, Any]], d: int
    ) -> dict[str, Any]:
        used = {r["hostname"] for r in records}
        new: list[dict[str, Any]] = []
        while len(new) < {1: 3, 2: 5, 3: 8}[d]:
            site = rng.choice(RESOURCES["devices"]["fields"]["site"])
            host = f"{site}-{rng.choice(['edge', 'sensor', 'ap'])}-{rng.randint(41, 99)}"
            if host in used:
                continue
            used.add(host)
            new.append(
                {
                    "hostname": host,
                    "site": site,
                    "os": rng.choice(RESOURCES["devices"]["fields"]["os"]),
                    "owner_team": rng.choice(["core", "edge", "lab"]),
                }
            )
        return self._create(
            rng,
            "devices",
            new,
            ["hostname", "site", "os", "owner_team"],
            "Register the new devices listed in `__FILE__` with the fleet service",
        )

    def _task_orders_json(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        statuses = ["paid", "shipped"] if rng.random() < 0.6 else ["paid"]
        totals: dict[str, int] = {}
        for r in records:
            if r["status"] in statuses:
                totals[r["customer"]] = totals.get(r["customer"], 0) + sum(
                    i["qty"] * i["unit_price_cents"] for i in r["items"]
                )
        result = {k: f"{v // 100}.{v % 100:02d}" for k, v in sorted(totals.items())}
        text = (
            "Compute the revenue per customer over the orders whose status is "
            f"{' or '.join(f'`{s}`' for s in statuses)}. "
            "An order's amount is the sum of `qty \u00d7 unit_price_cents` over its `items` "
            "(a detail field). Write "
            "`__OUT__` as one JSON object mapping each such customer to their total **in euros as a string "
            "with "
            'two decimals** (e.g. `"1234.50"`).'
        )
        solve = f"""totals = {{}}
for o in fetch_all():
    if o["status"] in {statuses!r}:
        cents = sum(i["qty"] * i["unit_price_cents"] for i in detail(o["id"])["items"])
        totals[o["customer"]] = totals.get(o["customer"], 0) + cents
write_json("__OUT__", {{k: f"{{v // 100}}.{{v % 100:02d}}" for k, v in totals.items()}})
"""
        task = self._report_json(
            rng,
            "revenue_by_customer",
            "Sum order revenue per customer from the local shop API",
            text,
            result,
            solve,
        )
        task["text"] = task["text"].replace("__OUT__", task["output"])
        return task

    def _task_orders_csv(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        minimum = rng.choice([3, 4, 5, 6])
        rows = []
        for r in records:
            units = sum(i["qty"] for i in r["items"])
            if r["status"] != "cancelled" and units >= minimum:
                rows.append([r["id"], r["customer"], units, r["created"]])
        rows.sort(key=lambda x: (x[3], x[0]))
        table = [["id", "customer", "units", "created"], *rows]
        text = (
            f"List the orders that are not `cancelled` and contain at least {minimum} units in total "
            "(the sum of `qty` over "
            "the order's `items`, a detail field). Write `__OUT__` as CSV with the header "
            "`id,customer,units,created`, "
            "one row per order, sorted by `created` ascending, then by `id`."
        )
        solve = f"""rows = []
for o in fetch_all():
    if o["status"] == "cancelled":
        continue
    units = sum(i["qty"] for i in detail(o["id"])["items"])
    if units >= {minimum}:
        rows.append([o["id"], o["customer"], units, o["created"]])
rows.sort(key=lambda r: (r[3], r[0]))
write_csv("__OUT__", ["id", "customer", "units", "created"], rows)
"""
        task = self._report_csv(
            rng, "bulk_orders", "Export large open orders of the local shop API to CSV", text, table, solve
        )
        task["text"] = task["text"].replace("__OUT__", task["output"])
        return task

    def _task_orders_patch(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        cutoff = rng.choice(["2024-04-15", "2024-05-01", "2024-05-20", "2024-06-01"])
        carrier = rng.choice(["DHL", "UPS", "PostNL", "GLS"])
        text = (
            f"Ship the backlog: every order with status `paid` created on or before {cutoff} "
            f"gets `status` `shipped` and `carrier` `{carrier}`. Leave every other order unchanged."
        )
        solve = f"""for o in fetch_all():
    if o["status"] == "paid" and o["created"] <= {cutoff!r}:
        patch(o["id"], {{"status": "shipped", "carrier": {carrier!r}}})
"""
        return self._patch(
            "ship_backlog",
            "Mark the paid order backlog as shipped through the local shop API",
            text,
            records,
            lambda r: (
                {"status": "shipped", "carrier": carrier}
                if r["status"] == "paid" and r["created"] <= cutoff
                else None
            ),
            solve,
        )

    def _task_users_json(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        role = rng.choice(["admin", "editor"])
        out: dict[str, dict[str, int]] = {}
        for r in records:
            if r["active"] and r["role"] == role:
                entry = out.setdefault(r["team"], {"total": 0, "without_mfa": 0})
                entry["total"] += 1
                entry["without_mfa"] += 0 if r["mfa"] else 1
        result = dict(sorted(out.items()))
        text = (
            f"Audit the active `{role}` accounts per team. Write `__OUT__` as one JSON object "
            "whose keys are the teams "
            f'that have at least one active {role}; each value is an object `{{"total": <active {role}s>, '
            '"without_mfa": <how many of them have `mfa` false>}` (`mfa` is a detail field).'
        )
        solve = f"""out = {{}}
for u in fetch_all():
    if u["active"] and u["role"] == {role!r}:
        entry = out.setdefault(u["team"], {{"total": 0, "without_mfa": 0}})
        entry["total"] += 1
        entry["without_mfa"] += 0 if detail(u["id"])["mfa"] else 1
write_json("__OUT__", out)
"""
        task = self._report_json(
            rng,
            f"{role}_audit",
            f"Audit active {role} accounts per team through the local directory API",
            text,
            result,
            solve,
        )
        task["text"] = task["text"].replace("__OUT__", task["output"])
        return task

    def _task_users_csv(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        cutoff = rng.choice(["2024-02-01", "2024-03-01", "2024-04-01"])
        rows = [r for r in records if r["active"] and r["last_login"] < cutoff]
        rows.sort(key=lambda r: (r["last_login"], r["username"]))
        table = [["username", "team", "role", "last_login"]] + [
            [r["username"], r["team"], r["role"], r["last_login"]] for r in rows
        ]
        text = (
            "Find the dormant accounts: active users whose `last_login` (a detail field, `YYYY-MM-DD`) is "
            f"before {cutoff}. "
            "Write `__OUT__` as CSV with the header `username,team,role,last_login`, one row per user, "
            "oldest login "
            "first, ties by `username` ascending."
        )
        solve = f"""rows = []
for u in fetch_all():
    if u["active"]:
        full = detail(u["id"])
        if full["last_login"] < {cutoff!r}:
            rows.append([u["username"], u["team"], u["role"], full["last_login"]])
rows.sort(key=lambda r: (r[3], r[0]))
write_csv("__OUT__", ["username", "team", "role", "last_login"], rows)
"""
        task = self._report_csv(
            rng,
            "dormant_users",
            "List dormant user accounts from the local directory API",
            text,
            table,
            solve,
        )
        task["text"] = task["text"].replace("__OUT__", task["output"])
        return task

    def _task_users_patch(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        if rng.random() < 0.5:
            text = (
                "Security clean-up: every **inactive** user (`active` false) whose role is `admin` or "
                "`editor` must be "
                "demoted to the role `viewer`. Nothing else changes; active users keep their roles."
            )
            solve = """for u in fetch_all():
    if not u["active"] and u["role"] in ("admin", "editor"):
        patch(u["id"], {"role": "viewer"})
"""
            return self._patch(
                "demote_inactive",
                "Demote inactive privileged users through the local directory API",
                text,
                records,
                lambda r: (
                    {"role": "viewer"} if not r["active"] and r["role"] in ("admin", "editor") else None
                ),
                solve,
            )
        cutoff = rng.choice(["2024-02-15", "2024-03-15", "2024-04-15"])
        text = (
            "Deactivate the dormant accounts: every active user whose `last_login` (a detail field) is "
            f"before {cutoff} "
            "gets `active` set to `false` (a JSON boolean). No other field or user changes."
        )
        solve = f"""for u in fetch_all():
    if u["active"] and detail(u["id"])["last_login"] < {cutoff!r}:
        patch(u["id"], {{"active": False}})
"""
        return self._patch(
            "deactivate_dormant",
            "Deactivate dormant accounts through the local directory API",
            text,
            records,
            lambda r: {"active": False} if r["active"] and r["last_login"] < cutoff else None,
            solve,
        )

    def _task_users_create(self, rng: random.Random, records: list[dict[str, Any]], d: int) -> dict[str, Any]:
        used = {r["username"] for r in records}
        new: list[dict[str, Any]] = []
        while len(new) < {1: 3, 2: 5, 3: 8}[d]:
            name = rng.choice(
                [
                    "jdoe",
                    "asmith",
                    "mlopez",
                    "kchen",
                    "rpatel",
                    "tnguyen",
                    "oadeyemi",
                    "lrossi",
                    "sdubois",
                    "hkim",
                ]
            ) + str(rng.randint(2, 9))
            if name in used:
                continue
            used.add(name)
            new.append(
                {
                    "username": name,
                    "team": rng.choice(RESOURCES["users"]["fields"]["team"]),
                    "role": rng.choice(["viewer", "editor"]),
                }
            )
        return self._create(
            rng, "users", new, ["username", "team", "role"], "Onboard the new hires listed in `__FILE__`"
        )
