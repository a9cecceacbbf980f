"""csv-aggregate: group-by / filter / aggregate a messy CSV from the pool into an exact JSON or CSV.

The task is derived from the chosen CSV's own columns: a key column (duplicates), categorical columns
(groups, pivots, filters), numeric columns (sums, means, extremes), a date column (months, date
ranges) and free-text columns (distinct counts, top-N). Every task states the same kind of validity
rules (field count, required fields, the number grammar, duplicate keys), drawn variants of them (case
folding, first or last duplicate wins, negatives allowed or not) and an exact rounding rule; the family
computes the expected output with exact decimal arithmetic and the checker embeds it.

The CSV helpers here (`parse_csv`, `profile`, `CsvProfile`) are shared with sqlite-report.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import random
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from pathlib import PurePosixPath
from typing import Any

from synth.families.base import Draft, Family, render
from synth.pools import PoolItem, Pools

NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass
class Column:
    name: str
    index: int
    kind: str
    """key, num, date, cat or text."""
    values: list[str] = field(default_factory=list)
    """Distinct stripped non-empty values (sorted), for cat and text columns."""
    integer: bool = False
    negative: bool = False
    decimals: int = 0


@dataclass
class CsvProfile:
    header: list[str]
    records: list[list[str]]
    """Every record after the header, as csv.reader gives it ([] for a blank line)."""
    columns: list[Column]

    def of(self, kind: str) -> list[Column]:
        return [c for c in self.columns if c.kind == kind]

    @property
    def key(self) -> Column | None:
        keys = self.of("key")
        return keys[0] if keys else None


def parse_csv(text: str) -> tuple[list[str], list[list[str]]]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        return [], []
    return [h.strip() for h in rows[0]], rows[1:]


def profile(text: str) -> CsvProfile | None:
    """The CSV's columns by kind, or None when it has no usable categorical + numeric pair."""
    header, records = parse_csv(text)
    width = len(header)
    if (
        width < 3
        or len(set(header)) != width
        or not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", h) for h in header)
    ):
        return None
    good = [[f.strip() for f in r] for r in records if len(r) == width]
    if len(good) < 30:
        return None
    columns: list[Column] = []
    for j, name in enumerate(header):
        values = [r[j] for r in good if r[j] != ""]
        if not values:
            columns.append(Column(name, j, "text"))
            continue
        numeric = [v for v in values if NUMBER.fullmatch(v)]
        distinct_fold = {v.lower() for v in values}
        if j == 0 and len(set(values)) >= 0.9 * len(values):
            columns.append(Column(name, j, "key"))
        elif len(numeric) >= 0.85 * len(values) and len(set(numeric)) > 3:
            decimals = max((len(v.split(".")[1]) if "." in v else 0) for v in numeric)
            columns.append(
                Column(
                    name,
                    j,
                    "num",
                    integer=decimals == 0,
                    negative=any(v.startswith("-") for v in numeric),
                    decimals=decimals,
                )
            )
        elif sum(1 for v in values if DATE.fullmatch(v)) >= 0.85 * len(values):
            columns.append(Column(name, j, "date"))
        elif 2 <= len(distinct_fold) <= 12 and len(numeric) < 0.5 * len(values):
            columns.append(Column(name, j, "cat", values=sorted(set(values))))
        elif len(numeric) < 0.5 * len(values):
            columns.append(Column(name, j, "text", values=sorted(set(values))))
        else:
            columns.append(Column(name, j, "other"))
    prof = CsvProfile(header, records, columns)
    if not prof.of("cat") or not prof.of("num"):
        return None
    return prof


def usable_tables(pools: Pools) -> list[tuple[PoolItem, CsvProfile]]:
    found = []
    for item in pools.items("csv"):
        if item.location.suffix.lower() != ".csv":
            continue
        prof = profile(item.read_text())
        if prof is not None:
            found.append((item, prof))
    return found


def csv_text(header: list[str], records: list[list[str]]) -> str:
    """Records as CSV text ([] is a blank line)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for record in records:
        if record:
            writer.writerow(record)
        else:
            out.write("\n")
    return out.getvalue()


def quantize(value: Decimal, decimals: int, mode: str) -> Decimal:
    return value.quantize(
        Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP if mode == "half_up" else ROUND_HALF_EVEN
    )


def fmt(value: Decimal, decimals: int, mode: str) -> str:
    return f"{quantize(value, decimals, mode):.{decimals}f}"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def toml_safe(value: Any) -> Any:
    """`value` without None anywhere (task.toml, where params end up, has no null)."""
    if isinstance(value, dict):
        return {k: toml_safe(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [toml_safe(v) for v in value if v is not None]
    return value


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "x"


# --------------------------------------------------------------------------------------------------


@dataclass
class Rules:
    """What makes a record valid, and how groups and duplicates are treated."""

    width: int
    required: list[str]
    number: str
    key: str | None
    dup: str
    """first or last (the valid occurrence that wins)."""
    case: str
    """lower or exact (group values)."""
    negative: str
    """allow or reject (for the number column)."""
    dates: list[str]


def select(
    header: list[str], records: list[list[str]], rules: Rules
) -> tuple[list[dict[str, str]], int, int]:
    """Valid, de-duplicated rows (stripped), the count of invalid records and of dropped duplicates."""
    valid: list[dict[str, str]] = []
    invalid = 0
    for record in records:
        if not record:
            continue
        fields = [f.strip() for f in record]
        ok = len(fields) == rules.width
        if ok:
            row = dict(zip(header, fields, strict=True))
            ok = all(row[c] != "" for c in rules.required)
            ok = ok and NUMBER.fullmatch(row[rules.number]) is not None
            ok = ok and not (rules.negative == "reject" and row[rules.number].startswith("-"))
            ok = ok and all(DATE.fullmatch(row[c]) is not None for c in rules.dates)
        if not ok:
            invalid += 1
            continue
        valid.append(row)
    if rules.key is None:
        return valid, invalid, 0
    kept: dict[str, dict[str, str]] = {}
    for row in valid:
        k = row[rules.key]
        if rules.dup == "first":
            kept.setdefault(k, row)
        else:
            kept.pop(k, None)
            kept[k] = row
    return list(kept.values()), invalid, len(valid) - len(kept)


def group_value(row: dict[str, str], column: str, rules: Rules) -> str:
    value = row[column]
    return value.lower() if rules.case == "lower" else value


METRIC_WORDS = {
    "count": "the number of rows",
    "sum": "the sum of `{num}`",
    "mean": "the arithmetic mean of `{num}`",
    "min": "the smallest `{num}`",
    "max": "the largest `{num}`",
}


def metric(values: list[Decimal], name: str) -> Decimal:
    if name == "count":
        return Decimal(len(values))
    if name == "sum":
        return sum(values, Decimal(0))
    if name == "mean":
        return sum(values, Decimal(0)) / len(values)
    if name == "min":
        return min(values)
    return max(values)


Variant = tuple[Any, str, str, dict[str, Any], dict[str, Any]]
"""expected output, output path, output kind (json or csv), template context, params."""


class CsvAggregate(Family):
    name = "csv-aggregate"
    category = "data"
    pool_kinds = ("csv",)

    VARIANTS = ("group_json", "group_csv", "filter_totals", "pivot_csv", "top_n", "monthly", "clean_csv")

    def usable(self, pools: Pools) -> bool:
        return bool(usable_tables(pools))

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        tables = usable_tables(pools)
        if not tables:
            raise ValueError("csv-aggregate: no pool CSV with a categorical and a numeric column")
        item, prof = tables[rng.randrange(len(tables))]
        variants = [
            v
            for v in self.VARIANTS
            if not (v == "pivot_csv" and len(prof.of("cat")) < 2)
            and not (v == "monthly" and not prof.of("date"))
        ]
        variant = variants[rng.randrange(len(variants))]
        return _Builder(rng, item, prof, difficulty, variant).build()


class _Builder:
    def __init__(self, rng: random.Random, item: PoolItem, prof: CsvProfile, difficulty: int, variant: str):
        self.rng, self.item, self.prof, self.difficulty, self.variant = rng, item, prof, difficulty, variant

    rules: Rules
    group: Column
    number: Column
    records: list[list[str]]
    decimals: int
    mode: str
    out_dir: str

    def _records(self, number: Column, group: Column) -> list[list[str]]:
        """A window of the pool CSV's records, plus drawn edge cases (more with difficulty)."""
        rng, prof = self.rng, self.prof
        records = prof.records
        size = {1: 60, 2: 120, 3: 240}[self.difficulty] + rng.randint(-10, 10)
        if len(records) > size:
            start = rng.randrange(len(records) - size)
            records = records[start : start + size]
        records = [list(r) for r in records]
        width = len(prof.header)
        full = [r for r in records if len(r) == width and NUMBER.fullmatch(r[number.index].strip())]
        key = prof.key
        extras: list[list[str]] = []
        for _ in range({1: 2, 2: 4, 3: 7}[self.difficulty]):
            base = list(rng.choice(full))
            kind = rng.choice(["dup", "pad", "badnum", "blank", "short", "dup", "negative", "pad"])
            if kind == "dup" and key is not None:
                base[number.index] = str(rng.randint(1, 99))
            elif kind == "pad":
                base[group.index] = rng.choice(["  ", " "]) + base[group.index].strip().upper() + " "
                if key is not None:
                    base[key.index] = base[key.index].strip() + "-X" + str(rng.randint(10, 99))
            elif kind == "badnum":
                base[number.index] = rng.choice(["N/A", "", "12..5", "1e3", "+4", ".5", "7 "])
                if base[number.index] == "7 ":
                    base[number.index] = " 7"  # still valid: surrounding whitespace is stripped
            elif kind == "blank":
                base = []
            elif kind == "short":
                base = base[: rng.randint(2, width - 1)]
            elif kind == "negative":
                base[number.index] = "-" + str(rng.randint(1, 40))
                if key is not None:
                    base[key.index] = base[key.index].strip() + "-N" + str(rng.randint(10, 99))
            extras.append(base)
        for extra in extras:
            records.insert(rng.randrange(len(records) + 1), extra)
        return records

    def build(self) -> Draft:
        rng, prof, variant = self.rng, self.prof, self.variant
        cats = prof.of("cat")
        nums = prof.of("num")
        texts = [c for c in prof.of("text") if 3 <= len(c.values) <= 80]
        dates = prof.of("date")
        number = rng.choice(nums)
        group = rng.choice(texts) if variant == "top_n" and texts and rng.random() < 0.5 else rng.choice(cats)
        key = prof.key
        records = self._records(number, group)
        text = csv_text(prof.header, records)

        stem = PurePosixPath(self.item.name).stem
        folder = rng.choice(["data", "input", "exports", "raw", "incoming", "datasets", "share/csv"])
        src = f"/app/{folder}/{stem}{rng.choice(['', '_export', '_raw', '_2024', '_latest'])}.csv"
        out_dir = rng.choice(["/app/out", "/app/reports", "/app/results", "/app/output", "/app"])

        rules = Rules(
            width=len(prof.header),
            required=[c for c in ([key.name] if key else []) + [group.name]],
            number=number.name,
            key=key.name if key else None,
            dup=rng.choice(["first", "last"]) if variant != "clean_csv" else "first",
            case=rng.choice(["lower", "exact", "lower"]),
            negative="allow" if number.negative else rng.choice(["allow", "reject"]),
            dates=[],
        )
        decimals = rng.choice([1, 2, 2, 3]) if number.decimals else rng.choice([1, 2])
        mode = rng.choice(["half_up", "half_even"]) if self.difficulty > 1 else "half_up"
        ctx: dict[str, Any] = {
            "variant": variant,
            "src": src,
            "header": prof.header,
            "number": number.name,
            "group": group.name,
            "key": rules.key,
            "rules": rules.__dict__,
            "decimals": decimals,
            "mode": mode,
            "phr": [rng.randrange(4) for _ in range(6)],
            "topic": stem.replace("_", " "),
            "width": len(prof.header),
            "slug": slug,
        }
        self.rules, self.group, self.number, self.records = rules, group, number, records
        self.decimals, self.mode, self.out_dir = decimals, mode, out_dir
        self.cats, self.texts, self.dates = cats, texts, dates
        expected, out, kind, extra_ctx, params = getattr(self, f"_{variant}")()
        ctx.update(extra_ctx)
        ctx["out"] = out
        ctx["kind"] = kind
        ctx["required"] = rules.required + [c for c in rules.dates if c not in rules.required]
        rows, invalid, dups = select(prof.header, records, rules)
        if len(rows) < 3:
            raise ValueError("csv-aggregate: too few valid rows")
        spec = {"src": src, "src_sha256": sha256(text), "out": out, "kind": kind, "expected": expected}
        files = {
            f"environment/{src.removeprefix('/app/')}": text,
            "tests/check.py": render("csv-aggregate/check.py.j2", spec=json.dumps(spec, sort_keys=True)),
            "solution/solve.sh": render("csv-aggregate/solve.sh.j2", **ctx),
        }
        instruction = render("csv-aggregate/instruction.md.j2", **ctx)
        title = {
            "group_json": f"Summarise {src.rsplit('/', 1)[1]} per {group.name} into JSON",
            "group_csv": f"Write a per-{group.name} CSV report of {number.name} from {src.rsplit('/', 1)[1]}",
            "filter_totals": f"Filter {src.rsplit('/', 1)[1]} and total its {number.name}",
            "pivot_csv": f"Pivot {src.rsplit('/', 1)[1]} by {ctx.get('col_group', '')} into a CSV table",
            "top_n": f"Rank the top {ctx.get('n', '')} {group.name} values of {src.rsplit('/', 1)[1]}",
            "monthly": f"Monthly {number.name} totals from {src.rsplit('/', 1)[1]}",
            "clean_csv": f"Clean and de-duplicate {src.rsplit('/', 1)[1]} into a normalised CSV",
        }[variant]
        return Draft(
            title=title,
            instruction=instruction,
            files=files,
            params=toml_safe(
                {
                    "variant": variant,
                    "table": self.item.path,
                    "src": src,
                    "out": out,
                    "group": group.name,
                    "number": number.name,
                    "dup": rules.dup,
                    "case": rules.case,
                    "negative": rules.negative,
                    "decimals": decimals,
                    "rounding": mode,
                    "rows": len(rows),
                    "invalid": invalid,
                    "duplicates": dups,
                    **params,
                }
            ),
            keywords=["csv", "aggregation", "data-cleaning", "json" if kind == "json" else "csv-output"],
            pool_items=[self.item],
        )

    # -- the variants: each returns (expected, out path, kind, template context, params) -------------

    def _group_json(self) -> Variant:
        rules = self.rules
        group = self.group
        number = self.number
        cats = self.cats
        texts = self.texts
        decimals = self.decimals
        mode = self.mode
        out_dir = self.out_dir
        rng = self.rng
        pool_metrics = ["count", "sum", "mean", "min", "max"]
        k = {1: 2, 2: 3, 3: 4}[self.difficulty]
        metrics = sorted(rng.sample(pool_metrics, k), key=pool_metrics.index)
        others = [c for c in cats + texts if c.name != group.name]
        distinct = rng.choice(others).name if others and (self.difficulty > 1 or rng.random() < 0.4) else None
        records = self.records
        rows, invalid, dups = select(self.prof.header, records, rules)
        groups: dict[str, list[dict[str, str]]] = {}
        for row in rows:
            groups.setdefault(group_value(row, group.name, rules), []).append(row)
        top = f"by_{slug(group.name)}"
        body: dict[str, Any] = {}
        for g, members in groups.items():
            values = [Decimal(r[number.name]) for r in members]
            entry: dict[str, Any] = {}
            for m in metrics:
                v = metric(values, m)
                entry[m] = int(v) if m == "count" else float(quantize(v, decimals, mode))
            if distinct:
                entry[f"distinct_{slug(distinct)}"] = len({r[distinct] for r in members if r[distinct] != ""})
            body[g] = entry
        expected = {top: body, "invalid_rows": invalid}
        if rules.key:
            expected["duplicate_rows"] = dups
        name = rng.choice(
            [
                f"{slug(group.name)}_summary.json",
                "summary.json",
                f"{slug(number.name)}_by_{slug(group.name)}.json",
            ]
        )
        ctx = {"metrics": metrics, "distinct": distinct, "top": top}
        return expected, f"{out_dir}/{name}", "json", ctx, {"metrics": metrics, "distinct": distinct}

    def _group_csv(self) -> Variant:
        rules = self.rules
        group = self.group
        number = self.number
        decimals = self.decimals
        mode = self.mode
        out_dir = self.out_dir
        rng = self.rng
        pool_metrics = ["sum", "mean", "min", "max"]
        k = {1: 1, 2: 2, 3: 3}[self.difficulty]
        metrics = ["count", *sorted(rng.sample(pool_metrics, k), key=pool_metrics.index)]
        order = rng.choice(["group", "count", metrics[1]])
        names = {
            m: rng.choice([f"{m}_{slug(number.name)}", m])
            if m != "count"
            else rng.choice(["rows", "count", "n"])
            for m in metrics
        }
        rows, _invalid, _dups = select(self.prof.header, self.records, rules)
        groups: dict[str, list[Decimal]] = {}
        for row in rows:
            groups.setdefault(group_value(row, group.name, rules), []).append(Decimal(row[number.name]))
        stats = {g: {m: metric(v, m) for m in metrics} for g, v in groups.items()}
        ordered = sorted(stats) if order == "group" else sorted(stats, key=lambda g: (-stats[g][order], g))
        header = [slug(group.name)] + [names[m] for m in metrics]
        table = [header] + [
            [g]
            + [str(int(stats[g][m])) if m == "count" else fmt(stats[g][m], decimals, mode) for m in metrics]
            for g in ordered
        ]
        name = rng.choice(
            [
                f"{slug(group.name)}_report.csv",
                "report.csv",
                f"{slug(number.name)}_per_{slug(group.name)}.csv",
            ]
        )
        ctx = {"metrics": metrics, "names": names, "order": order, "out_header": header}
        return table, f"{out_dir}/{name}", "csv", ctx, {"metrics": metrics, "order": order}

    def _filter_totals(self) -> Variant:
        rules = self.rules
        group = self.group
        number = self.number
        cats = self.cats
        texts = self.texts
        dates = self.dates
        decimals = self.decimals
        mode = self.mode
        out_dir = self.out_dir
        rng = self.rng
        records = self.records
        base_rows, _, _ = select(self.prof.header, records, rules)
        for _attempt in range(20):
            filters: list[dict[str, Any]] = []
            values = sorted({group_value(r, group.name, rules) for r in base_rows})
            filters.append({"kind": "eq", "column": group.name, "value": rng.choice(values)})
            if self.difficulty >= 2:
                nums = sorted(Decimal(r[number.name]) for r in base_rows)
                q = nums[int(len(nums) * rng.uniform(0.2, 0.6))]
                filters.append(
                    {
                        "kind": "cmp",
                        "column": number.name,
                        "op": rng.choice([">=", ">", "<=", "<"]),
                        "value": str(q),
                    }
                )
            if (self.difficulty >= 3 or (dates and rng.random() < 0.4)) and dates:
                dcol = rng.choice(dates).name
                days = sorted({r[dcol] for r in base_rows if DATE.fullmatch(r[dcol])})
                if len(days) > 4:
                    a = rng.randrange(len(days) // 2)
                    b = rng.randrange(a + 2, len(days))
                    filters.append({"kind": "range", "column": dcol, "from": days[a], "to": days[b]})
            if rng.random() < 0.5 and len(filters) > 1:
                filters[0], filters[1] = filters[1], filters[0]
            date_cols = [f["column"] for f in filters if f["kind"] == "range"]
            rules.dates = date_cols
            rows, invalid, _dups = select(self.prof.header, records, rules)
            matched = [r for r in rows if all(_passes(r, f, rules) for f in filters)]
            if len(matched) >= 3:
                break
        else:
            raise ValueError("csv-aggregate: no filter with enough matches")
        pool_metrics = ["sum", "mean", "min", "max"]
        metrics = sorted(
            rng.sample(pool_metrics, {1: 2, 2: 3, 3: 4}[self.difficulty]), key=pool_metrics.index
        )
        others = [c for c in cats + texts if c.name != group.name]
        distinct = rng.choice(others).name if others and rng.random() < 0.6 else None
        amounts = [Decimal(r[number.name]) for r in matched]
        expected: dict[str, Any] = {"matched_rows": len(matched), "invalid_rows": invalid}
        for m in metrics:
            expected[f"{m}_{slug(number.name)}"] = float(quantize(metric(amounts, m), decimals, mode))
        if distinct:
            expected[f"distinct_{slug(distinct)}"] = len({r[distinct] for r in matched if r[distinct] != ""})
        name = rng.choice(
            ["totals.json", "filtered_totals.json", f"{slug(group.name)}_{slug(number.name)}_totals.json"]
        )
        ctx = {"filters": filters, "metrics": metrics, "distinct": distinct, "slug_number": slug(number.name)}
        return expected, f"{out_dir}/{name}", "json", ctx, {"filters": filters, "metrics": metrics}

    def _pivot_csv(self) -> Variant:
        rules = self.rules
        group = self.group
        number = self.number
        cats = self.cats
        decimals = self.decimals
        mode = self.mode
        out_dir = self.out_dir
        rng = self.rng
        col = rng.choice([c for c in cats if c.name != group.name])
        rules.required = [*rules.required, col.name]
        cell = rng.choice(["count", "sum"])
        total = self.difficulty >= 2 and rng.random() < 0.7
        rows, _invalid, _dups = select(self.prof.header, self.records, rules)
        rowvals = sorted({group_value(r, group.name, rules) for r in rows})
        colvals = sorted({group_value(r, col.name, rules) for r in rows})
        cells: dict[tuple[str, str], Decimal] = {}
        for r in rows:
            k = (group_value(r, group.name, rules), group_value(r, col.name, rules))
            cells[k] = cells.get(k, Decimal(0)) + (Decimal(1) if cell == "count" else Decimal(r[number.name]))

        def show(v: Decimal) -> str:
            return str(int(v)) if cell == "count" else fmt(v, decimals, mode)

        header = [slug(group.name)] + colvals + (["total"] if total else [])
        table = [header]
        for rv in rowvals:
            line = [rv] + [show(cells.get((rv, cv), Decimal(0))) for cv in colvals]
            if total:
                line.append(show(sum((cells.get((rv, cv), Decimal(0)) for cv in colvals), Decimal(0))))
            table.append(line)
        name = rng.choice([f"{slug(group.name)}_by_{slug(col.name)}.csv", "pivot.csv", "crosstab.csv"])
        ctx = {"col_group": col.name, "cell": cell, "total": total}
        return table, f"{out_dir}/{name}", "csv", ctx, {"columns": col.name, "cell": cell, "total": total}

    def _top_n(self) -> Variant:
        rules = self.rules
        group = self.group
        number = self.number
        decimals = self.decimals
        mode = self.mode
        out_dir = self.out_dir
        rng = self.rng
        n = rng.randint(3, 6)
        by = rng.choice(["sum", "mean", "max", "count"])
        rows, _invalid, _dups = select(self.prof.header, self.records, rules)
        groups: dict[str, list[Decimal]] = {}
        for row in rows:
            groups.setdefault(group_value(row, group.name, rules), []).append(Decimal(row[number.name]))
        n = min(n, len(groups))
        scored = sorted(((metric(v, by), g, len(v)) for g, v in groups.items()), key=lambda t: (-t[0], t[1]))[
            :n
        ]
        fmt_kind = rng.choice(["json", "csv"])
        label = f"{by}_{slug(number.name)}" if by != "count" else "rows"
        if fmt_kind == "json":
            expected: Any = [
                {
                    "rank": i + 1,
                    slug(group.name): g,
                    label: int(v) if by == "count" else float(quantize(v, decimals, mode)),
                    "rows": c,
                }
                if by != "count"
                else {"rank": i + 1, slug(group.name): g, "rows": int(v)}
                for i, (v, g, c) in enumerate(scored)
            ]
            name = rng.choice([f"top_{slug(group.name)}.json", "top.json", "ranking.json"])
        else:
            header = ["rank", slug(group.name), label] + (["rows"] if by != "count" else [])
            expected = [header] + [
                [str(i + 1), g, str(int(v)) if by == "count" else fmt(v, decimals, mode)]
                + ([str(c)] if by != "count" else [])
                for i, (v, g, c) in enumerate(scored)
            ]
            name = rng.choice([f"top_{slug(group.name)}.csv", "top.csv", "ranking.csv"])
        ctx = {"n": n, "by": by, "label": label, "fmt_kind": fmt_kind}
        return expected, f"{out_dir}/{name}", fmt_kind, ctx, {"n": n, "by": by}

    def _monthly(self) -> Variant:
        rules = self.rules
        group = self.group
        number = self.number
        dates = self.dates
        decimals = self.decimals
        mode = self.mode
        out_dir = self.out_dir
        rng = self.rng
        dcol = rng.choice(dates).name
        rules.dates = [dcol]
        base, _, _ = select(self.prof.header, self.records, rules)
        only = None
        if self.difficulty >= 2 and rng.random() < 0.7:
            only = rng.choice(sorted({group_value(r, group.name, rules) for r in base}))
        rows = [r for r in base if only is None or group_value(r, group.name, rules) == only]
        metrics = ["count", "sum"] + (["mean"] if self.difficulty == 3 or rng.random() < 0.3 else [])
        months: dict[str, list[Decimal]] = {}
        for r in rows:
            months.setdefault(r[dcol][:7], []).append(Decimal(r[number.name]))
        fmt_kind = rng.choice(["csv", "json"])
        names = {
            "count": rng.choice(["rows", "count"]),
            "sum": f"total_{slug(number.name)}",
            "mean": f"avg_{slug(number.name)}",
        }
        if fmt_kind == "csv":
            expected: Any = [["month"] + [names[m] for m in metrics]] + [
                [mo] + [str(len(v)) if m == "count" else fmt(metric(v, m), decimals, mode) for m in metrics]
                for mo, v in sorted(months.items())
            ]
            name = rng.choice(["monthly.csv", f"{slug(number.name)}_by_month.csv"])
        else:
            expected = {
                mo: {
                    names[m]: len(v) if m == "count" else float(quantize(metric(v, m), decimals, mode))
                    for m in metrics
                }
                for mo, v in sorted(months.items())
            }
            name = rng.choice(["monthly.json", f"{slug(number.name)}_by_month.json"])
        ctx = {"date": dcol, "only": only, "metrics": metrics, "names": names, "fmt_kind": fmt_kind}
        return expected, f"{out_dir}/{name}", fmt_kind, ctx, {"date": dcol, "only": only, "metrics": metrics}

    def _clean_csv(self) -> Variant:
        rules = self.rules
        group = self.group
        number = self.number
        decimals = self.decimals
        mode = self.mode
        out_dir = self.out_dir
        rng = self.rng
        others = [
            c.name for c in self.prof.columns if c.name not in (group.name, number.name) and c.kind != "key"
        ]
        keep = rng.sample(others, min(len(others), {1: 1, 2: 2, 3: 3}[self.difficulty]))
        columns = ([rules.key] if rules.key else []) + [group.name, number.name] + keep
        columns = [c for c in self.prof.header if c in columns]  # in file order
        if rng.random() < 0.5:
            rng.shuffle(columns)
        sort = rng.choice(["key", "number"]) if rules.key else "number"
        rows, _invalid, _dups = select(self.prof.header, self.records, rules)
        if sort == "key":
            assert rules.key is not None
            rows = sorted(rows, key=lambda r: r[rules.key])  # type: ignore[index]
        else:
            tie = rules.key or group.name
            rows = sorted(rows, key=lambda r: (-Decimal(r[number.name]), r[tie]))
        table = [columns]
        for r in rows:
            line = []
            for c in columns:
                if c == group.name:
                    line.append(group_value(r, c, rules))
                elif c == number.name:
                    line.append(fmt(Decimal(r[c]), decimals, mode))
                else:
                    line.append(r[c])
            table.append(line)
        name = rng.choice(
            ["clean.csv", f"{slug(self.item.name.rsplit('.', 1)[0])}_clean.csv", "normalized.csv"]
        )
        ctx = {"columns": columns, "sort": sort}
        return table, f"{out_dir}/{name}", "csv", ctx, {"columns": columns, "sort": sort}


def _passes(row: dict[str, str], f: dict[str, Any], rules: Rules) -> bool:
    value = row[f["column"]]
    if f["kind"] == "eq":
        return group_value(row, f["column"], rules) == f["value"]
    if f["kind"] == "cmp":
        a, b = Decimal(value), Decimal(f["value"])
        return {">=": a >= b, ">": a > b, "<=": a <= b, "<": a < b}[f["op"]]
    return bool(f["from"] <= value <= f["to"])
