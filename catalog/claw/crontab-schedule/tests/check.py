"""Parse /app/crontab with a small Vixie-cron compatible parser and check every job's schedule
semantically: the set of minutes in which it fires over two whole years must equal the expected set."""
import re
import sys
from datetime import date, timedelta

PATH = "/app/crontab"

MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), 1)}
DAYS = {d: i for i, d in enumerate("sun mon tue wed thu fri sat".split())}
FIELDS = [("minute", 0, 59, {}), ("hour", 0, 23, {}), ("day of month", 1, 31, {}),
          ("month", 1, 12, MONTHS), ("day of week", 0, 7, DAYS)]
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
    """Return (schedule, command) or None for comments/blank/env lines."""
    s = line.strip()
    if not s or s.startswith("#"):
        return None
    if re.match(r"^[A-Za-z_][A-Za-z0-9_]*\s*=", s):
        return None
    if s.startswith("@"):
        macro, _, rest = s.partition(" ")
        if macro.lower() not in MACROS:
            raise CronError(f"unsupported shortcut {macro!r}")
        fields, command = MACROS[macro.lower()].split(), rest.strip()
    else:
        parts = s.split(None, 5)
        if len(parts) < 6:
            raise CronError("expected five time fields and a command")
        fields, command = parts[:5], parts[5].strip()
    sets = [parse_field(f, lo, hi, names) for f, (_, lo, hi, names) in zip(fields, FIELDS)]
    if 7 in sets[4]:
        sets[4] = (sets[4] - {7}) | {0}
    dom_star, dow_star = fields[2].startswith("*"), fields[4].startswith("*")
    return (sets, dom_star, dow_star), command


def fires(sched, day):
    (minutes, hours, doms, months, dows), dom_star, dow_star = sched
    if day.month not in months:
        return set()
    dom_ok, dow_ok = day.day in doms, (day.isoweekday() % 7) in dows
    if dom_star or dow_star:
        ok = dom_ok and dow_ok
    else:
        ok = dom_ok or dow_ok  # cron: both restricted -> either matches
    return {(h, m) for h in hours for m in minutes} if ok else set()


def expand(sched_or_pred):
    out = set()
    d = date(2027, 1, 1)
    while d < date(2029, 1, 1):  # 2028 is a leap year
        for hm in sched_or_pred(d):
            out.add((d, hm))
        d += timedelta(days=1)
    return out


WEEKDAY = range(1, 6)  # isoweekday Mon..Fri
EXPECTED = {
    "/opt/jobs/heartbeat.sh": lambda d: {(h, 0) for h in range(24)},
    "/opt/jobs/backup.sh": lambda d: {(2, 30)} if d.isoweekday() in WEEKDAY else set(),
    "/opt/jobs/poll.sh": lambda d: ({(h, m) for h in range(9, 18) for m in (0, 15, 30, 45)}
                                    if d.isoweekday() in WEEKDAY else set()),
    "/opt/jobs/rotate-logs.sh": lambda d: {(0, 0)} if d.day == 1 else set(),
    "/opt/jobs/report.sh --weekly": lambda d: {(18, 0)} if d.isoweekday() == 7 else set(),
    "/opt/jobs/cleanup.sh": lambda d: {(h, 5) for h in range(0, 24, 2)},
    "/opt/jobs/quarterly.sh": lambda d: {(6, 0)} if d.day == 1 and d.month in (1, 4, 7, 10) else set(),
    "/opt/jobs/payroll.sh": lambda d: {(23, 45)} if d.day in (15, 28) else set(),
}
REQUIRED_LINES = ["SHELL=/bin/bash", "MAILTO=ops@example.com", "0 * * * * /opt/jobs/heartbeat.sh"]


def main():
    try:
        lines = open(PATH).read().splitlines()
    except OSError as exc:
        print(f"FAIL: cannot read {PATH}: {exc}")
        return 1
    errors = []
    stripped = [l.strip() for l in lines]
    for req in REQUIRED_LINES:
        if req not in stripped:
            errors.append(f"existing line {req!r} was changed or removed")

    jobs = {}
    for no, line in enumerate(lines, 1):
        try:
            parsed = parse_line(line)
        except CronError as exc:
            errors.append(f"line {no}: {line!r}: {exc}")
            continue
        if parsed is None:
            continue
        sched, command = parsed
        command = re.sub(r"\s+", " ", command)
        jobs.setdefault(command, []).append(sched)

    for command, scheds in jobs.items():
        if command not in EXPECTED:
            errors.append(f"unexpected job: {command!r}")
        elif len(scheds) != 1:
            errors.append(f"{command!r} appears on {len(scheds)} lines, expected exactly one")
    for command, pred in EXPECTED.items():
        if command not in jobs:
            errors.append(f"missing job: {command!r}")
            continue
        if len(jobs[command]) != 1:
            continue
        got = expand(lambda d, s=jobs[command][0]: fires(s, d))
        want = expand(pred)
        if got != want:
            extra, missing = sorted(got - want), sorted(want - got)
            msg = f"{command!r}: wrong schedule"
            if extra:
                msg += f"; fires {len(extra)} extra times, e.g. {[(str(d), f'{h:02d}:{m:02d}') for d, (h, m) in extra[:3]]}"
            if missing:
                msg += f"; misses {len(missing)} times, e.g. {[(str(d), f'{h:02d}:{m:02d}') for d, (h, m) in missing[:3]]}"
            errors.append(msg)

    if errors:
        print("FAIL")
        for e in errors:
            print(" -", e)
        return 1
    print(f"PASS: {len(EXPECTED)} jobs")
    return 0


sys.exit(main())
