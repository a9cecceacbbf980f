"""log-report: parse a log from the pool and write an exactly formatted report (text or JSON).

The family recognises the pool log's format (nginx/apache access logs in the combined, timed or
common format, application logs with levels, syslog-style auth logs, key=value gateway logs), gives
the agent the exact line grammar, and draws a set of report sections from those the format supports:
counts, malformed lines, top-N tables with tie-breaks, status classes, error paths, error windows,
hourly buckets, latency percentiles (nearest rank), failed logins, and so on. The expected report is
computed here and embedded in the checker.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from synth.families.base import Draft, Family, render
from synth.families.csv_aggregate import sha256, toml_safe
from synth.pools import PoolItem, Pools

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

FORMATS: dict[str, str] = {
    "timed": r'^(\S+) \S+ (\S+) \[([^\]]+)\] "([^"]*)" ([0-9]{3}) ([0-9]+|-) "[^"]*" "[^"]*" '
    r"([0-9]+\.[0-9]+)$",
    "combined": r'^(\S+) \S+ (\S+) \[([^\]]+)\] "([^"]*)" ([0-9]{3}) ([0-9]+|-) "[^"]*" "[^"]*"$',
    "common": r'^(\S+) \S+ (\S+) \[([^\]]+)\] "([^"]*)" ([0-9]{3}) ([0-9]+|-)$',
    "app": r"^([0-9]{4}-[0-9]{2}-[0-9]{2}) ([0-9]{2}):([0-9]{2}):([0-9]{2}),([0-9]{3}) "
    r"(DEBUG|INFO|WARNING|ERROR|CRITICAL) \[([^\]]+)\] (.*)$",
    "syslog": r"^([A-Z][a-z]{2}) ([ 0-9][0-9]) ([0-9]{2}):([0-9]{2}):([0-9]{2}) (\S+) "
    r"([^\s\[:]+)(?:\[([0-9]+)\])?: (.*)$",
    "logfmt": r"^[a-z_]+=\S+( [a-z_]+=\S+)*$",
}
ACCESS_TIME = re.compile(r"^([0-9]{2})/([A-Z][a-z]{2})/([0-9]{4}):([0-9]{2}):([0-9]{2}):([0-9]{2})")
FAILED = r"^Failed password for (invalid user )?(\S+) from (\S+) port [0-9]+"
ACCEPTED = r"^Accepted (\S+) for (\S+) from (\S+)"
SUDO = r"; COMMAND=(.*)$"
LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


def lines_of(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def detect(text: str) -> str | None:
    lines = [line for line in lines_of(text) if line.strip()]
    if len(lines) < 40:
        return None
    for name, pattern in FORMATS.items():
        regex = re.compile(pattern)
        hits = [line for line in lines if regex.match(line)]
        if name == "logfmt":
            hits = [line for line in hits if logfmt_request(line) is not None]
        if len(hits) >= 0.85 * len(lines):
            return name
    return None


def logfmt_request(line: str) -> dict[str, str] | None:
    if not re.match(FORMATS["logfmt"], line):
        return None
    pairs = dict(part.split("=", 1) for part in line.split(" "))
    if not all(k in pairs for k in ("method", "path", "status", "duration_ms")):
        return None
    if not re.fullmatch(r"[0-9]{3}", pairs["status"]) or not re.fullmatch(r"[0-9]+", pairs["duration_ms"]):
        return None
    return pairs


def nearest_rank(values: list[Any], p: int, key: Any = float) -> Any:
    ordered = sorted(values, key=key)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


def ranked(counter: Counter[str] | dict[str, int], n: int | None = None) -> list[list[Any]]:
    rows = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return [[k, v] for k, v in (rows[:n] if n else rows)]


@dataclass
class Section:
    name: str
    columns: list[str] | None
    """None for a single value."""
    value: Any
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Parsed:
    fmt: str
    lines: list[str]
    entries: list[dict[str, Any]]
    bad: int


def parse(fmt: str, text: str) -> Parsed:
    regex = re.compile(FORMATS[fmt])
    entries: list[dict[str, Any]] = []
    bad = 0
    lines = lines_of(text)
    for line in lines:
        if fmt == "logfmt":
            pairs = logfmt_request(line)
            if pairs is None:
                bad += 1
                continue
            entries.append(
                {**pairs, "status": int(pairs["status"]), "duration_ms": int(pairs["duration_ms"])}
            )
            continue
        m = regex.match(line)
        if m is None:
            bad += 1
            continue
        g = m.groups()
        if fmt in ("timed", "combined", "common"):
            parts = g[3].split(" ")
            path = parts[1].split("?", 1)[0] if len(parts) == 3 else None
            t = ACCESS_TIME.match(g[2])
            hour = (
                f"{t.group(3)}-{MONTHS.index(t.group(2)) + 1:02d}-{t.group(1)} {t.group(4)}:00"
                if t and t.group(2) in MONTHS
                else None
            )
            entry = {
                "ip": g[0],
                "user": g[1],
                "status": int(g[4]),
                "bytes": 0 if g[5] == "-" else int(g[5]),
                "path": path,
                "method": parts[0] if len(parts) == 3 else None,
                "hour": hour,
            }
            if fmt == "timed":
                entry["rt"] = g[6]
            entries.append(entry)
        elif fmt == "app":
            entries.append(
                {
                    "date": g[0],
                    "h": g[1],
                    "m": g[2],
                    "stamp": f"{g[0]} {g[1]}:{g[2]}:{g[3]},{g[4]}",
                    "level": g[5],
                    "component": g[6],
                    "message": g[7],
                }
            )
        else:
            entries.append(
                {"month": g[0], "day": int(g[1]), "h": g[2], "host": g[5], "program": g[6], "message": g[8]}
            )
    return Parsed(fmt, lines, entries, bad)


class LogReport(Family):
    name = "log-report"
    category = "logs"
    pool_kinds = ("log",)

    def usable(self, pools: Pools) -> bool:
        return bool(usable_logs(pools))

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        logs = usable_logs(pools)
        if not logs:
            raise ValueError("log-report: no pool log in a known format")
        item, fmt = logs[rng.randrange(len(logs))]
        return _Task(rng, item, fmt, difficulty).build()


def usable_logs(pools: Pools) -> list[tuple[PoolItem, str]]:
    found = []
    for item in pools.items("log"):
        fmt = detect(item.read_text())
        if fmt is not None:
            found.append((item, fmt))
    return found


class _Task:
    def __init__(self, rng: random.Random, item: PoolItem, fmt: str, difficulty: int):
        self.rng, self.item, self.fmt, self.difficulty = rng, item, fmt, difficulty

    def log_lines(self) -> list[str]:
        rng = self.rng
        lines = lines_of(self.item.read_text())
        size = {1: 90, 2: 160, 3: 400}[self.difficulty] + rng.randint(-10, 10)
        if len(lines) > size:
            start = rng.randrange(len(lines) - size)
            lines = lines[start : start + size]
        for _ in range({1: 2, 2: 3, 3: 5}[self.difficulty]):
            kind = rng.choice(["empty", "cut", "garbage", "cut"])
            if kind == "empty":
                bad = ""
            elif kind == "cut":
                src = rng.choice(lines)
                bad = src[: max(1, len(src) // 3)]
            else:
                bad = "\t" + rng.choice(
                    ["connection reset by peer", "-- restarted --", "worker exited with code 137", "???"]
                )
            lines.insert(rng.randrange(len(lines) + 1), bad)
        return lines

    def placement(self) -> str:
        rng = self.rng
        options = {
            "timed": [
                "/var/log/nginx/access.log",
                "/var/log/nginx/api_access.log",
                "/srv/logs/edge/access.log",
                "/app/logs/access.log",
            ],
            "combined": [
                "/var/log/nginx/access.log",
                "/var/log/nginx/shop.access.log",
                "/app/logs/nginx_access.log",
                "/srv/www/logs/access.log",
            ],
            "common": [
                "/var/log/apache2/access.log",
                "/var/log/httpd/access_log",
                "/app/logs/apache_access.log",
            ],
            "app": [
                "/var/log/orders/app.log",
                "/app/logs/service.log",
                "/srv/worker/logs/worker.log",
                "/var/log/billing/billing.log",
            ],
            "syslog": ["/var/log/auth.log", "/var/log/secure", "/app/logs/auth.log"],
            "logfmt": [
                "/var/log/gateway/gateway.log",
                "/app/logs/api_gateway.log",
                "/srv/gateway/requests.log",
            ],
        }[self.fmt]
        return rng.choice(options)

    # -- sections ------------------------------------------------------------------------------------

    def sections(self, p: Parsed) -> list[Section]:
        rng, fmt = self.rng, self.fmt
        e = p.entries
        n = rng.randint(3, 6)
        pool: list[Section] = []
        if fmt in ("timed", "combined", "common"):
            with_path = [x for x in e if x["path"] is not None]
            cls = rng.choice([4, 5])
            pool += [
                Section("unique_ips", None, len({x["ip"] for x in e})),
                Section("top_ips", ["ip", "count"], ranked(Counter(x["ip"] for x in e), n), {"n": n}),
                Section(
                    "top_paths", ["path", "count"], ranked(Counter(x["path"] for x in with_path), n), {"n": n}
                ),
                Section(
                    "status_counts",
                    ["status", "count"],
                    [[str(k), v] for k, v in sorted(Counter(x["status"] for x in e).items())],
                ),
                Section(
                    "status_classes",
                    ["class", "count"],
                    [[f"{c}xx", sum(1 for x in e if x["status"] // 100 == c)] for c in (2, 3, 4, 5)],
                ),
                Section(
                    "error_paths",
                    ["path", "count"],
                    ranked(Counter(x["path"] for x in with_path if x["status"] // 100 == cls)),
                    {"class": cls},
                ),
                Section(
                    "bytes_by_path",
                    ["path", "bytes"],
                    ranked(_sum_by(with_path, "path", "bytes"), n),
                    {"n": n},
                ),
                Section(
                    "methods",
                    ["method", "count"],
                    [[k, v] for k, v in sorted(Counter(x["method"] for x in with_path).items())],
                ),
                Section(
                    "hourly",
                    ["hour", "count"],
                    [[k, v] for k, v in sorted(Counter(x["hour"] for x in e if x["hour"]).items())],
                ),
                Section(
                    "users", ["user", "count"], ranked(Counter(x["user"] for x in e if x["user"] != "-"))
                ),
            ]
            if fmt == "timed":
                rts = [x["rt"] for x in e]
                threshold = rng.choice(["0.250", "0.500", "1.000"])
                pool += [
                    Section(
                        "latency",
                        ["percentile", "seconds"],
                        [[f"p{q}", nearest_rank(rts, q)] for q in (50, 90, 99)],
                    ),
                    Section(
                        "slow_paths",
                        ["path", "count"],
                        ranked(Counter(x["path"] for x in with_path if float(x["rt"]) > float(threshold))),
                        {"threshold": threshold},
                    ),
                ]
        elif fmt == "app":
            errs = [x for x in e if x["level"] in ("ERROR", "CRITICAL")]
            width = rng.choice([5, 10, 15, 30])
            k = rng.choice([2, 3, 4])
            windows: Counter[str] = Counter()
            for x in errs:
                windows[f"{x['date']} {x['h']}:{int(x['m']) // width * width:02d}"] += 1
            pool += [
                Section(
                    "levels",
                    ["level", "count"],
                    [[lv, sum(1 for x in e if x["level"] == lv)] for lv in LEVELS],
                ),
                Section(
                    "errors_by_component",
                    ["component", "count"],
                    ranked(Counter(x["component"] for x in errs)),
                ),
                Section(
                    "error_windows",
                    ["window", "errors"],
                    [[w, c] for w, c in sorted(windows.items()) if c >= k],
                    {"width": width, "min": k},
                ),
                Section("first_error", None, errs[0]["stamp"] if errs else "none"),
                Section("last_error", None, errs[-1]["stamp"] if errs else "none"),
                Section(
                    "top_errors",
                    ["count", "message"],
                    [
                        [c, m]
                        for m, c in ranked(Counter(re.sub(r"[0-9]+", "#", x["message"]) for x in errs), n)
                    ],
                    {"n": n},
                ),
                Section(
                    "components",
                    ["component", "count"],
                    [[k2, v] for k2, v in sorted(Counter(x["component"] for x in e).items())],
                ),
                Section(
                    "hourly",
                    ["hour", "count"],
                    [[k2, v] for k2, v in sorted(Counter(f"{x['date']} {x['h']}:00" for x in e).items())],
                ),
                Section(
                    "warnings_by_component",
                    ["component", "count"],
                    ranked(Counter(x["component"] for x in e if x["level"] == "WARNING")),
                ),
            ]
        elif fmt == "syslog":
            fails = [
                (m.group(1) is not None, m.group(2), m.group(3))
                for x in e
                if x["program"] == "sshd" and (m := re.match(FAILED, x["message"]))
            ]
            accepted = [
                m.group(2) for x in e if x["program"] == "sshd" and (m := re.match(ACCEPTED, x["message"]))
            ]
            sudo = Counter(
                m.group(1) for x in e if x["program"] == "sudo" and (m := re.search(SUDO, x["message"]))
            )
            hours: Counter[tuple[int, int, str]] = Counter()
            for x in e:
                if x["program"] == "sshd" and re.match(FAILED, x["message"]) and x["month"] in MONTHS:
                    hours[(MONTHS.index(x["month"]), x["day"], x["h"])] += 1
            pool += [
                Section(
                    "programs",
                    ["program", "count"],
                    [[k2, v] for k2, v in sorted(Counter(x["program"] for x in e).items())],
                ),
                Section(
                    "hosts",
                    ["host", "count"],
                    [[k2, v] for k2, v in sorted(Counter(x["host"] for x in e).items())],
                ),
                Section(
                    "failed_by_ip", ["ip", "failures"], ranked(Counter(ip for _, _, ip in fails), n), {"n": n}
                ),
                Section(
                    "failed_users", ["user", "failures"], ranked(Counter(u for _, u, _ in fails), n), {"n": n}
                ),
                Section("invalid_user_attempts", None, sum(1 for inv, _, _ in fails if inv)),
                Section(
                    "accepted_logins",
                    ["user", "count"],
                    [[k2, v] for k2, v in sorted(Counter(accepted).items())],
                ),
                Section(
                    "failures_per_hour",
                    ["hour", "failures"],
                    [[f"{MONTHS[mo]} {d:02d} {h}:00", c] for (mo, d, h), c in sorted(hours.items())],
                ),
                Section("sudo_commands", ["count", "command"], [[c, cmd] for cmd, c in ranked(sudo)]),
            ]
        else:
            by_path: dict[str, list[int]] = {}
            for x in e:
                by_path.setdefault(x["path"], []).append(x["duration_ms"])
            limit = rng.choice([400, 500])
            rates = []
            for path in sorted(by_path):
                rows = [x for x in e if x["path"] == path]
                bad = sum(1 for x in rows if x["status"] >= limit)
                rate = (Decimal(bad) * 100 / len(rows)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
                rates.append([path, f"{rate:.1f}"])
            durations = [x["duration_ms"] for x in e]
            slow = sorted(e, key=lambda x: (-x["duration_ms"], x.get("req_id", "-")))[:n]
            pool += [
                Section(
                    "status_counts",
                    ["status", "count"],
                    [[str(k2), v] for k2, v in sorted(Counter(x["status"] for x in e).items())],
                ),
                Section("paths", ["path", "count"], ranked(Counter(x["path"] for x in e))),
                Section(
                    "latency_by_path",
                    ["path", "p50", "p95", "max"],
                    [
                        [pth, nearest_rank(v, 50, int), nearest_rank(v, 95, int), max(v)]
                        for pth, v in sorted(by_path.items())
                    ],
                ),
                Section("error_rate_by_path", ["path", "percent"], rates, {"limit": limit}),
                Section(
                    "slowest",
                    ["req_id", "duration_ms"],
                    [[x.get("req_id", "-"), x["duration_ms"]] for x in slow],
                    {"n": n},
                ),
                Section(
                    "clients",
                    ["client", "count"],
                    ranked(Counter(x.get("client", "-") for x in e), n),
                    {"n": n},
                ),
                Section(
                    "latency",
                    ["percentile", "ms"],
                    [[f"p{q}", nearest_rank(durations, q, int)] for q in (50, 90, 99)],
                ),
                Section(
                    "methods",
                    ["method", "count"],
                    [[k2, v] for k2, v in sorted(Counter(x["method"] for x in e).items())],
                ),
                Section(
                    "levels",
                    ["level", "count"],
                    [[k2, v] for k2, v in sorted(Counter(x.get("level", "-") for x in e).items())],
                ),
            ]
        rng.shuffle(pool)
        count = {1: 2, 2: 3, 3: 5}[self.difficulty]
        chosen = pool[:count]
        total_name = {
            "timed": "total_requests",
            "combined": "total_requests",
            "common": "total_requests",
            "logfmt": "requests",
        }.get(fmt, "entries")
        head = [
            Section(total_name, None, len(e)),
            Section(
                "malformed_lines" if fmt in ("timed", "combined", "common") else "unparsed_lines", None, p.bad
            ),
        ]
        if rng.random() < 0.5:
            head = head[:1] + ([head[1]] if rng.random() < 0.6 else [])
        return head + chosen

    def build(self) -> Draft:
        rng = self.rng
        lines = self.log_lines()
        text = "\n".join(lines) + "\n"
        parsed = parse(self.fmt, text)
        sections = self.sections(parsed)
        log_path = self.placement()
        out_kind = rng.choice(["text", "json"])
        out = rng.choice(["/app/report", "/app/out/report", "/app/reports/log_summary", "/app/summary"]) + (
            ".txt" if out_kind == "text" else ".json"
        )
        if out_kind == "text":
            expected: Any = []
            for s in sections:
                if s.columns is None:
                    expected.append(f"{s.name}: {s.value}")
                else:
                    expected.append(f"{s.name}:")
                    expected += [" ".join(str(v) for v in row) for row in s.value]
        else:
            expected = {}
            for s in sections:
                if s.columns is None:
                    expected[s.name] = s.value
                else:
                    expected[s.name] = [
                        dict(
                            zip(
                                s.columns,
                                [_jsonish(s.name, c, v) for c, v in zip(s.columns, row, strict=True)],
                                strict=True,
                            )
                        )
                        for row in s.value
                    ]
        staged = f"_logs/{log_path.rsplit('/', 1)[1]}"
        moves = [] if log_path.startswith("/app/") else [(f"/app/{staged}", log_path)]
        env_path = staged if moves else log_path.removeprefix("/app/")
        spec = {
            "log": log_path,
            "log_sha256": sha256(text),
            "out": out,
            "kind": out_kind,
            "expected": expected,
        }
        ctx = {
            "fmt": self.fmt,
            "regex": FORMATS[self.fmt],
            "log": log_path,
            "out": out,
            "out_kind": out_kind,
            "sections": [s.__dict__ for s in sections],
            "blurbs": [blurb(s) for s in sections],
            "names": [s.name for s in sections],
            "failed_re": FAILED,
            "sudo_re": SUDO,
            "accepted_re": ACCEPTED,
            "phr": [rng.randrange(4) for _ in range(4)],
        }
        files = {
            f"environment/{env_path}": text,
            "tests/check.py": render("log-report/check.py.j2", spec=json.dumps(spec, sort_keys=True)),
            "solution/solve.sh": render("log-report/solve.sh.j2", **ctx),
        }
        if moves:
            files["environment/setup.sh"] = render("log-report/setup.sh.j2", moves=moves)
        kind = {
            "timed": "nginx access",
            "combined": "access",
            "common": "Apache access",
            "app": "application",
            "syslog": "auth (syslog)",
            "logfmt": "API gateway",
        }[self.fmt]
        shown = "JSON" if out_kind == "json" else "text"
        return Draft(
            title=f"Summarise the {kind} log {log_path} into an exact {shown} report",
            instruction=render("log-report/instruction.md.j2", kind=kind, **ctx),
            files=files,
            params=toml_safe(
                {
                    "format": self.fmt,
                    "log": log_path,
                    "source": self.item.path,
                    "out": out,
                    "sections": [s.name for s in sections],
                    "section_params": {s.name: s.params for s in sections if s.params},
                    "lines": len(lines),
                }
            ),
            keywords=["logs", "parsing", "report", self.fmt],
            pool_items=[self.item],
        )


def blurb(s: Section) -> str:
    """A short phrase for the instruction's opening sentence."""
    p = s.params
    return {
        "total_requests": "how many requests it holds",
        "entries": "how many entries it holds",
        "requests": "how many requests it records",
        "malformed_lines": "how many lines are malformed",
        "unparsed_lines": "how many lines cannot be parsed",
        "unique_ips": "how many distinct clients it saw",
        "top_ips": f"the {p.get('n')} busiest client IPs",
        "top_paths": f"the {p.get('n')} most requested paths",
        "status_counts": "a count per status code",
        "status_classes": "the 2xx/3xx/4xx/5xx split",
        "error_paths": f"which paths returned {p.get('class')}xx errors",
        "bytes_by_path": f"the {p.get('n')} paths that served the most bytes",
        "methods": "the request count per HTTP method",
        "hourly": "the traffic per hour",
        "users": "the requests per authenticated user",
        "latency": "the p50/p90/p99 latency",
        "slow_paths": f"which paths were slower than {p.get('threshold')} s",
        "levels": "the number of entries per log level",
        "errors_by_component": "which components logged errors",
        "error_windows": f"the {p.get('width')}-minute windows with at least {p.get('min')} errors",
        "first_error": "when the first error happened",
        "last_error": "when the last error happened",
        "top_errors": f"the {p.get('n')} most frequent error messages",
        "components": "the volume per component",
        "programs": "the entries per program",
        "hosts": "the entries per host",
        "failed_by_ip": f"the {p.get('n')} source IPs with the most failed SSH logins",
        "failed_users": f"the {p.get('n')} user names attackers tried most",
        "invalid_user_attempts": "how many attempts targeted invalid users",
        "accepted_logins": "the successful logins per user",
        "failures_per_hour": "the failed logins per hour",
        "paths": "the request count per route",
        "latency_by_path": "per-route p50/p95/max durations",
        "error_rate_by_path": f"the per-route share of responses with status {p.get('limit')} or more",
        "slowest": f"the {p.get('n')} slowest requests",
        "clients": f"the {p.get('n')} most active clients",
        "warnings_by_component": "which components logged warnings",
        "sudo_commands": "which commands were run through sudo",
    }[s.name]


def _sum_by(entries: list[dict[str, Any]], key: str, value: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in entries:
        out[x[key]] = out.get(x[key], 0) + x[value]
    return out


JSON_NUMBER_COLUMNS = {
    "count",
    "bytes",
    "errors",
    "failures",
    "ms",
    "p50",
    "p95",
    "max",
    "duration_ms",
    "percent",
    "seconds",
}


def _jsonish(section: str, column: str, value: Any) -> Any:
    """How a table cell is written in the JSON report: counts and measures as numbers."""
    if column in JSON_NUMBER_COLUMNS:
        return float(value) if isinstance(value, str) else value
    if column == "status":
        return int(value)
    return value
