"""Hidden checker: reads the agent's CSV or the database itself and compares it with the expected
result, computed in Python from the seeded rows when the task was made (embedded below)."""
import csv
import hashlib
import io
import json
import re
import sys

errors = []


def fail(message):
    errors.append(message)


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_num(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def same(path, want, got):
    """Structural comparison: objects by keys, arrays in order, integers exactly, other numbers to
    1e-6, {"$num": x, "dp": d} as a number within half a unit of the d-th decimal of x."""
    if isinstance(want, dict) and "$num" in want:
        if not is_num(got) or abs(got - want["$num"]) > 0.5 * 10 ** -want["dp"] + 1e-9:
            fail(f"{path}: {got!r} is not {want['$num']} rounded to {want['dp']} decimals")
    elif isinstance(want, dict):
        if not isinstance(got, dict):
            fail(f"{path}: expected an object, got {type(got).__name__} {str(got)[:80]}")
            return
        if set(got) != set(want):
            missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
            fail(f"{path}: keys differ (missing {missing[:10]}, unexpected {extra[:10]})")
        for key in sorted(want):
            if key in got:
                same(f"{path}.{key}", want[key], got[key])
    elif isinstance(want, list):
        if not isinstance(got, list):
            fail(f"{path}: expected an array, got {type(got).__name__} {str(got)[:80]}")
            return
        if len(got) != len(want):
            fail(f"{path}: {len(got)} elements, expected {len(want)}")
        for i, (w, g) in enumerate(zip(want, got)):
            same(f"{path}[{i}]", w, g)
    elif isinstance(want, bool) or want is None or isinstance(want, str):
        if got != want or type(got) is not type(want):
            fail(f"{path}: {got!r}, expected {want!r}")
    elif is_int(want):
        if not is_int(got) or got != want:
            fail(f"{path}: {got!r}, expected the integer {want}")
    elif not is_num(got) or abs(got - want) > 1e-6:
        fail(f"{path}: {got!r}, expected {want!r}")


def same_cell(where, want, got):
    if isinstance(want, dict):
        dp = want["dp"]
        if not re.fullmatch(r"-?[0-9]+\." + "[0-9]" * dp, got) or abs(float(got) - want["$num"]) > 0.5 * 10 ** -dp + 1e-9:
            fail(f"{where}: {got!r} is not {want['$num']} written with {dp} decimals")
    elif got != want:
        fail(f"{where}: {got!r}, expected {want!r}")


def read_text(path):
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        print(f"FAIL: cannot read {path}: {exc}")
        sys.exit(1)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        print(f"FAIL: {path} is not UTF-8: {exc}")
        sys.exit(1)
    if text.startswith("\ufeff"):
        print(f"FAIL: {path} starts with a byte order mark")
        sys.exit(1)
    return text


def compare_output(path, kind, want):
    text = read_text(path)
    if kind == "json":
        try:
            got = json.loads(text)
        except ValueError as exc:
            print(f"FAIL: {path} is not valid JSON: {exc}")
            sys.exit(1)
        same("$", want, got)
    elif kind == "jsonl":
        got = []
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        for n, line in enumerate(lines, 1):
            if line.strip() == "":
                fail(f"line {n}: blank lines are not allowed")
                continue
            try:
                got.append(json.loads(line))
            except ValueError as exc:
                fail(f"line {n}: not a JSON value: {exc}")
        same("$", want, got)
    elif kind == "csv":
        rows = list(csv.reader(io.StringIO(text, newline="")))
        while rows and rows[-1] == []:
            rows.pop()
        if len(rows) != len(want):
            fail(f"{len(rows)} CSV rows (header included), expected {len(want)}")
        for i, (w, g) in enumerate(zip(want, rows)):
            if len(g) != len(w):
                fail(f"row {i + 1}: {len(g)} fields {g[:8]}, expected {len(w)}")
                continue
            for j, (wc, gc) in enumerate(zip(w, g)):
                same_cell(f"row {i + 1} column {j + 1}", wc, gc)
    else:
        lines = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
        if len(lines) != len(want):
            fail(f"{len(lines)} lines, expected {len(want)}")
        for i, (w, g) in enumerate(zip(want, lines)):
            if w != g:
                fail(f"line {i + 1}: {g!r}, expected {w!r}")


def unchanged(path, digest):
    try:
        with open(path, "rb") as fh:
            if hashlib.sha256(fh.read()).hexdigest() != digest:
                fail(f"{path} was modified")
    except OSError as exc:
        fail(f"{path} is gone: {exc}")


def finish(what):
    if errors:
        print("FAIL")
        for e in errors[:40]:
            print(" -", e)
        if len(errors) > 40:
            print(f" ... and {len(errors) - 40} more")
        sys.exit(1)
    print("PASS:", what)

import sqlite3

SPEC = json.loads('{"db": "/app/db/reporting.db", "expected": {"index": null, "tables": {"categories": {"columns": ["id", "name", "manager", "tier"], "order": "id", "rows": [[7, "electrical", "Janice Brooks", "silver"], [8, "plumbing", "David Rodriguez", "gold"], [30, "tools", "John Rivas", "gold"], [44, "paint", "Christina Brown", "silver"], [59, "New Jacquelineburgh", "Ashley Chang", "silver"], [74, "safety", "Alexis Mills", "bronze"], [83, "fasteners", "Amy Cervantes", "bronze"], [87, "North Joseph", "Bonnie Summers", "silver"]]}, "category_summary": {"columns": ["category_id", "name", "rows", "total_reorder_level"], "order": "category_id", "rows": [[7, "electrical", 11, 520.0], [8, "plumbing", 15, 670.0], [30, "tools", 9, 315.0], [44, "paint", 9, 485.0], [59, "New Jacquelineburgh", 0, 0.0], [74, "safety", 14, 795.0], [83, "fasteners", 16, 425.0], [87, "North Joseph", 0, 0.0]]}, "inventory": {"columns": ["sku", "warehouse", "category_id", "supplier", "on_hand", "reorder_level", "unit_cost", "last_counted"], "order": "sku", "rows": [["INV-4147", "gdansk", 83, "Howell-Martin", 36, 100, 40.57, "2024-03-01"], ["INV-4154", "gdansk", 83, "Howell-Martin", 33, 25, 43.19, "2024-03-03"], ["INV-4161", "gdansk", 83, "Hernandez PLC", 361, 10, 114.04, "2024-03-25"], ["INV-4168", "leipzig", 83, "Hernandez PLC", 0, 20, 132.24, "2024-03-24"], ["INV-4175", "porto", 44, "Anderson PLC", 9, 100, 156.55, "2024-03-23"], ["INV-4182", "lyon", 74, "Howell-Martin", 0, 100, 139.5, "2024-03-14"], ["INV-4189", "lyon", 30, "Hernandez PLC", 0, 50, 121.91, "2024-02-04"], ["INV-4196", "gdansk", 74, "Hernandez PLC", 581, 100, 64.56, "2024-02-28"], ["INV-4203", "lyon", 8, "Miller-Livingston", 0, 25, 156.29, "2024-04-26"], ["INV-4210", "gdansk", 7, "Davis and Sons", 380, 100, 26.39, "2024-02-28"], ["INV-4217", "rotterdam", 83, "Brown, Schwartz and Johnson", 21, 50, 137.78, "2024-02-14"], ["INV-4224", "gdansk", 30, "Miller-Livingston", 28, 20, 97.92, "2024-02-19"], ["INV-4231", "gdansk", 7, "Miller-Livingston", 13, 100, 38.57, "2024-04-06"], ["INV-4238", "porto", 30, "Davis and Sons", 34, 50, 27.04, "2024-03-28"], ["INV-4245", "leipzig", 83, "Taylor-Bell", 40, 10, 91.18, "2024-02-20"], ["INV-4252", "lyon", 83, "Davis and Sons", 37, 10, 29.48, "2024-04-01"], ["INV-4259", "lyon", 30, "Morris Group", 0, 100, 35.38, "2024-03-27"], ["INV-4266", "porto", 74, "Taylor-Bell", 71, 100, 173.77, "2024-03-24"], ["INV-4273", "rotterdam", 8, "Anderson PLC", 2, 20, 130.41, "2024-03-01"], ["INV-4280", "gdansk", 8, "Davis and Sons", 283, 50, 128.66, "2024-04-07"], ["INV-4287", "leipzig", 74, "Davis and Sons", 0, 100, 137.09, "2024-02-11"], ["INV-4294", "rotterdam", 30, "Brown, Schwartz and Johnson", 332, 10, 28.1, "2024-02-22"], ["INV-4301", "rotterdam", 44, "Anderson PLC", 348, 20, null, "2024-02-25"], ["INV-4308", "porto", 7, "Davis and Sons", 32, 20, 67.02, "2024-03-20"], ["INV-4315", "leipzig", 8, "Anderson PLC", 355, 20, 86.41, "2024-02-22"], ["INV-4322", "porto", 30, "Taylor-Bell", 32, 20, 85.03, "2024-04-09"], ["INV-4329", "lyon", 74, "Howell-Martin", 0, 50, 12.06, "2024-02-14"], ["INV-4336", "rotterdam", 44, "Davis and Sons", 21, 20, 60.22, "2024-03-16"], ["INV-4343", "gdansk", 8, "Howell-Martin", 0, 100, 48.36, "2024-03-08"], ["INV-4350", "rotterdam", 7, "Howell-Martin", 24, 25, 7.15, "2024-04-08"], ["INV-4357", "gdansk", 8, "Howell-Martin", 0, 20, 24.47, "2024-02-03"], ["INV-4364", "gdansk", 8, "Brown, Schwartz and Johnson", 0, 50, 22.6, "2024-02-25"], ["INV-4371", "porto", 8, "Anderson PLC", 0, 20, 147.26, "2024-04-27"], ["INV-4378", "leipzig", 7, "Davis and Sons", 22, 50, 143.89, "2024-04-17"], ["INV-4385", "lyon", 83, "Miller-Livingston", 29, 25, 25.85, "2024-04-02"], ["INV-4392", "rotterdam", 74, "Miller-Livingston", 294, 50, 118.37, "2024-03-18"], ["INV-4399", "lyon", 83, "Hernandez PLC", 0, 10, 7.87, "2024-03-30"], ["INV-4406", "porto", 74, "Howell-Martin", 54, 20, 116.79, "2024-04-19"], ["INV-4413", "leipzig", 8, "Morris Group", 0, 20, 131.31, "2024-03-29"], ["INV-4420", "leipzig", null, "Davis and Sons", 377, 10, 38.33, "2024-03-26"], ["INV-4427", "leipzig", 74, "Miller-Livingston", 305, 25, 133.89, "2024-04-21"], ["INV-4434", "leipzig", 7, "Taylor-Bell", 348, 10, 113.94, "2024-04-24"], ["INV-4441", "leipzig", 8, "Taylor-Bell", 22, 100, 37.01, "2024-04-18"], ["INV-4448", "porto", 30, "Miller-Livingston", 449, 20, 14.86, "2024-04-01"], ["INV-4455", "gdansk", 30, "Howell-Martin", null, 20, 19.73, "2024-04-14"], ["INV-4462", "rotterdam", 44, "Miller-Livingston", 386, 100, 69.34, "2024-02-17"], ["INV-4469", "gdansk", 74, "Hernandez PLC", 29, 20, 25.2, "2024-03-16"], ["INV-4476", "rotterdam", 7, "Davis and Sons", 264, 20, 152.18, "2024-02-19"], ["INV-4483", "leipzig", 74, "Howell-Martin", 328, 10, 28.29, "2024-04-19"], ["INV-4490", "gdansk", 83, "Davis and Sons", 11, 10, 79.61, "2024-02-17"], ["INV-4497", "rotterdam", 74, "Miller-Livingston", 33, 50, 116.88, "2024-04-19"], ["INV-4504", "porto", 83, "Anderson PLC", 17, 20, 150.81, "2024-04-01"], ["INV-4511", "gdansk", 8, "Howell-Martin", 32, 50, 124.27, "2024-03-01"], ["INV-4518", "lyon", 74, "Brown, Schwartz and Johnson", 0, 20, 154.77, "2024-04-14"], ["INV-4525", "leipzig", 83, "Hernandez PLC", 0, 20, 15.11, "2024-02-08"], ["INV-4532", "rotterdam", 7, "Hernandez PLC", 14, 20, 31.99, "2024-04-28"], ["INV-4539", "leipzig", 44, "Howell-Martin", 5, 50, 124.07, "2024-02-23"], ["INV-4546", "gdansk", 74, "Miller-Livingston", 25, 100, 68.45, "2024-02-02"], ["INV-4553", "rotterdam", 7, "Brown, Schwartz and Johnson", 17, 50, 35.97, "2024-04-22"], ["INV-4560", "leipzig", 83, "Hernandez PLC", 0, 20, 171.5, "2024-03-08"], ["INV-4567", "leipzig", 44, "Howell-Martin", 0, 25, 147.3, "2024-03-21"], ["INV-4574", "porto", 8, "Taylor-Bell", 52, 50, 86.61, "2024-02-07"], ["INV-4581", "leipzig", 8, "Morris Group", 537, 25, 158.35, "2024-04-26"], ["INV-4588", "lyon", 7, "Howell-Martin", 7, 25, 62.93, "2024-04-30"], ["INV-4595", "porto", 74, "Taylor-Bell", 0, 50, 37.09, "2024-02-08"], ["INV-4602", "porto", 83, "Morris Group", 29, 20, 105.68, "2024-02-13"], ["INV-4609", "porto", 44, "Anderson PLC", 10, 50, 29.96, "2024-03-29"], ["INV-4616", "lyon", 83, "Brown, Schwartz and Johnson", 32, 50, 91.62, "2024-02-25"], ["INV-4623", "gdansk", 83, "Hernandez PLC", 0, 25, 151.4, "2024-04-03"], ["INV-4630", "porto", 8, "Hernandez PLC", 12, 20, 30.4, "2024-03-02"], ["INV-4637", "leipzig", 44, "Miller-Livingston", 36, 100, 9.73, "2024-03-20"], ["INV-4644", "gdansk", 7, "Miller-Livingston", 184, 100, 57.24, "2024-02-28"], ["INV-4651", "rotterdam", 8, "Howell-Martin", 0, 100, 1.22, "2024-03-29"], ["INV-4658", "rotterdam", 44, "Morris Group", 0, 20, 172.42, "2024-03-18"], ["INV-4665", "lyon", 30, "Brown, Schwartz and Johnson", 26, 25, 27.1, "2024-04-05"]]}}}, "out": "", "variant": "update"}')


def connect():
    try:
        return sqlite3.connect(f"file:{SPEC['db']}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        print(f"FAIL: cannot open {SPEC['db']}: {exc}")
        sys.exit(1)


def digest(db, table):
    rows = db.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall()
    return hashlib.sha256(json.dumps([list(r) for r in rows]).encode()).hexdigest()


db = connect()
try:
    if SPEC["variant"] != "update":
        for table, want in SPEC["digests"].items():
            try:
                if digest(db, table) != want:
                    fail(f"table {table} was modified; the task only reads the database")
            except sqlite3.Error as exc:
                fail(f"table {table}: {exc}")
        compare_output(SPEC["out"], "csv", SPEC["expected"])
    else:
        for table, want in SPEC["expected"]["tables"].items():
            try:
                columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
                if not columns:
                    fail(f"table {table} does not exist")
                    continue
                if columns != want["columns"]:
                    fail(f"table {table}: columns {columns}, expected {want['columns']}")
                    continue
                order = want["order"]
                got = db.execute(f'SELECT * FROM "{table}" ORDER BY "{order}"').fetchall()
            except sqlite3.Error as exc:
                fail(f"table {table}: {exc}")
                continue
            same(table, want["rows"], [list(r) for r in got])
        index = SPEC["expected"]["index"]
        if index:
            names = [r[1] for r in db.execute(f'PRAGMA index_list("{index["table"]}")')]
            if index["name"] not in names:
                fail(f"index {index['name']} does not exist on {index['table']} (indexes: {names})")
            else:
                cols = [r[2] for r in db.execute(f'PRAGMA index_info("{index["name"]}")')]
                if cols != index["columns"]:
                    fail(f"index {index['name']} covers {cols}, expected {index['columns']}")
finally:
    db.close()
finish(SPEC["out"] or SPEC["db"])
