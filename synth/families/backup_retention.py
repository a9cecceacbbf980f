"""backup-retention: apply a retention policy to dated backup files (GFS daily/weekly/monthly buckets,
newest N per backup set, age limit, size budget, or time-tiered thinning), by deleting, moving or only
planning; the checker checks exactly which files remain where, and the log or plan.

Dates come from the file names (an exact pattern; decoys that do not match it are never touched); the
file times are random on purpose.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from faker import Faker

from synth.families.base import Draft, Family, render
from synth.families.organize_files import Tree, fill, tree_spec, words
from synth.pools import PoolItem, Pools

T = "backup-retention"


@dataclass(frozen=True)
class Pattern:
    """A backup naming scheme: how to write a timestamp into a name, and the regex that reads it back."""

    key: str
    ext: str
    """The file extension, dot included (`.tar.gz`)."""

    @property
    def timed(self) -> bool:
        return self.key in ("iso-time", "dump")

    @property
    def shown(self) -> str:
        """The pattern as the instruction shows it, `{p}` standing for the prefix."""
        stamp = {
            "dash": "-YYYY-MM-DD",
            "compact": "_YYYYMMDD",
            "iso-time": "-YYYY-MM-DDTHH-MM",
            "dump": ".YYYYMMDD-HHMM",
        }
        return "{p}" + stamp[self.key] + self.ext

    def name(self, prefix: str, when: dt.datetime) -> str:
        stamp = {
            "dash": f"-{when:%Y-%m-%d}",
            "compact": f"_{when:%Y%m%d}",
            "iso-time": f"-{when:%Y-%m-%dT%H-%M}",
            "dump": f".{when:%Y%m%d-%H%M}",
        }[self.key]
        return prefix + stamp + self.ext

    def regex(self, prefix: str) -> str:
        stamp = {
            "dash": r"-(\d{4})-(\d{2})-(\d{2})",
            "compact": r"_(\d{4})(\d{2})(\d{2})",
            "iso-time": r"-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})",
            "dump": r"\.(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})",
        }[self.key]
        return re.escape(prefix) + stamp + re.escape(self.ext)


SHAPES = ["dash", "compact", "iso-time", "dump"]
DOMAINS: list[tuple[str, list[str], list[str], list[str]]] = [
    # what is backed up, prefixes, extensions, folders ({s}: a service name, {u}: a user name)
    (
        "database dumps",
        ["db", "pg", "mysql", "{s}-db"],
        [".sql.gz", ".dump", ".pgdump"],
        ["/app/backups/{s}", "/app/db-dumps", "/app/srv/{s}/backups"],
    ),
    (
        "VM disk snapshots",
        ["vm-web01", "vm-build", "vm-{s}"],
        [".qcow2", ".img"],
        ["/app/vm-snapshots", "/app/var/lib/snapshots"],
    ),
    (
        "photo library archives",
        ["photos", "library", "camera"],
        [".zip", ".tar"],
        ["/app/photo-backups", "/app/home/{u}/backups"],
    ),
    (
        "git repository bundles",
        ["repo", "{s}-repo", "mono"],
        [".bundle"],
        ["/app/git-backups", "/app/srv/git/bundles"],
    ),
    (
        "home directory archives",
        ["home", "home-{u}"],
        [".tar.zst", ".tar.gz"],
        ["/app/backups/home", "/app/nas/home"],
    ),
    (
        "mailbox exports",
        ["mail", "inbox", "{u}-mail"],
        [".mbox.gz"],
        ["/app/mail-archive", "/app/exports/mail"],
    ),
    ("wiki exports", ["wiki", "kb", "{s}-wiki"], [".xml.gz", ".json.gz"], ["/app/wiki-exports"]),
    (
        "configuration snapshots",
        ["etc", "config", "{s}-conf"],
        [".tgz"],
        ["/app/config-snapshots", "/app/backups/etc"],
    ),
    (
        "log archives",
        ["logs", "{s}-logs", "audit"],
        [".log.gz", ".tar.xz"],
        ["/app/log-archive", "/app/srv/logs/old"],
    ),
]
GENERIC_SETS = ["db", "web", "media", "config", "logs", "users", "assets"]


def parse(pattern: Pattern, prefix: str, name: str) -> dt.datetime | None:
    m = re.fullmatch(pattern.regex(prefix), name)
    if not m:
        return None
    g = [int(x) for x in m.groups()] + [0, 0]
    try:
        return dt.datetime(g[0], g[1], g[2], g[3], g[4])
    except ValueError:
        return None


def newest_per(backups: list[tuple[str, dt.datetime]], key: Any, count: int | None) -> set[str]:
    """The newest backup of each of the `count` most recent buckets (all buckets if None)."""
    kept: list[str] = []
    seen: set[Any] = set()
    for name, when in sorted(backups, key=lambda b: b[1], reverse=True):
        bucket = key(when)
        if bucket in seen:
            continue
        if count is not None and len(seen) >= count:
            break
        seen.add(bucket)
        kept.append(name)
    return set(kept)


BUCKET_KEYS = {
    "daily": lambda w: w.date(),
    "weekly": lambda w: tuple(w.isocalendar())[:2],
    "monthly": lambda w: (w.year, w.month),
    "yearly": lambda w: w.year,
}


class BackupRetention(Family):
    name: ClassVar[str] = T
    category: ClassVar[str] = "files"
    pool_kinds: ClassVar[tuple[str, ...]] = ("text",)

    VARIANTS = ("gfs", "per-set", "age", "budget", "tiered")

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        fake = Faker()
        fake.seed_instance(rng.randrange(2**31))
        used: list[PoolItem] = []
        services = words(pools, "services", used) or ["billing", "search", "auth"]
        people = words(pools, "people", used) or [fake.name()]
        variant = rng.choice(self.VARIANTS)
        service = rng.choice(services)
        user = rng.choice(people).split()[0].lower()
        domain, domain_prefixes, exts, folders = rng.choice(DOMAINS)
        pattern = Pattern(rng.choice(SHAPES), rng.choice(exts))
        folder = rng.choice(folders).format(s=service, u=user)
        domain_prefixes = [p.format(s=service, u=user) for p in domain_prefixes]
        today = dt.date(2024, 1, 1) + dt.timedelta(days=rng.randrange(900))
        if variant == "per-set":
            pool_sets = list(dict.fromkeys([*domain_prefixes, *GENERIC_SETS]))
            prefixes = rng.sample(pool_sets[: max(4, len(domain_prefixes))], 2 + (difficulty > 1))
        else:
            prefixes = [rng.choice(domain_prefixes)]
        span = {"gfs": 420, "per-set": 60, "age": 120, "budget": 40, "tiered": 150}[variant]
        per_prefix = {1: 16, 2: 26, 3: 36}[difficulty]
        if variant == "gfs":
            per_prefix += 14
        tree = Tree()
        rel = folder.removeprefix("/app/")
        backups: dict[str, list[tuple[str, dt.datetime]]] = {}
        sizes: dict[str, int] = {}
        for prefix in prefixes:
            stamps: set[dt.datetime] = set()
            # the newest backup is recent (a day or two before today), the others spread over the span
            while len(stamps) < per_prefix:
                age = rng.randint(1, 2) if not stamps else int(rng.triangular(0, span, 0))
                day = today - dt.timedelta(days=age)
                hour, minute = (rng.randrange(24), rng.randrange(0, 60, 5)) if pattern.timed else (0, 0)
                stamps.add(dt.datetime(day.year, day.month, day.day, hour, minute))
                if pattern.timed and rng.random() < 0.25:  # a second backup the same day
                    stamps.add(
                        dt.datetime(day.year, day.month, day.day, rng.randrange(24), rng.randrange(0, 60, 5))
                    )
            backups[prefix] = sorted((pattern.name(prefix, w), w) for w in stamps)
        decoys: list[str] = []
        p0 = prefixes[0]
        w0 = backups[p0][0][1]
        if difficulty >= 2:
            decoys += [
                pattern.name(p0.upper(), w0),
                pattern.name(p0, w0) + rng.choice([".partial", ".tmp", ".md5"]),
                pattern.name(p0, w0).replace(str(w0.year), str(w0.year)[2:], 1),
                "README.txt",
            ]
        if difficulty == 3:
            bad_day = dt.datetime(w0.year, 2, 28, w0.hour, w0.minute)
            decoys += [
                pattern.name(p0, bad_day).replace("-02-28", "-02-30").replace("0228", "0230"),
                pattern.name(p0, w0 + dt.timedelta(days=3)).replace(p0, f"{p0}-old", 1),
                pattern.name(p0, w0).replace(f"{w0:%m}", "13", 1),
            ]
            if pattern.timed:
                decoys.append(pattern.name(p0, w0).replace(f"{w0:%H}", "25", 1))
        decoys = [d for d in dict.fromkeys(decoys) if all(parse(pattern, p, d) is None for p in prefixes)]
        sub = rng.choice(["archive", "manual", "keep-forever"]) if difficulty >= 2 else None
        budget_unit = rng.choice(["bytes", "KiB"])
        all_backups = [b for p in prefixes for b in backups[p]]
        for name, _ in all_backups:
            size = rng.randint(4, 40) * 128 if variant == "budget" else 0
            content = fill(f"backup {name}", size) if size else f"dummy archive {name}\n".encode()
            sizes[name] = len(content)
            tree.add(f"{rel}/{name}", content, 1_600_000_000 + rng.randrange(10**8))
        decoy_data = {}
        for d in decoys:
            decoy_data[d] = tree.add(
                f"{rel}/{d}", f"not a backup: {d}\n", 1_600_000_000 + rng.randrange(10**8)
            )
        if sub:
            old = pattern.name(p0, dt.datetime.combine(today - dt.timedelta(days=span + 30), dt.time()))
            decoy_data[f"{sub}/{old}"] = tree.add(f"{rel}/{sub}/{old}", f"dummy archive {old}\n")
        # ---- the policy ----------------------------------------------------------------------------
        ctx: dict[str, Any] = {
            "variant": variant,
            "folder": folder,
            "domain": domain,
            "pattern": pattern.shown,
            "timed": pattern.timed,
            "prefixes": prefixes,
            "shown": [pattern.shown.replace("{p}", p) for p in prefixes],
            "today": today.isoformat(),
            "phrasing": rng.randrange(3),
            "difficulty": difficulty,
            "person": rng.choice(people).split()[0],
            "service": service,
            "sub": sub,
        }
        keep: set[str] = set()
        reasons: dict[str, list[str]] = {}
        if variant == "gfs":
            rules = {"daily": rng.randint(3, 8), "weekly": rng.randint(2, 5), "monthly": rng.randint(2, 6)}
            if difficulty == 1:
                del rules[rng.choice(["weekly", "monthly"])]
            if difficulty == 3 and rng.random() < 0.5:
                rules["yearly"] = rng.randint(1, 2)
            for rule, count in rules.items():
                chosen = newest_per(all_backups, BUCKET_KEYS[rule], count)
                keep |= chosen
                for n in chosen:
                    reasons.setdefault(n, []).append(rule)
            ctx["rules"] = rules
        elif variant == "per-set":
            counts = {p: rng.randint(2, 8) for p in prefixes}
            for p in prefixes:
                keep |= {n for n, _ in sorted(backups[p], key=lambda b: b[1], reverse=True)[: counts[p]]}
            ctx["counts"] = counts
        elif variant == "age":
            max_age = rng.choice([14, 21, 30, 45, 60])
            min_keep = rng.randint(3, 6)
            firsts = difficulty == 3 or (difficulty == 2 and rng.random() < 0.5)
            newest = sorted(all_backups, key=lambda b: b[1], reverse=True)
            keep |= {n for n, _ in newest[:min_keep]}
            keep |= {n for n, w in all_backups if (today - w.date()).days <= max_age}
            if firsts:
                keep |= {n for n, w in all_backups if w.day == 1}
            ctx.update(
                max_age=max_age,
                min_keep=min_keep,
                firsts=firsts,
                cutoff=(today - dt.timedelta(days=max_age)).isoformat(),
            )
        elif variant == "budget":
            total = sum(sizes[n] for n, _ in all_backups)
            budget = int(total * rng.uniform(0.3, 0.6))
            if budget_unit == "KiB":
                budget = max(1, budget // 1024) * 1024
            running = 0
            for i, (n, _) in enumerate(sorted(all_backups, key=lambda b: b[1], reverse=True)):
                if i and running + sizes[n] > budget:
                    break
                running += sizes[n]
                keep.add(n)
            ctx.update(budget=budget, budget_unit=budget_unit)
        else:
            a = rng.choice([2, 3, 7])
            b = rng.choice([30, 45, 60]) if pattern.timed else rng.choice([21, 28, 42])
            mid, old = ("daily", "weekly") if pattern.timed else ("weekly", "monthly")
            for n, w in all_backups:
                if (today - w.date()).days < a:
                    keep.add(n)
            recent = [(n, w) for n, w in all_backups if a <= (today - w.date()).days < b]
            older = [(n, w) for n, w in all_backups if (today - w.date()).days >= b]
            keep |= newest_per(recent, BUCKET_KEYS[mid], None)
            keep |= newest_per(older, BUCKET_KEYS[old], None)
            ctx.update(tier_a=a, tier_b=b, tier_mid=mid, tier_old=old)
        drop = sorted((n for n, _ in all_backups if n not in keep), key=str.encode)
        kept = sorted(keep, key=str.encode)
        if not drop or not kept:
            raise ValueError(f"{T}: the drawn policy keeps everything or nothing; draw again")
        # ---- the action and its record ---------------------------------------------------------------
        action = rng.choice(["delete", "move", "plan"])
        ctx["action"] = action
        trees: dict[str, Any] = {}
        texts: dict[str, str] = {}
        jsons: dict[str, Any] = {}
        remaining: dict[str, bytes | tuple[str, str]] = dict(decoy_data)
        for n in kept:
            remaining[n] = tree.data[f"{rel}/{n}"]
        if action == "plan":
            for n in drop:
                remaining[n] = tree.data[f"{rel}/{n}"]
            fmt = rng.choice(["lines", "csv", "json"])
            with_reasons = variant == "gfs" and fmt == "lines" and rng.random() < 0.6
            plan = (
                f"/app/{rng.choice(['retention-plan', 'prune-plan', 'cleanup-plan'])}."
                + {"lines": "txt", "csv": "csv", "json": "json"}[fmt]
            )
            names = sorted([*kept, *drop], key=str.encode)
            order = list(BUCKET_KEYS)
            if fmt == "lines":
                texts[plan] = "".join(
                    (
                        f"KEEP {n}"
                        + (" " + ",".join(sorted(reasons[n], key=order.index)) if with_reasons else "")
                        if n in keep
                        else f"DELETE {n}"
                    )
                    + "\n"
                    for n in names
                )
            elif fmt == "csv":
                texts[plan] = "name,action\n" + "".join(
                    f"{n},{'keep' if n in keep else 'delete'}\n" for n in names
                )
            else:
                jsons[plan] = {"keep": kept, "delete": drop}
            ctx.update(fmt=fmt, with_reasons=with_reasons, plan=plan)
        else:
            log = (
                f"/app/{rng.choice(['deleted', 'pruned', 'removed-backups'])}.txt"
                if action == "delete"
                else (f"/app/{rng.choice(['expired', 'moved'])}.txt")
            )
            if action == "move":
                dest = rng.choice([f"{folder}/expired", "/app/expired", f"/app/old-backups/{service}"])
                moved = {n: tree.data[f"{rel}/{n}"] for n in drop}
                if dest.startswith(folder + "/"):
                    for n, data in moved.items():
                        remaining[f"{dest.removeprefix(folder + '/')}/{n}"] = data
                else:
                    trees[dest] = tree_spec(dict(moved), [])
                ctx["dest"] = dest
            texts[log] = "".join(f"{n}\n" for n in drop)
            ctx["log"] = log
        trees[folder] = tree_spec(remaining, None)
        files = {
            "environment/setup.sh": render(f"{T}/setup.sh.j2", entries=tree.entries),
            "tests/check.py": render(f"{T}/check.py.j2", trees=trees, texts=texts, jsons=jsons, absent=[]),
            "solution/solve.sh": render(
                f"{T}/solve.sh.j2", **ctx, regexes={p: pattern.regex(p) for p in prefixes}
            ),
        }
        titles = {
            "gfs": [
                f"Apply a daily/weekly/monthly retention policy to {folder}",
                f"Prune {folder} GFS-style",
            ],
            "per-set": [
                f"Keep only the newest backups of each set in {folder}",
                f"Rotate the backup sets in {folder}",
            ],
            "age": [
                f"Expire old backups in {folder}",
                f"Remove backups past their retention age from {folder}",
            ],
            "budget": [f"Trim {folder} to fit its disk budget", f"Enforce a size budget on {folder}"],
            "tiered": [
                f"Thin out the backups in {folder} by age tier",
                f"Apply tiered retention to {folder}",
            ],
        }
        return Draft(
            title=rng.choice(titles[variant]),
            instruction=render(f"{T}/instruction.md.j2", **ctx).strip() + "\n",
            files=files,
            params={k: v for k, v in ctx.items() if v is not None},
            keywords=["files", "backups", "retention", variant],
            pool_items=used,
        )
