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

SPEC = json.loads('{"db": "/app/db/store.db", "digests": {"employees": "04afc15654e845528405a9f530ce2f8bfd4fc28508c2d6725f676cb8d9775475", "offices": "d6307738996009b2c532624f323d2651b539428f20ba9680361d9ba10e748791"}, "expected": [["month", "rows", "total_salary"], ["2015-01", "2", {"$num": 165000.0, "dp": 2}], ["2015-04", "1", {"$num": 167500.0, "dp": 2}], ["2015-11", "1", {"$num": 91000.0, "dp": 2}], ["2015-12", "1", {"$num": 153500.0, "dp": 2}], ["2016-02", "1", {"$num": 135500.0, "dp": 2}], ["2016-06", "1", {"$num": 97000.0, "dp": 2}], ["2016-10", "2", {"$num": 179000.0, "dp": 2}], ["2016-11", "1", {"$num": 167000.0, "dp": 2}], ["2016-12", "1", {"$num": 97000.0, "dp": 2}], ["2017-01", "1", {"$num": 121000.0, "dp": 2}], ["2017-02", "1", {"$num": 184500.0, "dp": 2}], ["2017-04", "1", {"$num": 178500.0, "dp": 2}], ["2017-05", "1", {"$num": 43000.0, "dp": 2}], ["2017-11", "1", {"$num": 122000.0, "dp": 2}], ["2017-12", "1", {"$num": 69500.0, "dp": 2}], ["2018-02", "2", {"$num": 211000.0, "dp": 2}], ["2018-03", "1", {"$num": 68500.0, "dp": 2}], ["2018-05", "1", {"$num": 71000.0, "dp": 2}], ["2018-08", "1", {"$num": 159000.0, "dp": 2}], ["2019-01", "1", {"$num": 78000.0, "dp": 2}], ["2019-11", "2", {"$num": 128500.0, "dp": 2}], ["2019-12", "1", {"$num": 64500.0, "dp": 2}], ["2020-03", "1", {"$num": 174500.0, "dp": 2}], ["2020-10", "3", {"$num": 360500.0, "dp": 2}], ["2020-11", "1", {"$num": 68500.0, "dp": 2}], ["2020-12", "1", {"$num": 74500.0, "dp": 2}], ["2021-01", "1", {"$num": 183000.0, "dp": 2}], ["2021-05", "2", {"$num": 307000.0, "dp": 2}], ["2021-07", "1", {"$num": 144000.0, "dp": 2}], ["2021-08", "1", {"$num": 58500.0, "dp": 2}], ["2021-10", "1", {"$num": 142000.0, "dp": 2}], ["2022-02", "1", {"$num": 61500.0, "dp": 2}], ["2022-03", "1", {"$num": 102000.0, "dp": 2}], ["2022-06", "2", {"$num": 235000.0, "dp": 2}], ["2022-09", "2", {"$num": 333000.0, "dp": 2}], ["2023-01", "2", {"$num": 288500.0, "dp": 2}], ["2023-02", "2", {"$num": 303000.0, "dp": 2}], ["2023-04", "1", {"$num": 159500.0, "dp": 2}], ["2023-06", "1", {"$num": 86500.0, "dp": 2}], ["2023-08", "1", {"$num": 42000.0, "dp": 2}], ["2023-10", "1", {"$num": 170500.0, "dp": 2}], ["2023-11", "1", {"$num": 47000.0, "dp": 2}], ["2024-02", "1", {"$num": 129500.0, "dp": 2}]], "out": "/app/exports/employees_per_month.csv", "variant": "monthly"}')


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
