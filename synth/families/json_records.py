"""json-records: filter / select / rename / flatten / join / merge / validate JSON and JSONL records.

Grounded in the pool's record files (a JSON array, an object holding an array, or JSONL). The family
profiles the records (key field, categorical, numeric, boolean, date, nested and list fields), draws a
variant and its rules from what the file has, writes a copy of the data (a window of it, with a few
drawn edge cases) into the task, and computes the exact expected output; the checker embeds it.
Joins pair two pool files by a field whose values are the other file's keys.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from decimal import ROUND_HALF_UP, Decimal
from pathlib import PurePosixPath
from typing import Any

from synth.families.base import Draft, Family, render
from synth.families.csv_aggregate import sha256, slug, toml_safe
from synth.pools import PoolItem, Pools

DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
EMAIL = r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}"
MISSING = object()


def get(record: dict[str, Any], path: str) -> Any:
    value: Any = record
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def dec(value: int | float) -> Decimal:
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


@dataclass
class Fields:
    key: str | None = None
    cat: list[str] = field(default_factory=list)
    num: list[str] = field(default_factory=list)
    boolean: list[str] = field(default_factory=list)
    date: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    nested: list[str] = field(default_factory=list)
    """Dotted paths of scalars one level down (`address.city`)."""
    lists: list[str] = field(default_factory=list)
    email: str | None = None
    values: dict[str, list[Any]] = field(default_factory=dict)
    """Distinct values of the categorical fields."""

    def scalars(self) -> list[str]:
        return self.cat + self.num + self.boolean + self.date + self.text


@dataclass
class RecordFile:
    item: PoolItem
    records: list[dict[str, Any]]
    wrapper: str | None
    """For a JSON object holding the array: the array's key."""
    meta: dict[str, Any]
    fields: Fields


def load(item: PoolItem) -> RecordFile | None:
    try:
        if item.kind == "jsonl":
            records = [json.loads(line) for line in item.read_text().splitlines() if line.strip()]
            wrapper: str | None = None
            meta: dict[str, Any] = {}
        else:
            data = json.loads(item.read_text())
            wrapper, meta = None, {}
            if isinstance(data, dict):
                lists = [k for k, v in data.items() if isinstance(v, list)]
                if not lists:
                    return None
                wrapper = lists[0]
                meta = {k: v for k, v in data.items() if k != wrapper and not isinstance(v, (list, dict))}
                data = data[wrapper]
            records = data
    except ValueError:
        return None
    if not isinstance(records, list) or len(records) < 20 or not all(isinstance(r, dict) for r in records):
        return None
    fields = profile(records)
    if fields.key is None or not (fields.cat or fields.num):
        return None
    return RecordFile(item, records, wrapper, meta, fields)


def profile(records: list[dict[str, Any]]) -> Fields:
    order: list[str] = []
    for r in records:
        for k in r:
            if k not in order:
                order.append(k)
    f = Fields()
    for name in order:
        values = [r[name] for r in records if r.get(name) is not None]
        if not values:
            continue
        scalars = [v for v in values if not isinstance(v, (dict, list))]
        if (
            f.key is None
            and len(values) == len(records)
            and all(isinstance(v, (int, str)) and not isinstance(v, bool) for v in values)
        ):
            types = {type(v) for v in values}
            if (
                len(types) == 1
                and len(set(values)) >= 0.95 * len(values)
                and (name == "id" or name.endswith("id") or name == "sku")
            ):
                f.key = name
                continue
        if all(isinstance(v, dict) for v in values):
            for sub in sorted({k for v in values for k in v}):
                inner = [v.get(sub) for v in values if v.get(sub) is not None]
                if inner and all(isinstance(x, (str, int, float)) and not isinstance(x, bool) for x in inner):
                    f.nested.append(f"{name}.{sub}")
            continue
        if all(isinstance(v, list) for v in values):
            if all(isinstance(x, (str, int)) for v in values for x in v):
                f.lists.append(name)
            continue
        if len(scalars) != len(values):
            continue
        if all(isinstance(v, bool) for v in values):
            f.boolean.append(name)
        elif sum(1 for v in values if is_number(v)) >= 0.8 * len(values):
            f.num.append(name)
        elif all(isinstance(v, str) for v in values if not is_number(v)):
            strings = [v for v in values if isinstance(v, str)]
            if sum(1 for v in strings if DATE.match(v)) >= 0.9 * len(strings):
                f.date.append(name)
            elif 2 <= len(set(strings)) <= 10:
                f.cat.append(name)
                f.values[name] = sorted(set(strings))
            else:
                f.text.append(name)
                if name == "email" or sum(1 for v in strings if "@" in v) >= 0.8 * len(strings):
                    f.email = f.email or name
    return f


def usable_files(pools: Pools) -> list[RecordFile]:
    found = []
    for item in pools.items("json", "jsonl"):
        loaded = load(item)
        if loaded is not None:
            found.append(loaded)
    return found


def sort_key(value: Any) -> tuple[int, Any]:
    return (0, value) if is_number(value) else (1, str(value))


def render_value(value: Any, sep: str) -> str:
    """A JSON value as a CSV cell (the flatten variant's rules)."""
    if value is MISSING or value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return sep.join(render_value(v, sep) for v in value)
    return json.dumps(value)


def dedupe(records: list[dict[str, Any]], key: str, rule: str) -> list[dict[str, Any]]:
    """One record per key: the first or the last occurrence, kept at the position of its winner."""
    if rule == "first":
        seen: set[Any] = set()
        out = []
        for r in records:
            if r[key] not in seen:
                seen.add(r[key])
                out.append(r)
        return out
    last = {r[key]: i for i, r in enumerate(records)}
    return [r for i, r in enumerate(records) if last[r[key]] == i]


def iso(when: datetime) -> str:
    text = when.isoformat()
    return text.replace("+00:00", "Z")


Variant = tuple[dict[str, str], dict[str, Any], str, dict[str, Any], dict[str, Any]]
"""environment files, expected outputs (path → [kind, value]), title, template context, params."""


class JsonRecords(Family):
    name = "json-records"
    category = "data"
    pool_kinds = ("json", "jsonl")

    VARIANTS = ("filter_select", "flatten_csv", "join", "merge", "validate", "group_count")

    def usable(self, pools: Pools) -> bool:
        return bool(usable_files(pools))

    def generate(self, rng: random.Random, pools: Pools, difficulty: int) -> Draft:
        files = usable_files(pools)
        if not files:
            raise ValueError("json-records: no pool JSON/JSONL file of at least 20 keyed records")
        joins = find_joins(files)
        src = rng.choice(files)
        f = src.fields
        possible = {
            "filter_select": bool(f.cat or f.num or f.boolean or f.date),
            "flatten_csv": bool(f.nested or f.lists or len(f.scalars()) >= 3),
            "join": any(a is src for a, _, _ in joins),
            "merge": len(f.cat + f.num + f.text + f.boolean + f.date) >= 3,
            "validate": True,
            "group_count": bool(f.cat),
        }
        variant = rng.choice([v for v in self.VARIANTS if possible[v]])
        if variant == "join":
            _, lfield, right = rng.choice([j for j in joins if j[0] is src])
            return _Task(rng, src, difficulty, variant, join=(lfield, right)).build()
        return _Task(rng, src, difficulty, variant).build()


def find_joins(files: list[RecordFile]) -> list[tuple[RecordFile, str, RecordFile]]:
    """(A, field of A, B): A's field holds B's keys for most of A's records."""
    found = []
    for a in files:
        for b in files:
            if a is b or b.fields.key is None:
                continue
            keys = {r[b.fields.key] for r in b.records}
            for name in a.fields.num + a.fields.cat + a.fields.text:
                values = [r.get(name) for r in a.records if r.get(name) is not None]
                if (
                    (
                        values
                        and sum(1 for v in values if v in keys) >= 0.7 * len(values)
                        and len(set(values)) > 3
                    )
                    and b.fields.cat
                    and a.fields.key is not None
                    and name != a.fields.key
                ):
                    found.append((a, name, b))
    return found


class _Task:
    def __init__(
        self,
        rng: random.Random,
        src: RecordFile,
        difficulty: int,
        variant: str,
        join: tuple[str, RecordFile] | None = None,
    ):
        self.rng, self.src, self.difficulty, self.variant, self.join = rng, src, difficulty, variant, join
        self.f = src.fields
        assert self.f.key is not None
        self.key: str = self.f.key

    # -- data -------------------------------------------------------------------------------------

    def window(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        size = {1: 30, 2: 60, 3: 150}[self.difficulty] + self.rng.randint(-5, 5)
        if len(records) > size:
            start = self.rng.randrange(len(records) - size)
            records = records[start : start + size]
        return json.loads(json.dumps(records))

    def serialise(self, rf: RecordFile, records: list[dict[str, Any]], name: str) -> str:
        if name.endswith(".jsonl"):
            return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        if rf.wrapper is not None:
            body = dict(rf.meta)
            body[rf.wrapper] = records
            return json.dumps(body, indent=2, ensure_ascii=False) + "\n"
        return json.dumps(records, indent=2, ensure_ascii=False) + "\n"

    def place(self, rf: RecordFile, suffix: str = "") -> tuple[str, str]:
        """(absolute path, format) of a copy of `rf` in the task."""
        stem = PurePosixPath(rf.item.name).stem
        folder = self.rng.choice(["data", "input", "records", "exports", "json", "feeds"])
        ext = PurePosixPath(rf.item.name).suffix
        return f"/app/{folder}/{stem}{suffix}{ext}", ext.lstrip(".")

    def describe(self, rf: RecordFile, path: str) -> str:
        if path.endswith(".jsonl"):
            return f"`{path}` is JSON Lines: one JSON object per line"
        if rf.wrapper is not None:
            return f"`{path}` is a JSON object whose `{rf.wrapper}` array holds the records"
        return f"`{path}` is a JSON array of objects"

    def build(self) -> Draft:
        env, outputs, title, ctx, params = getattr(self, f"_{self.variant}")()
        out_dir = ctx["out_dir"]
        base_ctx = {
            "variant": self.variant,
            "key": self.key,
            "phr": [self.rng.randrange(4) for _ in range(4)],
            "topic": PurePosixPath(self.src.item.name).stem.replace("_", " "),
            "out_dir": out_dir,
            "key_numeric": is_number(self.src.records[0][self.key]),
        }
        base_ctx.update(ctx)
        spec = {
            "inputs": {path: sha256(text) for path, text in env.items()},
            "outputs": outputs,
        }
        files = {f"environment/{p.removeprefix('/app/')}": text for p, text in env.items()}
        files["tests/check.py"] = render("json-records/check.py.j2", spec=json.dumps(spec, sort_keys=True))
        files["solution/solve.sh"] = render("json-records/solve.sh.j2", **base_ctx)
        items = [self.src.item] + ([self.join[1].item] if self.join else [])
        return Draft(
            title=title,
            instruction=render("json-records/instruction.md.j2", **base_ctx),
            files=files,
            params=toml_safe({"variant": self.variant, "source": self.src.item.path, **params}),
            keywords=["json", "records", self.variant.replace("_", "-")],
            pool_items=items,
        )

    def out(self, names: list[str]) -> str:
        return self.rng.choice(names)

    # -- filter / select / rename -------------------------------------------------------------------

    def predicates(self, records: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
        rng, f = self.rng, self.f
        pool: list[dict[str, Any]] = []
        for c in f.cat:
            values = f.values[c]
            kind = rng.choice(["eq", "eq", "ne", "in"] if len(values) > 2 else ["eq", "ne"])
            if kind == "in":
                pool.append(
                    {
                        "kind": "in",
                        "field": c,
                        "value": sorted(rng.sample(values, rng.randint(2, len(values) - 1))),
                    }
                )
            else:
                pool.append({"kind": kind, "field": c, "value": rng.choice(values)})
        for n in f.num:
            nums = sorted(dec(r[n]) for r in records if is_number(r.get(n)))
            if len(nums) > 5:
                value = nums[len(nums) // 2 + rng.randint(-len(nums) // 4, len(nums) // 4)]
                pool.append(
                    {"kind": "cmp", "field": n, "op": rng.choice([">=", "<=", ">", "<"]), "value": str(value)}
                )
        for b in f.boolean:
            pool.append({"kind": "bool", "field": b, "value": rng.random() < 0.7})
        for d in f.date:
            days = sorted({r[d][:10] for r in records if isinstance(r.get(d), str) and DATE.match(r[d])})
            if len(days) > 5:
                kind = rng.choice(["since", "until"])
                pool.append(
                    {
                        "kind": kind,
                        "field": d,
                        "value": days[rng.randrange(len(days) // 4, 3 * len(days) // 4)],
                    }
                )
        for t in f.text:
            strings = [r[t] for r in records if isinstance(r.get(t), str) and len(r[t]) >= 3]
            for _ in range(10):
                if not strings:
                    break
                v = rng.choice(strings)
                i = rng.randrange(len(v) - 2)
                part = v[i : i + 3].lower()
                if part.isalnum():
                    pool.append({"kind": "contains", "field": t, "value": part})
                    break
        rng.shuffle(pool)
        chosen: list[dict[str, Any]] = []
        for p in pool:
            if all(c["field"] != p["field"] for c in chosen):
                chosen.append(p)
            if len(chosen) == count:
                break
        return chosen

    @staticmethod
    def matches(record: dict[str, Any], p: dict[str, Any]) -> bool:
        v = record.get(p["field"])
        kind = p["kind"]
        if kind in ("eq", "ne", "in", "contains") and not isinstance(v, str):
            return False
        if kind == "eq":
            return bool(v == p["value"])
        if kind == "ne":
            return bool(v != p["value"])
        if kind == "in":
            return v in p["value"]
        if kind == "contains":
            return p["value"] in v.lower()  # type: ignore[union-attr]
        if kind == "cmp":
            if not is_number(v):
                return False
            a, b = dec(v), Decimal(p["value"])  # type: ignore[arg-type]
            return {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b}[p["op"]]
        if kind == "bool":
            return v is p["value"]
        if not (isinstance(v, str) and DATE.match(v)):
            return False
        return bool(v[:10] >= p["value"]) if kind == "since" else bool(v[:10] <= p["value"])

    def _filter_select(self) -> Variant:
        rng, f, key = self.rng, self.f, self.key
        records = self.window(self.src.records)
        path, fmt = self.place(self.src)
        dup = rng.choice(["first", "last"])
        for _ in range(20):
            preds = self.predicates(records, {1: 1, 2: 2, 3: 3}[self.difficulty])
            logic = "any" if len(preds) > 1 and rng.random() < 0.35 else "all"
            test = any if logic == "any" else all
            kept = [r for r in dedupe(records, key, dup) if test(self.matches(r, p) for p in preds)]
            if 3 <= len(kept) < len(records) - 2:
                break
        else:
            raise ValueError("json-records: no selective filter")
        candidates = f.scalars() + f.nested
        fields = [key, *rng.sample(candidates, min(len(candidates), {1: 2, 2: 3, 3: 4}[self.difficulty]))]
        renames = {}
        for name in rng.sample(fields, min(len(fields), rng.randint(1, 2))):
            last = slug(name.split(".")[-1])
            noun = slug(PurePosixPath(self.src.item.name).stem).rstrip("s")
            options = [
                f"{noun}_{last}",
                f"{last}_value",
                f"src_{last}",
                slug(name.replace(".", "_")) + "_out",
            ]
            renames[name] = rng.choice([o for o in options if o != name])
        order = rng.choice(["key", "input"])
        if order == "key":
            kept = sorted(kept, key=lambda r: sort_key(r[key]))
        want = []
        for r in kept:
            obj = {}
            for name in fields:
                v = get(r, name)
                obj[renames.get(name, name)] = None if v is MISSING else v
            want.append(obj)
        names = ["selected.jsonl", "filtered.jsonl", f"{slug(PurePosixPath(path).stem)}_subset.jsonl"]
        out = f"{self.out_dir()}/{self.out(names)}"
        env = {path: self.serialise(self.src, records, path)}
        ctx = {
            "src": path,
            "src_desc": self.describe(self.src, path),
            "preds": preds,
            "logic": logic,
            "fields": fields,
            "renames": renames,
            "order": order,
            "dup": dup,
            "out": out,
            "out_dir": PurePosixPath(out).parent.as_posix(),
            "wrapper": self.src.wrapper,
            "fmt": fmt,
        }
        title = f"Filter {PurePosixPath(path).name} and write selected, renamed fields as JSONL"
        return (
            env,
            {out: ["jsonl", want]},
            title,
            ctx,
            {"predicates": preds, "logic": logic, "fields": fields, "renames": renames},
        )

    def out_dir(self) -> str:
        if not hasattr(self, "_out_dir"):
            self._out_dir = self.rng.choice(["/app/out", "/app/output", "/app/results", "/app"])
        return self._out_dir

    # -- flatten -------------------------------------------------------------------------------------

    def _flatten_csv(self) -> Variant:
        rng, f, key = self.rng, self.f, self.key
        records = self.window(self.src.records)
        path, fmt = self.place(self.src)
        dup = rng.choice(["first", "last"])
        columns = [key]
        columns += rng.sample(f.scalars(), min(len(f.scalars()), {1: 2, 2: 3, 3: 4}[self.difficulty]))
        if f.nested:
            columns += rng.sample(f.nested, min(len(f.nested), rng.randint(1, 2)))
        if f.lists and (self.difficulty >= 2 or rng.random() < 0.5):
            columns.append(rng.choice(f.lists))
        sep = rng.choice(["|", ";", " "])
        rows = sorted(dedupe(records, key, dup), key=lambda r: sort_key(r[key]))
        table = [columns] + [[render_value(get(r, c), sep) for c in columns] for r in rows]
        out = (
            f"{self.out_dir()}/{self.out(['flat.csv', f'{slug(PurePosixPath(path).stem)}.csv', 'table.csv'])}"
        )
        env = {path: self.serialise(self.src, records, path)}
        ctx = {
            "src": path,
            "src_desc": self.describe(self.src, path),
            "columns": columns,
            "sep": sep,
            "dup": dup,
            "out": out,
            "out_dir": PurePosixPath(out).parent.as_posix(),
            "wrapper": self.src.wrapper,
            "fmt": fmt,
            "nested": [c for c in columns if "." in c],
        }
        title = f"Flatten the nested records of {PurePosixPath(path).name} into a CSV table"
        return env, {out: ["csv", table]}, title, ctx, {"columns": columns, "sep": sep, "dup": dup}

    # -- join ----------------------------------------------------------------------------------------

    def _join(self) -> Variant:
        rng, key = self.rng, self.key
        assert self.join is not None
        lfield, right = self.join
        rkey = right.fields.key
        assert rkey is not None
        records = self.window(self.src.records)
        lookup = json.loads(json.dumps(right.records))
        lpath, _ = self.place(self.src)
        rpath, _ = self.place(right)
        if rpath == lpath:
            rpath = rpath.replace(".", "_lookup.", 1)
        dup = rng.choice(["first", "last"])
        table: dict[str, dict[str, Any]] = {}
        for r in lookup:
            if dup == "last" or json.dumps(r[rkey]) not in table:
                table[json.dumps(r[rkey])] = r

        def match(r: dict[str, Any]) -> dict[str, Any] | None:
            return table.get(json.dumps(r[lfield])) if lfield in r else None

        group = rng.choice(right.fields.cat)
        mode = rng.choice(["aggregate", "enrich"])
        unmatched = [r for r in records if match(r) is None]
        env = {lpath: self.serialise(self.src, records, lpath), rpath: self.serialise(right, lookup, rpath)}
        ctx: dict[str, Any] = {
            "src": lpath,
            "src_desc": self.describe(self.src, lpath),
            "lookup": rpath,
            "lookup_desc": self.describe(right, rpath),
            "lfield": lfield,
            "rkey": rkey,
            "dup": dup,
            "group": group,
            "mode": mode,
            "wrapper": self.src.wrapper,
            "rwrapper": right.wrapper,
        }
        if mode == "aggregate":
            nums = [n for n in self.f.num if n != lfield]
            total = rng.choice(nums) if nums else None
            groups: dict[str, dict[str, Any]] = {}
            sums: dict[str, Decimal] = {}
            for r in records:
                m = match(r)
                if m is None:
                    continue
                g = m.get(group)
                g = g if isinstance(g, str) else "(none)"
                entry = groups.setdefault(g, {"count": 0})
                entry["count"] += 1
                if total is not None and is_number(r.get(total)):
                    sums[g] = sums.get(g, Decimal(0)) + dec(r[total])
            if total is not None:
                for g, entry in groups.items():
                    entry[f"total_{total}"] = float(
                        sums.get(g, Decimal(0)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
                    )
            want: Any = {"groups": groups, "unmatched": len(unmatched)}
            names = [f"by_{slug(group)}.json", "joined_summary.json", f"{slug(lfield)}_{slug(group)}.json"]
            out = f"{self.out_dir()}/{self.out(names)}"
            ctx.update({"total": total, "out": out})
            outputs = {out: ["json", want]}
            title = f"Join {PurePosixPath(lpath).name} with {PurePosixPath(rpath).name} and count per {group}"
        else:
            orphans = rng.choice(["drop", "keep"])
            more = [c for c in right.fields.scalars() + right.fields.nested if c not in (group, rkey)]
            extra = [group, *rng.sample(more, min(len(more), 2 if self.difficulty > 1 else 0))]
            prefix = rng.choice([f"{slug(PurePosixPath(right.item.name).stem)}_", "ref_", "lookup_"])
            mine = [c for c in self.f.scalars() if c not in (key, lfield)]
            own = [key, lfield, *rng.sample(mine, min(len(mine), 2))]
            want = []
            for r in sorted(records, key=lambda r: sort_key(r[key])):
                found = match(r)
                if found is None and orphans == "drop":
                    continue
                obj = {c: (None if get(r, c) is MISSING else get(r, c)) for c in own}
                for c in extra:
                    v = get(found, c) if found is not None else MISSING
                    obj[prefix + c] = None if v is MISSING else v
                want.append(obj)
            names = ["enriched.jsonl", "joined.jsonl", f"{slug(PurePosixPath(lpath).stem)}_enriched.jsonl"]
            out = f"{self.out_dir()}/{self.out(names)}"
            ctx.update({"orphans": orphans, "extra": extra, "prefix": prefix, "own": own, "out": out})
            outputs = {out: ["jsonl", want]}
            title = f"Enrich {PurePosixPath(lpath).name} with fields looked up in {PurePosixPath(rpath).name}"
        ctx["out_dir"] = PurePosixPath(ctx["out"]).parent.as_posix()
        params = {"lookup": right.item.path, "on": lfield, "mode": mode, "group": group, "dup": dup}
        return env, outputs, title, ctx, params

    # -- merge ---------------------------------------------------------------------------------------

    def _merge(self) -> Variant:
        rng, f, key = self.rng, self.f, self.key
        records = dedupe(self.window(self.src.records), key, "first")
        scal = [c for c in f.cat + f.num + f.text + f.boolean + f.date]
        fields = rng.sample(scal, min(len(scal), {1: 3, 2: 4, 3: 5}[self.difficulty]))
        rule = rng.choice(["newest_field", "newest_record", "priority"])
        offsets = self.difficulty == 3
        base = datetime(2024, rng.randint(1, 9), rng.randint(1, 28), tzinfo=UTC)

        def stamp() -> tuple[str, datetime]:
            when = base + timedelta(minutes=rng.randint(0, 60 * 24 * 40))
            if offsets and rng.random() < 0.5:
                tz = timezone(timedelta(hours=rng.choice([-5, -3, 2, 5, 9])))
                return when.astimezone(tz).isoformat(), when
            return iso(when), when

        def pool_value(c: str) -> Any:
            vals = [r.get(c) for r in records if r.get(c) is not None]
            return rng.choice(vals) if vals else None

        a_recs, b_recs = [], []
        for r in records:
            roll = rng.random()
            in_a = roll < 0.85
            in_b = roll > 0.55
            if not in_a and not in_b:
                in_a = True
            if in_a:
                text, when = stamp()
                rec = {key: r[key], **{c: r.get(c) for c in fields if c in r}, "updated_at": text}
                a_recs.append((rec, when))
            if in_b:
                text, when = stamp()
                rec = {key: r[key]}
                for c in fields:
                    roll2 = rng.random()
                    if roll2 < 0.35:
                        rec[c] = pool_value(c)
                    elif roll2 < 0.5:
                        rec[c] = None
                    elif roll2 < 0.75 and c in r:
                        rec[c] = r[c]
                rec["updated_at"] = text
                b_recs.append((rec, when))
        rng.shuffle(b_recs)
        stem = slug(PurePosixPath(self.src.item.name).stem)
        folder = rng.choice(["sources", "data", "sync", "imports"])
        a_path = f"/app/{folder}/{stem}_{rng.choice(['primary', 'main', 'crm'])}.json"
        b_path = f"/app/{folder}/{stem}_{rng.choice(['updates', 'changes', 'patch'])}.jsonl"
        env = {
            a_path: json.dumps([r for r, _ in a_recs], indent=2, ensure_ascii=False) + "\n",
            b_path: "".join(json.dumps(r, ensure_ascii=False) + "\n" for r, _ in b_recs),
        }
        entries = [(when, 0, i, rec) for i, (rec, when) in enumerate(a_recs)] + [
            (when, 1, i, rec) for i, (rec, when) in enumerate(b_recs)
        ]
        merged: dict[Any, dict[str, Any]] = {}
        newest: dict[Any, datetime] = {}
        srcs: dict[Any, set[str]] = {}
        if rule == "priority":
            entries.sort(key=lambda e: (e[1], e[0], e[2]))  # all of A, then B; time order within each
        else:
            entries.sort(key=lambda e: (e[0], e[1], e[2]))
        for when, which, _, rec in entries:
            k = rec[key]
            srcs.setdefault(k, set()).add("a" if which == 0 else "b")
            newest[k] = max(newest.get(k, when), when)
            if rule == "newest_record":
                merged[k] = {c: v for c, v in rec.items() if c != "updated_at" and v is not None}
            else:
                cur = merged.setdefault(k, {key: k})
                for c, v in rec.items():
                    if c != "updated_at" and v is not None:
                        cur[c] = v
        a_name, b_name = PurePosixPath(a_path).stem, PurePosixPath(b_path).stem
        want = []
        for k in sorted(merged, key=sort_key):
            obj = dict(merged[k])
            obj[key] = k
            obj["updated_at"] = newest[k].astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
            obj["sources"] = sorted(a_name if s == "a" else b_name for s in srcs[k])
            want.append(obj)
        out = f"{self.out_dir()}/{self.out(['merged.json', f'{stem}_merged.json', 'golden_records.json'])}"
        ctx = {
            "a_path": a_path,
            "b_path": b_path,
            "a_name": a_name,
            "b_name": b_name,
            "fields": fields,
            "rule": rule,
            "offsets": offsets,
            "out": out,
            "out_dir": PurePosixPath(out).parent.as_posix(),
        }
        topic, how = stem.replace("_", " "), rule.replace("_", " ")
        title = f"Merge two exports of {topic} records with a {how} conflict rule"
        return env, {out: ["json", want]}, title, ctx, {"rule": rule, "fields": fields, "offsets": offsets}

    # -- validate ------------------------------------------------------------------------------------

    def _validate(self) -> Variant:
        rng, f, key = self.rng, self.f, self.key
        records = self.window(self.src.records)
        style = rng.choice(["snake", "suffix", "upper"])

        def code(what: str, name: str) -> str:
            n = slug(name)
            if style == "snake":
                return f"{what}_{n}"
            if style == "suffix":
                suffix = {
                    "missing": "required",
                    "bad": "invalid",
                    "duplicate": "duplicate",
                    "long": "too_long",
                }
                return f"{n}_{suffix[what]}"
            return f"E_{what.upper()}_{n.upper()}"

        rules: list[dict[str, Any]] = [{"code": code("missing", key), "kind": "required", "field": key}]
        req = [c for c in f.cat + f.text + f.date if c != f.email]
        for c in rng.sample(req, min(len(req), 1 if self.difficulty == 1 else 2)):
            rules.append({"code": code("missing", c), "kind": "required", "field": c})
        if f.num:
            c = rng.choice(f.num)
            nums = sorted(dec(r[c]) for r in records if is_number(r.get(c)))
            rule = {"code": code("bad", c), "kind": "number", "field": c, "min": 0}
            if self.difficulty >= 2 and nums and rng.random() < 0.6:
                rule["max"] = str(nums[int(len(nums) * rng.uniform(0.8, 0.95))])
            rules.append(rule)
        if f.cat:
            c = rng.choice(f.cat)
            allowed = f.values[c]
            if len(allowed) > 2 and rng.random() < 0.5:
                allowed = sorted(rng.sample(allowed, len(allowed) - 1))
            rules.append({"code": code("bad", c), "kind": "enum", "field": c, "allowed": allowed})
        if f.email:
            rules.append({"code": code("bad", f.email), "kind": "email", "field": f.email})
        plain = [
            c
            for c in f.date
            if all(re.fullmatch(DATE.pattern, r[c]) for r in records if isinstance(r.get(c), str))
        ]
        if plain and self.difficulty >= 2:
            c = rng.choice(plain)
            rules.append({"code": code("bad", c), "kind": "date", "field": c})
        texts = [c for c in f.text if c != f.email]
        if texts and (self.difficulty == 3 or rng.random() < 0.4):
            c = rng.choice(texts)
            lengths = sorted(len(r[c]) for r in records if isinstance(r.get(c), str))
            if lengths:
                rules.append(
                    {
                        "code": code("long", c),
                        "kind": "length",
                        "field": c,
                        "max": lengths[int(len(lengths) * 0.85)],
                    }
                )
        rules.append({"code": code("duplicate", key), "kind": "unique", "field": key})
        # a few broken records on top of what the pool already has
        for _ in range({1: 2, 2: 4, 3: 6}[self.difficulty]):
            r = json.loads(json.dumps(rng.choice(records)))
            broken = rng.choice(rules)
            c = broken["field"]
            if broken["kind"] == "required":
                if rng.random() < 0.5 or c == key:
                    r.pop(c, None)
                else:
                    r[c] = None
            elif broken["kind"] == "number":
                r[c] = rng.choice([str(r.get(c, 1)), -3, None, True])
            elif broken["kind"] == "enum":
                r[c] = rng.choice([str(r.get(c, "x")).upper(), "unknown", ""])
            elif broken["kind"] == "email":
                r[c] = rng.choice(
                    ["no-at-sign.example.com", "two@@example.com", " spaced@example.com", "x@y"]
                )
            elif broken["kind"] == "date":
                r[c] = rng.choice(["2024/05/01", "01-05-2024", "yesterday"])
            elif broken["kind"] == "length":
                r[c] = str(r.get(c) or "x") + " (imported from the legacy system)"
            records.insert(rng.randrange(len(records) + 1), r)
        path, fmt = self.place(self.src)
        valid, errors = [], []
        seen: set[Any] = set()
        for i, r in enumerate(records):
            codes = [rule["code"] for rule in rules if not check_rule(r, rule, seen)]
            if key in r and r[key] is not None:
                seen.add(json.dumps(r[key]))
            if codes:
                errors.append({"index": i, "key": r.get(key), "errors": sorted(codes)})
            else:
                valid.append(r)
        name = PurePosixPath(path).stem
        valid_out = (
            f"{self.out_dir()}/{self.out([f'{slug(name)}_valid.jsonl', 'valid.jsonl', 'clean.jsonl'])}"
        )
        errors_out = (
            f"{self.out_dir()}/{self.out(['errors.json', 'rejects.json', f'{slug(name)}_errors.json'])}"
        )
        env = {path: self.serialise(self.src, records, path)}
        ctx = {
            "src": path,
            "src_desc": self.describe(self.src, path),
            "rules": rules,
            "valid_out": valid_out,
            "errors_out": errors_out,
            "out_dir": PurePosixPath(valid_out).parent.as_posix(),
            "wrapper": self.src.wrapper,
            "fmt": fmt,
            "email_re": EMAIL,
        }
        title = f"Validate the records of {PurePosixPath(path).name} and split valid ones from errors"
        outputs = {valid_out: ["jsonl", valid], errors_out: ["json", errors]}
        return env, outputs, title, ctx, {"rules": [r["code"] for r in rules], "invalid": len(errors)}

    # -- group / count -------------------------------------------------------------------------------

    def _group_count(self) -> Variant:
        rng, f, key = self.rng, self.f, self.key
        records = self.window(self.src.records)
        path, fmt = self.place(self.src)
        group = rng.choice(f.cat)
        others = [
            c
            for c in f.scalars() + f.nested
            if c not in (group, key) and c not in f.num and c not in f.boolean
        ]
        distinct = rng.choice(others) if others else None
        num = rng.choice(f.num) if f.num and (self.difficulty >= 2 or rng.random() < 0.5) else None
        date = rng.choice(f.date) if f.date and (self.difficulty == 3 or rng.random() < 0.4) else None
        groups: dict[str, dict[str, Any]] = {}
        for r in records:
            g = r.get(group)
            g = g if isinstance(g, str) else "(missing)"
            entry = groups.setdefault(g, {"count": 0, "_d": set(), "_s": Decimal(0), "_n": 0, "_dates": []})
            entry["count"] += 1
            if distinct is not None:
                v = get(r, distinct)
                if v is not MISSING and v is not None:
                    entry["_d"].add(json.dumps(v))
            if num is not None and is_number(r.get(num)):
                entry["_s"] += dec(r[num])
                entry["_n"] += 1
            if date is not None and isinstance(r.get(date), str) and DATE.match(r[date]):
                entry["_dates"].append(r[date][:10])
        want = {}
        for g, e in groups.items():
            obj: dict[str, Any] = {"count": e["count"]}
            if distinct is not None:
                obj[f"distinct_{distinct.replace('.', '_')}"] = len(e["_d"])
            if num is not None:
                obj[f"sum_{num}"] = float(e["_s"].quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
                obj[f"avg_{num}"] = (
                    float((e["_s"] / e["_n"]).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
                    if e["_n"]
                    else None
                )
            if date is not None:
                obj["first"] = min(e["_dates"]) if e["_dates"] else None
                obj["last"] = max(e["_dates"]) if e["_dates"] else None
            want[g] = obj
        shape = rng.choice(["object", "ranked"])
        label = slug(group)
        if shape == "ranked":
            ranked = sorted(want.items(), key=lambda kv: (-kv[1]["count"], kv[0]))
            want = [{label: g, **obj} for g, obj in ranked]  # type: ignore[assignment]
        names = [f"{slug(group)}_counts.json", "counts.json", f"per_{slug(group)}.json"]
        out = f"{self.out_dir()}/{self.out(names)}"
        env = {path: self.serialise(self.src, records, path)}
        ctx = {
            "src": path,
            "src_desc": self.describe(self.src, path),
            "group": group,
            "distinct": distinct,
            "num": num,
            "date": date,
            "shape": shape,
            "label": label,
            "out": out,
            "out_dir": PurePosixPath(out).parent.as_posix(),
            "wrapper": self.src.wrapper,
            "fmt": fmt,
        }
        title = f"Count the records of {PurePosixPath(path).name} per {group}"
        return (
            env,
            {out: ["json", want]},
            title,
            ctx,
            {"group": group, "distinct": distinct, "num": num, "date": date, "shape": shape},
        )


def check_rule(record: dict[str, Any], rule: dict[str, Any], seen: set[str]) -> bool:
    """Whether `record` passes `rule` (`seen`: the JSON texts of the keys of the records before it)."""
    c = rule["field"]
    v = record.get(c)
    kind = rule["kind"]
    if kind == "required":
        return v is not None and v != ""
    if kind == "unique":
        return v is None or json.dumps(v) not in seen
    if v is None:
        return True  # absent optional values are fine (required rules catch what must be there)
    if kind == "number":
        return (
            is_number(v) and dec(v) >= rule["min"] and ("max" not in rule or dec(v) <= Decimal(rule["max"]))
        )
    if kind == "length":
        return isinstance(v, str) and len(v) <= rule["max"]
    if kind == "enum":
        return v in rule["allowed"]
    if kind == "email":
        return isinstance(v, str) and re.fullmatch(EMAIL, v) is not None
    return isinstance(v, str) and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", v) is not None
