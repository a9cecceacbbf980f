"""Parse the crontab with a small Vixie-cron compatible parser and check every job semantically: the
set of minutes in which it fires over two whole years (2027 and leap year 2028) must equal the expected
set. Several lines may share one job (their union counts) as long as no minute fires twice."""
import json
import re
import sys
from datetime import date, timedelta

DATA = json.loads('{"jobs": [{"command": "python3 /srv/webapp/manage.py send_digest", "spec": {"doms": null, "dows": null, "hours": [20], "minutes": [30], "months": null}, "user": null}, {"command": "/opt/jobs/cleanup-tmp.sh", "spec": {"doms": null, "dows": [0, 4, 6], "hours": [2], "minutes": [5], "months": null}, "user": null}, {"command": "/usr/local/bin/check-disk --warn 85", "spec": {"doms": null, "dows": [1, 2, 3, 4, 5], "hours": [8, 9, 10, 11], "minutes": [0, 10, 20, 30, 40, 50], "months": null}, "user": null}, {"command": "/usr/local/bin/heartbeat --quiet", "spec": {"doms": null, "dows": [0, 6], "hours": [5], "minutes": [58], "months": null}, "user": null}, {"command": "/opt/etl/load.sh warehouse", "spec": {"doms": null, "dows": [1, 2, 3, 4, 5], "hours": [19], "minutes": [40], "months": null}, "user": null}, {"command": "/usr/local/bin/vacuum-db --analyze", "spec": {"doms": null, "dows": [0, 1, 4], "hours": [17], "minutes": [45], "months": null}, "user": null}], "offset": 9, "path": "/app/crontab.txt", "removed": [], "required_env": ["MAILTO=infra@example.com"], "system": false}')
PATH = DATA["path"]
START, END = date(2027, 1, 1), date(2029, 1, 1)
DAYS = (END - START).days

MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
DOWS = {d: i for i, d in enumerate("sun mon tue wed thu fri sat".split())}
FIELDS = [(0, 59, {}), (0, 23, {}), (1, 31, {}), (1, 12, MONTHS), (0, 7, DOWS)]
MACROS = {"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
          "@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *"}


class CronError(ValueError):
    pass


def parse_field(text, lo, hi, names):
    def value(tok):
        tok = tok.lower()
        if tok in names:
            return names[tok]
        if not tok.isdigit():
            raise CronError(f"bad value {tok!r}")
        v = int(tok)
        if not lo <= v <= hi:
            raise CronError(f"value {v} out of range {lo}-{hi}")
        return v

    out = set()
    for part in text.split(","):
        step = 1
        if "/" in part:
            part, step_s = part.split("/", 1)
            if not step_s.isdigit() or int(step_s) == 0:
                raise CronError(f"bad step {step_s!r}")
            step = int(step_s)
        if part == "*":
            start, end = lo, hi
        elif "-" in part:
            a, b = part.split("-", 1)
            start, end = value(a), value(b)
            if start > end:
                raise CronError(f"reversed range {part!r}")
        else:
            start = value(part)
            end = hi if step != 1 else start
        out.update(range(start, end + 1, step))
    return out


def parse_line(line):
    """(schedule, user, command), or None for a comment, blank or environment line."""
    s = line.strip()
    if not s or s.startswith("#"):
        return None
    if re.match(r"^[A-Za-z_][A-Za-z0-9_]*\s*=", s):
        return None
    n_rest = 2 if DATA["system"] else 1
    if s.startswith("@"):
        parts = s.split(None, n_rest)
        if parts[0].lower() not in MACROS:
            raise CronError(f"unsupported shortcut {parts[0]!r}")
        fields, rest = MACROS[parts[0].lower()].split(), parts[1:]
    else:
        parts = s.split(None, 4 + n_rest)
        fields, rest = parts[:5], parts[5:]
    if len(fields) < 5 or len(rest) < n_rest:
        raise CronError("expected five time fields, " + ("a user and " if DATA["system"] else "") + "a command")
    sets = [parse_field(f, lo, hi, names) for f, (lo, hi, names) in zip(fields, FIELDS)]
    if 7 in sets[4]:
        sets[4] = (sets[4] - {7}) | {0}
    user = rest[0] if DATA["system"] else None
    command = " ".join(rest[-1].split())
    return (sets, fields[2].startswith("*"), fields[4].startswith("*")), user, command


def line_fires(sched):
    (minutes, hours, doms, months, dows), dom_star, dow_star = sched
    out = set()
    for i in range(DAYS):
        d = START + timedelta(days=i)
        if d.month not in months:
            continue
        dom_ok, dow_ok = d.day in doms, (d.isoweekday() % 7) in dows
        ok = (dom_ok and dow_ok) if (dom_star or dow_star) else (dom_ok or dow_ok)
        if ok:
            out.update(i * 1440 + h * 60 + m for h in hours for m in minutes)
    return out


def expected_fires(spec, offset):
    """The minutes (UTC, from START) of a schedule given in local time UTC+offset hours."""
    out = set()
    for i in range(-2, DAYS + 2):
        d = START + timedelta(days=i)
        if spec["months"] is not None and d.month not in spec["months"]:
            continue
        dom_ok = spec["doms"] is None or d.day in spec["doms"]
        dow_ok = spec["dows"] is None or (d.isoweekday() % 7) in spec["dows"]
        if spec["doms"] is not None and spec["dows"] is not None:
            ok = d.day in spec["doms"] or (d.isoweekday() % 7) in spec["dows"]
        else:
            ok = dom_ok and dow_ok
        if ok:
            for h in spec["hours"]:
                for m in spec["minutes"]:
                    t = i * 1440 + h * 60 + m - offset * 60
                    if 0 <= t < DAYS * 1440:
                        out.add(t)
    return out


def show(t):
    d = START + timedelta(days=t // 1440)
    return f"{d.isoformat()} {t % 1440 // 60:02d}:{t % 60:02d}"


def main():
    try:
        lines = open(PATH, encoding="utf-8").read().splitlines()
    except OSError as exc:
        print(f"FAIL: cannot read {PATH}: {exc}")
        return 1
    errors = []
    first_job = None
    jobs = {}
    for no, line in enumerate(lines, 1):
        try:
            parsed = parse_line(line)
        except CronError as exc:
            errors.append(f"line {no}: {line!r}: {exc}")
            continue
        if parsed is None:
            continue
        first_job = first_job or no
        sched, user, command = parsed
        jobs.setdefault(command, []).append((no, sched, user))
    stripped = [l.strip() for l in lines]
    for req in DATA["required_env"]:
        if req not in stripped:
            errors.append(f"missing environment line {req!r}")
        elif first_job is not None and stripped.index(req) + 1 > first_job:
            errors.append(f"environment line {req!r} must come before the first job")

    want = {j["command"]: j for j in DATA["jobs"]}
    for command, entries in jobs.items():
        if command in DATA["removed"]:
            errors.append(f"retired job still active: {command!r} (line {entries[0][0]})")
        elif command not in want:
            errors.append(f"unexpected job: {command!r} (line {entries[0][0]}); commands must be written exactly as given")
    for command, job in want.items():
        if command not in jobs:
            errors.append(f"missing job: {command!r}")
            continue
        got, total = set(), 0
        for no, sched, user in jobs[command]:
            if DATA["system"] and user != job["user"]:
                errors.append(f"line {no}: {command!r} must run as user {job['user']!r}, not {user!r}")
            fires = line_fires(sched)
            total += len(fires)
            got |= fires
        if total != len(got):
            errors.append(f"{command!r}: its lines fire {total - len(got)} time(s) in a minute another of its lines already fires in")
        expect = expected_fires(job["spec"], DATA["offset"])
        if got != expect:
            extra, missing = sorted(got - expect), sorted(expect - got)
            msg = f"{command!r}: wrong schedule"
            if extra:
                msg += f"; fires {len(extra)} extra times, e.g. {[show(t) for t in extra[:3]]}"
            if missing:
                msg += f"; misses {len(missing)} times, e.g. {[show(t) for t in missing[:3]]}"
            errors.append(msg)
    if errors:
        print("FAIL")
        for e in errors:
            print(" -", e)
        return 1
    print(f"PASS: {len(want)} jobs")
    return 0


sys.exit(main())
