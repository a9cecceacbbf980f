"""cron-schedule: write crontab entries for schedules described in words (cron itself is not
installed: the result is a file). The checker parses the file with a Vixie-cron compatible parser and
compares, for every job, the set of minutes it fires in over two whole years with the expected set, so
any equivalent spelling passes (lists, ranges, steps, names, `@` shortcuts, several lines for one job).

Variants: a new crontab, jobs appended to an existing one, an existing one changed (jobs moved,
removed, added), a system crontab with a user column (/etc/cron.d style), and local times given in a
fixed UTC offset that must be converted to the machine's UTC clock."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any, ClassVar

from synth.families.base import Draft, Family, render
from synth.pools import Pools

DOW_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
MONTH_NAMES = [
    "",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKLY_KINDS = [
    "daily",
    "weekdays",
    "weekend",
    "dowlist",
    "twice_daily",
    "every_n_hours",
    "hourly",
    "window",
]
"""Kinds that repeat every week (no day-of-month or month restriction): the ones a UTC offset can move."""
ALL_KINDS = [*WEEKLY_KINDS, "every_n_min", "monthly", "monthly_two", "quarterly", "yearly", "season"]
HARD_KINDS = ["dom_or_dow", "percent"]

COMMANDS = [
    "/opt/jobs/backup.sh",
    "/opt/jobs/backup.sh --full",
    "/opt/jobs/rotate-logs.sh",
    "/opt/jobs/report.sh --weekly",
    "/opt/jobs/cleanup-tmp.sh",
    "/opt/jobs/sync-partners.sh --since 1h",
    "/usr/local/bin/refresh-cache",
    "/usr/local/bin/heartbeat --quiet",
    "/usr/local/bin/renew-certs",
    "python3 /srv/webapp/manage.py clearsessions",
    "python3 /srv/webapp/manage.py send_digest",
    "/srv/billing/bin/invoice-run",
    "/srv/billing/bin/reconcile --dry-run",
    "/opt/etl/extract.sh orders",
    "/opt/etl/extract.sh customers",
    "/opt/etl/load.sh warehouse",
    "/usr/local/bin/vacuum-db --analyze",
    "/opt/jobs/poll-queue.sh",
    "/opt/jobs/export-metrics.sh",
    "/opt/jobs/prune-docker.sh",
    "/usr/local/bin/check-disk --warn 85",
    "/opt/mail/fetch-bounces",
    "/opt/jobs/payroll.sh",
    "/opt/jobs/quarterly-close.sh",
    "/opt/search/reindex --incremental",
    "/opt/search/reindex --full",
]
PERCENT_COMMANDS = [
    ("tar czf /backups/site-$(date +%F).tgz /srv/site", "site archive"),
    ("/opt/jobs/snapshot.sh --label $(date +%Y%m%d)", "labelled snapshot"),
    ("cp /var/log/app.log /archive/app-$(date +%H%M).log", "log copy"),
]
USERS = ["root", "www-data", "backup", "deploy", "postgres", "etl"]
PATHS = ["/app/crontab.txt", "/app/cron/{team}.crontab", "/app/deploy/crontab", "/app/schedules/{team}.cron"]
SYSTEM_PATHS = ["/app/etc/cron.d/{team}", "/app/cron.d/{team}-jobs", "/app/system/cron.d/{team}"]
TEAMS = ["ops", "billing", "search", "etl", "platform", "web", "data", "infra"]
OFFSETS = [2, -5, 9, 1, -3, 10, 5, -8]


def hm(h: int, m: int) -> str:
    return f"{h:02d}:{m:02d}"


def join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def compact(values: list[int], full: range) -> str:
    """A cron field for the sorted values: `*`, a step, ranges and lists."""
    values = sorted(set(values))
    if values == list(full):
        return "*"
    if len(values) >= 3:
        step = values[1] - values[0]
        if all(b - a == step for a, b in itertools.pairwise(values)) and step > 1:
            if values[0] == full.start and values[-1] + step > full.stop - 1:
                return f"*/{step}"
            end = values[-1]
            return f"{values[0]}-{end}/{step}"
    parts: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{values[i]}-{values[j]}")
        else:
            parts.extend(str(v) for v in values[i : j + 1])
        i = j + 1
    return ",".join(parts)


@dataclass
class Schedule:
    kind: str
    text: str
    spec: dict[str, Any]
    """minutes, hours, doms (None: any), months (None: any), dows (None: any; 0 = Sunday)."""
    cron: str
    """A canonical expression (the reference solution's)."""


def draw_schedule(rng: random.Random, kind: str) -> Schedule:
    h, m = rng.randint(0, 23), rng.choice([0, 5, 10, 15, 20, 30, 40, 45, 50, 55, rng.randint(0, 59)])
    at = hm(h, m)

    def spec(
        minutes: list[int],
        hours: list[int],
        doms: list[int] | None = None,
        months: list[int] | None = None,
        dows: list[int] | None = None,
    ) -> dict[str, Any]:
        return {"minutes": minutes, "hours": hours, "doms": doms, "months": months, "dows": dows}

    if kind == "daily":
        text = rng.choice([f"every day at {at}", f"daily at {at}", f"once a day, at {at}"])
        return Schedule(kind, text, spec([m], [h]), f"{m} {h} * * *")
    if kind == "weekdays":
        text = rng.choice(
            [
                f"at {at}, Monday to Friday",
                f"on weekdays (Mon\u2013Fri) at {at}",
                f"{at} on working days (Monday\u2013Friday)",
            ]
        )
        return Schedule(kind, text, spec([m], [h], dows=[1, 2, 3, 4, 5]), f"{m} {h} * * 1-5")
    if kind == "weekend":
        text = rng.choice([f"at {at} on Saturdays and Sundays", f"weekends only, at {at}"])
        return Schedule(kind, text, spec([m], [h], dows=[0, 6]), f"{m} {h} * * 0,6")
    if kind == "dowlist":
        dows = sorted(rng.sample(range(7), rng.randint(2, 3)))
        names = join_words([DOW_NAMES[d] for d in dows])
        text = rng.choice([f"at {at} every {names}", f"on {names} at {at}"])
        return Schedule(kind, text, spec([m], [h], dows=dows), f"{m} {h} * * {','.join(map(str, dows))}")
    if kind == "twice_daily":
        h2 = (h + rng.randint(4, 12)) % 24
        hours = sorted({h, h2})
        text = rng.choice(
            [
                f"twice a day, at {hm(hours[0], m)} and {hm(hours[1], m)}",
                f"every day at {hm(hours[0], m)} and at {hm(hours[1], m)}",
            ]
        )
        return Schedule(kind, text, spec([m], hours), f"{m} {hours[0]},{hours[1]} * * *")
    if kind == "every_n_hours":
        n = rng.choice([2, 3, 4, 6, 8, 12])
        start = rng.randrange(n)
        hours = list(range(start, 24, n))
        text = rng.choice(
            [
                f"every {n} hours at minute {m}, starting at {hm(start, m)} ({hm(hours[0], m)}, "
                f"{hm(hours[1], m)}, …, {hm(hours[-1], m)})",
                f"every {n} hours, at {hm(hours[0], m)}, {hm(hours[1], m)} and so on up to "
                f"{hm(hours[-1], m)}",
            ]
        )
        return Schedule(kind, text, spec([m], hours), f"{m} {compact(hours, range(24))} * * *")
    if kind == "hourly":
        text = rng.choice(
            [
                f"at {m} minutes past every hour",
                f"hourly, at minute {m} of every hour",
                f"once an hour at :{m:02d}",
            ]
        )
        return Schedule(kind, text, spec([m], list(range(24))), f"{m} * * * *")
    if kind == "window":
        n = rng.choice([5, 10, 15, 20, 30])
        h1 = rng.randint(6, 10)
        h2 = rng.randint(h1 + 3, min(h1 + 11, 22))
        minutes = list(range(0, 60, n))
        weekdays = rng.random() < 0.6
        days = ", Monday to Friday" if weekdays else ", every day"
        text = rng.choice(
            [
                f"every {n} minutes from {hm(h1, 0)} to {hm(h2, 60 - n)} inclusive ({hm(h1, 0)}, "
                f"{hm(h1, n)}, …, {hm(h2, 60 - n)}){days}",
                f"every {n} minutes between {hm(h1, 0)} and {hm(h2, 60 - n)} (both included){days}",
            ]
        )
        return Schedule(
            kind,
            text,
            spec(minutes, list(range(h1, h2 + 1)), dows=[1, 2, 3, 4, 5] if weekdays else None),
            f"*/{n} {h1}-{h2} * * {'1-5' if weekdays else '*'}",
        )
    if kind == "every_n_min":
        n = rng.choice([5, 10, 15, 20, 30])
        text = rng.choice(
            [
                f"every {n} minutes, around the clock",
                f"every {n} minutes (at :00, :{n:02d}, …), day and night",
            ]
        )
        return Schedule(kind, text, spec(list(range(0, 60, n)), list(range(24))), f"*/{n} * * * *")
    if kind == "monthly":
        d = rng.randint(1, 28)
        text = rng.choice([f"on day {d} of every month at {at}", f"monthly, on the {ordinal(d)} at {at}"])
        return Schedule(kind, text, spec([m], [h], doms=[d]), f"{m} {h} {d} * *")
    if kind == "monthly_two":
        d1, d2 = sorted(rng.sample(range(1, 29), 2))
        text = f"at {at} on the {ordinal(d1)} and on the {ordinal(d2)} of every month"
        return Schedule(kind, text, spec([m], [h], doms=[d1, d2]), f"{m} {h} {d1},{d2} * *")
    if kind == "quarterly":
        start = rng.randint(1, 3)
        months = [start, start + 3, start + 6, start + 9]
        names = join_words([MONTH_NAMES[x] for x in months])
        text = rng.choice([f"at {at} on the first day of {names}", f"quarterly: {at} on the 1st of {names}"])
        return Schedule(
            kind, text, spec([m], [h], doms=[1], months=months), f"{m} {h} 1 {','.join(map(str, months))} *"
        )
    if kind == "yearly":
        month, d = rng.randint(1, 12), rng.randint(1, 28)
        text = rng.choice(
            [
                f"once a year, on {d} {MONTH_NAMES[month]} at {at}",
                f"every {MONTH_NAMES[month]} {ordinal(d)} at {at}",
            ]
        )
        return Schedule(kind, text, spec([m], [h], doms=[d], months=[month]), f"{m} {h} {d} {month} *")
    if kind == "season":
        first = rng.randint(1, 9)
        last = first + rng.randint(1, 3)
        text = rng.choice(
            [
                f"every day at {at}, but only from {MONTH_NAMES[first]} to {MONTH_NAMES[last]} (inclusive)",
                f"daily at {at} during the months {MONTH_NAMES[first]} through {MONTH_NAMES[last]}",
            ]
        )
        return Schedule(
            kind, text, spec([m], [h], months=list(range(first, last + 1))), f"{m} {h} * {first}-{last} *"
        )
    if kind == "dom_or_dow":
        d, dow = rng.randint(1, 28), rng.randrange(7)
        text = (
            f"at {at} on the {ordinal(d)} of every month and also every {DOW_NAMES[dow]} "
            f"(a {DOW_NAMES[dow]} that falls on the {ordinal(d)} runs it once)"
        )
        return Schedule(kind, text, spec([m], [h], doms=[d], dows=[dow]), f"{m} {h} {d} * {dow}")
    raise ValueError(kind)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def shifted_cron(spec: dict[str, Any], offset: int) -> list[str]:
    """Cron lines (UTC) for a weekly schedule given in local time UTC+offset."""
    dows = spec["dows"] if spec["dows"] is not None else list(range(7))
    week: dict[int, set[tuple[int, int]]] = {d: set() for d in range(7)}
    for d in dows:
        for h in spec["hours"]:
            for m in spec["minutes"]:
                w = (d * 1440 + h * 60 + m - offset * 60) % (7 * 1440)
                week[w // 1440].add(((w % 1440) // 60, w % 60))
    groups: dict[frozenset[tuple[int, int]], list[int]] = {}
    for d in range(7):
        if week[d]:
            groups.setdefault(frozenset(week[d]), []).append(d)
    lines = []
    for times, days in sorted(groups.items(), key=lambda kv: kv[1]):
        by_minutes: dict[frozenset[int], list[int]] = {}
        for h in range(24):
            mins = frozenset(m for hh, m in times if hh == h)
            if mins:
                by_minutes.setdefault(mins, []).append(h)
        for mins, hours in sorted(by_minutes.items(), key=lambda kv: kv[1]):
            lines.append(
                f"{compact(list(mins), range(60))} {compact(hours, range(24))} * * {compact(days, range(7))}"
            )
    return lines


class CronSchedule(Family):
    name = "cron-schedule"
    category = "schedule"
    pool_kinds: ClassVar[tuple[str, ...]] = ()

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        variant = rng.choice(["create", "append", "modify", "system"] + (["tz"] if difficulty >= 2 else []))
        team = rng.choice(TEAMS)
        offset = rng.choice(OFFSETS) if variant == "tz" else 0
        kinds = WEEKLY_KINDS if variant == "tz" else ALL_KINDS
        commands = rng.sample(COMMANDS, len(COMMANDS))

        def make_job(kind: str) -> dict[str, Any]:
            sched = draw_schedule(rng, "dowlist" if kind == "percent" else kind)
            command = rng.choice(PERCENT_COMMANDS)[0] if kind == "percent" else commands.pop()
            job: dict[str, Any] = {
                "command": command,
                "written": command.replace("%", "\\%"),
                "text": sched.text,
                "kind": sched.kind,
                "spec": sched.spec,
                "lines": shifted_cron(sched.spec, offset) if offset else [sched.cron],
            }
            if variant == "system":
                job["user"] = rng.choice(USERS)
            return job

        n_new = {1: 3, 2: 5, 3: 7}[difficulty] + rng.randint(0, 1)
        if variant == "modify":
            n_new = max(1, n_new - 3)
        new_kinds = [rng.choice(kinds) for _ in range(n_new)]
        if difficulty == 3 and variant != "tz":
            new_kinds[0] = rng.choice(HARD_KINDS)
        new_jobs = [make_job(k) for k in new_kinds]

        env = [("SHELL", "/bin/bash")]
        if rng.random() < 0.7:
            env.append(("MAILTO", f"{team}-alerts@example.com"))
        if rng.random() < 0.4:
            env.append(("PATH", "/usr/local/bin:/usr/bin:/bin"))
        existing: list[dict[str, Any]] = []
        if variant == "append":
            existing = [make_job(rng.choice(ALL_KINDS)) for _ in range(rng.randint(1, 2))]
        elif variant == "modify":
            existing = [make_job(rng.choice(ALL_KINDS)) for _ in range(rng.randint(3, 5))]
        original = ""
        if existing:
            lines = [
                f"# {team} scheduled jobs (installed with: crontab {{path}})",
                *(f"{k}={v}" for k, v in env),
                "",
            ]
            with_comments = rng.random() < 0.5
            for job in existing:
                if with_comments:
                    lines.append(
                        f"# {job['command'].split()[-1 if job['command'].startswith('python3') else 0]}"
                    )
                lines.extend(f"{line} {job['written']}" for line in job["lines"])
            original = "\n".join(lines) + "\n"

        changes: list[dict[str, str]] = []
        removed: list[str] = []
        if variant == "modify":
            for job in rng.sample(existing, min(len(existing) - 1, 1 + difficulty // 2)):
                moved = draw_schedule(rng, rng.choice(ALL_KINDS))
                changes.append({"command": job["command"], "old": job["text"], "new": moved.text})
                job.update(text=moved.text, spec=moved.spec, lines=[moved.cron], changed=True)
            keep = [j for j in existing if not j.get("changed")]
            for job in rng.sample(keep, 2 if difficulty == 3 and len(keep) > 2 else 1):
                removed.append(job["written"])
                job["removed"] = True

        path = rng.choice(SYSTEM_PATHS if variant == "system" else PATHS).format(team=team)
        original = original.replace("{path}", path)
        required_env = [f"{k}={v}" for k, v in env] if existing else []
        new_env: list[str] = []
        if not existing and rng.random() < 0.6:
            new_env = [rng.choice([f"MAILTO={team}@example.com", "SHELL=/bin/bash", 'MAILTO=""'])]
        expected = [j for j in existing if not j.get("removed")] + new_jobs
        check = {
            "path": path,
            "system": variant == "system",
            "offset": offset,
            "required_env": required_env + new_env,
            "jobs": [{"command": j["written"], "spec": j["spec"], "user": j.get("user")} for j in expected],
            "removed": removed,
        }
        solution_lines = [
            f"{line} {j['user']} {j['written']}" if variant == "system" else f"{line} {j['written']}"
            for j in [*[j for j in existing if j.get("changed")], *new_jobs]
            for line in j["lines"]
        ]
        drop = [j["written"] for j in existing if j.get("changed") or j.get("removed")]
        ctx = {
            "variant": variant,
            "team": team,
            "path": path,
            "style": rng.choice(["table", "bullets"]),
            "jobs": new_jobs,
            "changes": changes,
            "removed": [j["command"] for j in existing if j.get("removed")],
            "remove_how": rng.choice(["delete", "either"]),
            "offset": offset,
            "offset_text": f"UTC{'+' if offset >= 0 else '-'}{abs(offset):02d}:00",
            "new_env": new_env,
            "required_env": required_env,
            "has_percent": any("%" in j["command"] for j in new_jobs),
            "intro": rng.randrange(3),
        }
        files = {
            "tests/check.py": render("cron-schedule/check.py.j2", data=check),
            "solution/solve.sh": render(
                "cron-schedule/solve.sh.j2",
                path=path,
                variant=variant,
                env=new_env,
                lines=solution_lines,
                drop=drop,
            ),
            "environment/setup.sh": render(
                "cron-schedule/setup.sh.j2", commands=sorted({j["command"] for j in [*existing, *new_jobs]})
            ),
        }
        if original:
            files[f"environment{path.removeprefix('/app')}"] = original
        title = {
            "create": f"Write a crontab for {len(new_jobs)} {team} jobs, checked semantically",
            "append": f"Add {len(new_jobs)} jobs to the {team} crontab without touching the existing ones",
            "modify": f"Reschedule, retire and add jobs in the {team} crontab",
            "system": f"Write an /etc/cron.d style file with user fields for {len(new_jobs)} {team} jobs",
            "tz": f"Schedule {len(new_jobs)} {team} jobs given in {ctx['offset_text']} on a UTC machine",
        }[variant]
        return Draft(
            title=title,
            instruction=render("cron-schedule/instruction.md.j2", **ctx),
            files=files,
            params={
                "variant": variant,
                "path": path,
                "offset": offset,
                "kinds": [j["kind"] for j in new_jobs],
                "changed": len(changes),
                "removed": len(removed),
            },
            keywords=["cron", "crontab", "schedule"],
        )
