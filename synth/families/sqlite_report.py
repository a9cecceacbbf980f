"""sqlite-report: an SQLite database built at image build time from a pool CSV; query it or change it.

The chosen CSV becomes a fact table (its key column the primary key, invalid numbers NULL, one
categorical column replaced by a foreign key) and a dimension table made from that categorical column
(with a manager and a tier per member, a few members without facts, a few facts pointing nowhere).
`environment/setup.sh` (python3's sqlite3) builds the database from a JSON seed and deletes the seed.
The agent either answers a query (joins, GROUP BY, date filters, LEFT JOIN coverage) into an exact
CSV, or applies a list of changes to the database (normalise, delete, merge, summary table, index, flag
column). The family computes the expected result in Python (not SQL); the checker reads the CSV or the
database itself.
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from dataclasses import dataclass
from decimal import Decimal
from pathlib import PurePosixPath
from typing import Any

from faker import Faker

from synth.families.base import Draft, Family, render
from synth.families.csv_aggregate import DATE, NUMBER, CsvProfile, slug, toml_safe, usable_tables
from synth.pools import PoolItem, Pools

Row = list[Any]


def plural(word: str) -> str:
    if word.endswith("y") and not word.endswith(("ay", "ey", "oy")):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def table_digest(db: sqlite3.Connection, table: str) -> str:
    """The same digest as the checker's: every row in rowid order, as JSON."""
    rows = db.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall()
    return hashlib.sha256(json.dumps([list(r) for r in rows]).encode()).hexdigest()


@dataclass
class Db:
    fact: str
    dim: str
    key: str
    fk: str
    member: str
    """The dimension's singular: `region` for the table `regions`."""
    date: str | None
    number: str
    integer: bool
    decimals: int
    text_col: str | None
    """A categorical text column kept with its stray spaces and case (filters use it)."""
    fact_columns: list[tuple[str, str]]
    fact_rows: list[Row]
    dim_columns: list[tuple[str, str]]
    dim_rows: list[Row]

    def ddl(self) -> list[str]:
        dim_cols = ", ".join(
            f'"{n}" {t}{" PRIMARY KEY" if i == 0 else " NOT NULL" if n == "name" else ""}'
            for i, (n, t) in enumerate(self.dim_columns)
        )
        fact_cols = ", ".join(
            f'"{n}" {t}{" PRIMARY KEY" if n == self.key else ""}' for n, t in self.fact_columns
        )
        return [f'CREATE TABLE "{self.dim}" ({dim_cols})', f'CREATE TABLE "{self.fact}" ({fact_cols})']

    def connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:")
        for stmt in self.ddl():
            db.execute(stmt)
        for table, cols, rows in (
            (self.dim, self.dim_columns, self.dim_rows),
            (self.fact, self.fact_columns, self.fact_rows),
        ):
            db.executemany(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(cols))})', rows)
        db.commit()
        return db

    def col(self, name: str) -> int:
        return [n for n, _ in self.fact_columns].index(name)

    def dims(self) -> dict[int, Row]:
        return {r[0]: r for r in self.dim_rows}


def build_db(rng: random.Random, item: PoolItem, prof: CsvProfile, difficulty: int) -> Db:
    fake = Faker()
    fake.seed_instance(rng.randrange(2**31))
    key = prof.key
    if key is None:
        raise ValueError("sqlite-report: the CSV has no key column")
    cats = prof.of("cat")
    group = rng.choice(cats)
    number = rng.choice(prof.of("num"))
    dates = prof.of("date")
    date = dates[0].name if dates else None
    others = [c for c in cats if c.name != group.name]
    text_col = rng.choice(others).name if others else None
    fact = slug(PurePosixPath(item.name).stem)
    dim = plural(slug(group.name))
    fk = f"{slug(group.name)}_id"

    # the dimension: one member per case-folded value, named by its most common spelling
    width = len(prof.header)
    records = [[f.strip() for f in r] for r in prof.records if len(r) == width]
    spellings: dict[str, dict[str, int]] = {}
    for r in records:
        v = r[group.index]
        if v:
            spellings.setdefault(v.lower(), {}).setdefault(v, 0)
            spellings[v.lower()][v] += 1
    names = {fold: sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for fold, c in spellings.items()}
    extra: list[str] = []
    while len(extra) < 2:
        candidate = fake.city()
        if candidate.lower() not in names and candidate not in extra:
            extra.append(candidate)
    members = sorted(names.values()) + extra
    ids = rng.sample(range(1, 90), len(members))
    tiers = ["gold", "silver", "bronze"]
    dim_rows: list[Row] = [
        [i, name, fake.name(), rng.choice(tiers)] for i, name in zip(ids, members, strict=True)
    ]
    dim_rows.sort(key=lambda r: r[0])
    id_of = {r[1].lower(): r[0] for r in dim_rows}

    fact_columns: list[tuple[str, str]] = []
    for c in prof.columns:
        if c.name == group.name:
            fact_columns.append((fk, "INTEGER"))
        elif c.kind == "num":
            fact_columns.append((c.name, "INTEGER" if c.integer else "REAL"))
        else:
            fact_columns.append((c.name, "TEXT"))
    size = {1: 80, 2: 150, 3: 260}[difficulty]
    raw = prof.records
    if len(raw) > size:
        start = rng.randrange(len(raw) - size)
        raw = raw[start : start + size]
    seen: set[str] = set()
    fact_rows: list[Row] = []
    for record in raw:
        if len(record) != width:
            continue
        fields = [f.strip() for f in record]
        if fields[key.index] == "" or fields[key.index] in seen:
            continue
        seen.add(fields[key.index])
        row: Row = []
        for c in prof.columns:
            v = fields[c.index]
            if c.name == group.name:
                row.append(id_of.get(v.lower()) if v else None)
            elif c.kind == "num":
                row.append((int(v) if c.integer else float(v)) if NUMBER.fullmatch(v) else None)
            elif c.kind == "date":
                row.append(v if DATE.fullmatch(v) else None)
            elif c.name == text_col:
                row.append(record[c.index] if v else None)  # stray spaces and case kept
            else:
                row.append(v if v else None)
        fact_rows.append(row)
    fki = [n for n, _ in fact_columns].index(fk)
    for _ in range({1: 1, 2: 2, 3: 4}[difficulty]):
        victim = rng.choice(fact_rows)
        victim[fki] = rng.choice([None, rng.randrange(90, 100)])  # a missing or dangling reference
    return Db(
        fact=fact,
        dim=dim,
        key=key.name,
        fk=fk,
        member=slug(group.name),
        date=date,
        number=number.name,
        integer=number.integer,
        decimals=max(number.decimals, 2) if not number.integer else 2,
        text_col=text_col,
        fact_columns=fact_columns,
        fact_rows=fact_rows,
        dim_columns=[("id", "INTEGER"), ("name", "TEXT"), ("manager", "TEXT"), ("tier", "TEXT")],
        dim_rows=dim_rows,
    )


def num(v: float | int) -> Decimal:
    return Decimal(repr(v)) if isinstance(v, float) else Decimal(v)


def approx(value: Decimal, dp: int = 2) -> dict[str, Any]:
    """A CSV cell the checker accepts within half a unit of the dp-th decimal of the exact value."""
    return {"$num": float(value), "dp": dp}


class SqliteReport(Family):
    name = "sqlite-report"
    category = "sqlite"
    pool_kinds = ("csv",)

    VARIANTS = ("join_group", "top_rows", "monthly", "coverage", "update")

    def usable(self, pools: Pools) -> bool:
        return any(p.key is not None for _, p in usable_tables(pools))

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        tables = [(i, p) for i, p in usable_tables(pools) if p.key is not None]
        if not tables:
            raise ValueError("sqlite-report: no pool CSV with a key, a categorical and a numeric column")
        item, prof = tables[rng.randrange(len(tables))]
        db = build_db(rng, item, prof, difficulty)
        variants = [v for v in self.VARIANTS if not (v == "monthly" and db.date is None)]
        variant = rng.choice(variants)
        return _Task(rng, item, db, difficulty, variant).build()


class _Task:
    def __init__(self, rng: random.Random, item: PoolItem, db: Db, difficulty: int, variant: str):
        self.rng, self.item, self.db, self.difficulty, self.variant = rng, item, db, difficulty, variant

    def joined(self) -> list[tuple[Row, Row]]:
        """(fact row, dim row) for facts whose foreign key matches a member (an inner join)."""
        dims = self.db.dims()
        fki = self.db.col(self.db.fk)
        return [(r, dims[r[fki]]) for r in self.db.fact_rows if r[fki] in dims]

    def text_filter(self) -> dict[str, Any] | None:
        db = self.db
        if db.text_col is None:
            return None
        i = db.col(db.text_col)
        values = sorted({r[i].strip().lower() for r in db.fact_rows if r[i] is not None})
        return {"column": db.text_col, "value": self.rng.choice(values)}

    def date_range(self, rows: list[Row]) -> tuple[str, str] | None:
        db = self.db
        if db.date is None:
            return None
        i = db.col(db.date)
        days = sorted({r[i] for r in rows if r[i] is not None})
        if len(days) < 6:
            return None
        a = self.rng.randrange(len(days) // 3)
        b = self.rng.randrange(len(days) // 2, len(days))
        return days[a], days[b]

    def keep(self, row: Row, tf: dict[str, Any] | None, dr: tuple[str, str] | None) -> bool:
        db = self.db
        if tf is not None:
            v = row[db.col(tf["column"])]
            if v is None or v.strip().lower() != tf["value"]:
                return False
        if dr is not None:
            d = row[db.col(db.date)] if db.date else None
            if d is None or not dr[0] <= d <= dr[1]:
                return False
        return True

    def build(self) -> Draft:
        rng, db = self.rng, self.db
        folder = rng.choice(["", "data/", "db/", "var/"])
        db_name = rng.choice([db.fact, "warehouse", "store", "app", "reporting"])
        db_path = f"/app/{folder}{db_name}{rng.choice(['.db', '.sqlite', '.sqlite3'])}"
        out_dir = rng.choice(["/app/out", "/app/reports", "/app", "/app/exports"])
        ctx: dict[str, Any] = {
            "variant": self.variant,
            "db_path": db_path,
            "fact": db.fact,
            "dim": db.dim,
            "fk": db.fk,
            "key": db.key,
            "number": db.number,
            "date": db.date,
            "text_col": db.text_col,
            "fact_columns": db.fact_columns,
            "phr": [rng.randrange(4) for _ in range(4)],
            "topic": db.fact.replace("_", " "),
            "member": db.member,
            "integer": db.integer,
            "decimals": db.decimals,
            "tf": None,
            "dr": None,
            "since": None,
        }
        expected, out, extra, params = getattr(self, f"_{self.variant}")(out_dir)
        ctx.update(extra)
        ctx["out"] = out
        mem = db.connect()
        digests = {t: table_digest(mem, t) for t in (db.dim, db.fact)}
        spec: dict[str, Any] = {"db": db_path, "variant": self.variant, "out": out, "expected": expected}
        if self.variant != "update":
            spec["digests"] = digests
        seed = {"ddl": db.ddl(), "tables": [[db.dim, db.dim_rows], [db.fact, db.fact_rows]]}
        files = {
            "environment/_seed/seed.json": json.dumps(seed) + "\n",
            "environment/setup.sh": render("sqlite-report/setup.sh.j2", db_path=db_path),
            "tests/check.py": render("sqlite-report/check.py.j2", spec=json.dumps(spec, sort_keys=True)),
            "solution/solve.sh": render("sqlite-report/solve.sh.j2", **ctx),
        }
        title = {
            "join_group": f"Per-{ctx['member']} totals from the {db.fact} SQLite database into a CSV",
            "top_rows": f"Export the top {db.fact} rows by {db.number} from SQLite to CSV",
            "monthly": f"Monthly {db.number} report from an SQLite database",
            "coverage": f"Report every {ctx['member']} (even unused ones) from an SQLite database",
            "update": f"Apply a list of data fixes to the {db.fact} SQLite database",
        }[self.variant]
        return Draft(
            title=title,
            instruction=render("sqlite-report/instruction.md.j2", **ctx),
            files=files,
            params=toml_safe(
                {
                    "variant": self.variant,
                    "table": self.item.path,
                    "db": db_path,
                    "fact": db.fact,
                    "dim": db.dim,
                    "number": db.number,
                    "rows": len(db.fact_rows),
                    **params,
                }
            ),
            keywords=["sqlite", "sql", "csv" if self.variant != "update" else "update", "join"],
            pool_items=[self.item],
        )

    # -- variants: (expected, out path, template context, params) -----------------------------------

    def _join_group(self, out_dir: str) -> tuple[Any, str, dict[str, Any], dict[str, Any]]:
        rng, db = self.rng, self.db
        by = rng.choice(["name", "name", "tier"])
        tf = self.text_filter() if rng.random() < 0.6 or self.difficulty == 3 else None
        dr = self.date_range(db.fact_rows) if self.difficulty >= 2 or rng.random() < 0.5 else None
        ni = db.col(db.number)
        groups: dict[str, list[Decimal]] = {}
        managers: dict[str, str] = {}
        for r, d in self.joined():
            if r[ni] is None or not self.keep(r, tf, dr):
                continue
            g = d[1] if by == "name" else d[3]
            groups.setdefault(g, []).append(num(r[ni]))
            managers[g] = d[2]
        with_avg = self.difficulty >= 2 or rng.random() < 0.5
        order = sorted(groups, key=lambda g: (-sum(groups[g]), g))
        label = self.member() if by == "name" else "tier"
        header = (
            [label]
            + (["manager"] if by == "name" else [])
            + ["rows", f"total_{slug(db.number)}"]
            + ([f"avg_{slug(db.number)}"] if with_avg else [])
        )
        rows: list[list[Any]] = [header]
        for g in order:
            v = groups[g]
            total = sum(v, Decimal(0))
            line: list[Any] = [g, *([managers[g]] if by == "name" else []), str(len(v)), approx(total)]
            if with_avg:
                line.append(approx(total / len(v)))
            rows.append(line)
        names = [f"{slug(label)}_totals.csv", "totals.csv", f"{db.fact}_by_{slug(label)}.csv"]
        out = f"{out_dir}/{rng.choice(names)}"
        ctx = {"by": by, "tf": tf, "dr": dr, "with_avg": with_avg, "header": header}
        return rows, out, ctx, {"by": by, "text_filter": tf, "dates": list(dr) if dr else None}

    def member(self) -> str:
        return self.db.member

    def _top_rows(self, out_dir: str) -> tuple[Any, str, dict[str, Any], dict[str, Any]]:
        rng, db = self.rng, self.db
        n = rng.randint(5, 12)
        ni, ki = db.col(db.number), db.col(db.key)
        tf = self.text_filter() if rng.random() < 0.5 else None
        since = None
        if db.date and (self.difficulty >= 2 or tf is None):
            di = db.col(db.date)
            days = sorted({r[di] for r in db.fact_rows if r[di] is not None})
            since = days[rng.randrange(len(days) // 2)] if len(days) >= 4 else None
        cand = []
        for r, d in self.joined():
            if r[ni] is None or not self.keep(r, tf, None):
                continue
            if since is not None and (r[db.col(db.date)] is None or r[db.col(db.date)] < since):  # type: ignore[arg-type]
                continue
            cand.append((r, d))
        cand.sort(key=lambda rd: (-num(rd[0][ni]), rd[0][ki]))
        member = self.member()
        header = [db.key] + ([db.date] if db.date else []) + [member, db.number]
        rows: list[list[Any]] = [header]
        for r, d in cand[:n]:
            value = str(r[ni]) if db.integer else approx(num(r[ni]), db.decimals)
            rows.append([r[ki]] + ([r[db.col(db.date)]] if db.date else []) + [d[1], value])
        out = f"{out_dir}/{rng.choice([f'top_{db.fact}.csv', 'top.csv', f'largest_{slug(db.number)}.csv'])}"
        ctx = {"n": n, "tf": tf, "since": since, "header": header}
        return rows, out, ctx, {"n": n, "text_filter": tf, "since": since}

    def _monthly(self, out_dir: str) -> tuple[Any, str, dict[str, Any], dict[str, Any]]:
        rng, db = self.rng, self.db
        assert db.date is not None
        ni, di = db.col(db.number), db.col(db.date)
        joined = self.joined()
        if rng.random() < 0.5:
            field, value = "name", rng.choice(sorted({d[1] for _, d in joined}))
        else:
            field, value = "tier", rng.choice(sorted({d[3] for _, d in joined}))
        months: dict[str, list[Decimal]] = {}
        for r, d in joined:
            if (d[1] if field == "name" else d[3]) != value or r[di] is None or r[ni] is None:
                continue
            months.setdefault(r[di][:7], []).append(num(r[ni]))
        header = ["month", "rows", f"total_{slug(db.number)}"]
        rows: list[list[Any]] = [header] + [
            [m, str(len(v)), approx(sum(v, Decimal(0)))] for m, v in sorted(months.items())
        ]
        names = ["monthly.csv", f"{slug(value)}_monthly.csv", f"{db.fact}_per_month.csv"]
        out = f"{out_dir}/{rng.choice(names)}"
        ctx = {"field": field, "value": value, "header": header}
        return rows, out, ctx, {"field": field, "value": value}

    def _coverage(self, out_dir: str) -> tuple[Any, str, dict[str, Any], dict[str, Any]]:
        rng, db = self.rng, self.db
        tf = self.text_filter()
        dr = self.date_range(db.fact_rows) if self.difficulty >= 2 else None
        ni, fki = db.col(db.number), db.col(db.fk)
        header = [self.member(), "tier", "rows", f"total_{slug(db.number)}"]
        rows: list[list[Any]] = [header]
        for d in sorted(db.dim_rows, key=lambda d: d[1]):
            match = [r for r in db.fact_rows if r[fki] == d[0] and self.keep(r, tf, dr)]
            total = sum((num(r[ni]) for r in match if r[ni] is not None), Decimal(0))
            rows.append([d[1], d[3], str(len(match)), approx(total)])
        out = f"{out_dir}/{rng.choice(['coverage.csv', f'{db.dim}_activity.csv', f'all_{db.dim}.csv'])}"
        ctx = {"tf": tf, "dr": dr, "header": header}
        return rows, out, ctx, {"text_filter": tf, "dates": list(dr) if dr else None}

    def _update(self, out_dir: str) -> tuple[Any, str, dict[str, Any], dict[str, Any]]:
        rng, db = self.rng, self.db
        fact_cols = [n for n, _ in db.fact_columns]
        rows = [list(r) for r in db.fact_rows]
        dims = [list(d) for d in db.dim_rows]
        ni, fki, ki = db.col(db.number), db.col(db.fk), db.col(db.key)
        kinds = ["normalize", "delete", "merge", "summary", "index", "flag"]
        if db.text_col is None:
            kinds.remove("normalize")
        count = {1: 2, 2: 3, 3: 4}[self.difficulty]
        chosen = rng.sample(kinds, min(count, len(kinds)))
        if "summary" in chosen:  # the summary reflects the other changes
            chosen.remove("summary")
            chosen.append("summary")
        ops: list[dict[str, Any]] = []
        extra_tables: dict[str, Any] = {}
        index = None
        for kind in chosen:
            if kind == "normalize":
                ti = db.col(db.text_col)  # type: ignore[arg-type]
                for r in rows:
                    if r[ti] is not None:
                        r[ti] = r[ti].strip().lower()
                ops.append({"kind": kind, "column": db.text_col})
            elif kind == "delete":
                di = db.col(db.date) if db.date else -1
                days = sorted({r[di] for r in rows if r[di] is not None}) if db.date else []
                if len(days) >= 6 and rng.random() < 0.5:
                    cut = days[rng.randrange(len(days) // 5, len(days) // 3)]
                    rows = [r for r in rows if r[di] is not None and r[di] >= cut]
                    ops.append({"kind": "delete_before", "column": db.date, "value": cut})
                else:
                    rows = [r for r in rows if r[ni] is not None]
                    ops.append({"kind": "delete_null", "column": db.number})
            elif kind == "merge":
                used = sorted({r[fki] for r in rows if r[fki] is not None} & {d[0] for d in dims})
                src_id, dst_id = rng.sample(used, 2)
                src = next(d for d in dims if d[0] == src_id)
                dst = next(d for d in dims if d[0] == dst_id)
                for r in rows:
                    if r[fki] == src_id:
                        r[fki] = dst_id
                dims = [d for d in dims if d[0] != src_id]
                ops.append({"kind": "merge", "from": src[1], "to": dst[1]})
            elif kind == "index":
                column = rng.choice([c for c in fact_cols if c not in (db.key,)])
                index = {"name": f"idx_{db.fact}_{column}", "table": db.fact, "columns": [column]}
                ops.append({"kind": "index", "name": index["name"], "column": column})
            elif kind == "flag":
                values = sorted(num(r[ni]) for r in rows if r[ni] is not None)
                threshold = values[rng.randrange(len(values) // 4, 3 * len(values) // 4)]
                flag = rng.choice(["is_large", "flagged", f"high_{slug(db.number)}"])
                fact_cols.append(flag)
                for r in rows:
                    r.append(1 if r[ni] is not None and num(r[ni]) >= threshold else 0)
                ops.append({"kind": "flag", "name": flag, "threshold": str(threshold)})
            else:
                summary = f"{self.member()}_summary"
                srows = []
                for d in sorted(dims, key=lambda d: d[0]):
                    match = [r for r in rows if r[fki] == d[0]]
                    total = sum((num(r[ni]) for r in match if r[ni] is not None), Decimal(0))
                    srows.append([d[0], d[1], len(match), float(total)])
                extra_tables[summary] = {
                    "columns": [db.fk, "name", "rows", f"total_{slug(db.number)}"],
                    "rows": srows,
                }
                ops.append({"kind": "summary", "name": summary, "columns": extra_tables[summary]["columns"]})
        rows.sort(key=lambda r: r[ki])
        expected = {
            "tables": {
                db.fact: {"columns": fact_cols, "rows": rows, "order": db.key},
                db.dim: {"columns": [n for n, _ in db.dim_columns], "rows": sorted(dims), "order": "id"},
                **{name: dict(t, order=db.fk) for name, t in extra_tables.items()},
            },
            "index": index,
        }
        ctx = {"ops": ops}
        return expected, "", ctx, {"ops": [o["kind"] for o in ops]}
