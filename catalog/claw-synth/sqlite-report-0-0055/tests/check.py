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

SPEC = json.loads('{"db": "/app/db/card_transactions.sqlite3", "expected": {"index": {"columns": ["status"], "name": "idx_card_transactions_status", "table": "card_transactions"}, "tables": {"card_transactions": {"columns": ["txn_id", "account", "txn_date", "merchant", "merchant_category_id", "amount", "currency", "status"], "order": "txn_id", "rows": [["T-700112", "ACC-3699", "2024-04-10", "FuelStop", 46, 359.21, "USD", "settled"], ["T-700113", "ACC-8646", "2024-04-01", "CarePharm", 57, 288.14, "GBP", "settled"], ["T-700114", "ACC-8033", "2024-05-20", "Trattoria Roma", 79, 118.54, "GBP", "settled"], ["T-700115", "ACC-2913", "2024-06-19", "TechCorner", 89, 43.99, "EUR", "pending"], ["T-700116", "ACC-2564", "2024-04-05", "Trattoria Roma", 79, 290.17, "EUR", "settled"], ["T-700117", "ACC-1593", "2024-04-09", "Trattoria Roma", 79, 43.95, "USD", "settled"], ["T-700118", "ACC-2334", "2024-06-21", "Byte Shop", 89, 184.79, "EUR", "settled"], ["T-700119", "ACC-6175", "2024-04-19", "CityPower", 45, 151.62, "EUR", "reversed"], ["T-700120", "ACC-4433", "2024-05-28", "CarePharm", 57, 40.55, "USD", "settled"], ["T-700121", "ACC-2334", "2024-05-11", "SkyJet", 30, 316.88, "EUR", "settled"], ["T-700122", "ACC-6991", "2024-04-15", "CityPower", 45, 50.8, "GBP", "reversed"], ["T-700123", "ACC-2913", "2024-05-29", "TechCorner", 89, null, "USD", "settled"], ["T-700124", "ACC-9207", "2024-05-05", "CarePharm", 57, 330.6, "EUR", "reversed"], ["T-700125", "ACC-9207", "2024-06-12", "CarePharm", 57, null, "EUR", "declined"], ["T-700126", "ACC-8646", "2024-06-21", "CityPower", 45, 250.43, "USD", "pending"], ["T-700127", "ACC-4433", "2024-05-29", "TechCorner", 89, 307.49, "GBP", "settled"], ["T-700128", "ACC-5939", "2024-04-17", "CarePharm", 57, 277.87, "USD", "reversed"], ["T-700129", "ACC-9207", "2024-05-27", "Noodle Bar", 79, 118.12, "USD", "settled"], ["T-700130", "ACC-2913", "2024-05-18", "FreshMart", 22, 84.66, "GBP", "reversed"], ["T-700131", "ACC-4433", "2024-06-14", "FuelStop", 46, 50.44, "GBP", "reversed"], ["T-700132", "ACC-8033", "2024-05-24", "FuelStop", 46, 314.65, "EUR", "reversed"], ["T-700133", "ACC-2435", "2024-05-03", "FuelStop", 46, null, "EUR", "settled"], ["T-700134", "ACC-2913", "2024-05-20", "FuelStop", 46, 201.88, "EUR", "settled"], ["T-700135", "ACC-3811", "2024-06-15", "Noodle Bar", 79, 390.63, "USD", "reversed"], ["T-700136", "ACC-3327", "2024-05-07", "FuelStop", 46, 416.72, "EUR", "pending"], ["T-700137", "ACC-3327", "2024-05-11", "RailOne", 30, 248.43, "EUR", "pending"], ["T-700138", "ACC-1593", "2024-04-27", "Byte Shop", 89, 303.56, "EUR", "reversed"], ["T-700139", "ACC-2564", "2024-05-28", "CityPower", 45, 52.32, "EUR", "pending"], ["T-700140", "ACC-4433", "2024-04-18", "FuelStop", 46, 54.86, "USD", "settled"], ["T-700141", "ACC-6175", "2024-06-19", "Trattoria Roma", 79, 18.91, "GBP", "declined"], ["T-700142", "ACC-4666", "2024-04-25", "CityPower", 45, 202.85, "EUR", "reversed"], ["T-700143", "ACC-6854", "2024-05-26", "CarePharm", 57, 99.65, "GBP", "settled"], ["T-700144", "ACC-8646", "2024-06-29", "CarePharm", 57, 404.17, "EUR", "settled"], ["T-700145", "ACC-6175", "2024-04-18", "FreshMart", 22, -288.71, "GBP", "settled"], ["T-700146", "ACC-2913", "2024-06-25", "Trattoria Roma", 79, 363.46, "EUR", "settled"], ["T-700147", "ACC-3811", "2024-06-30", "FreshMart", 22, 36.69, "EUR", "settled"], ["T-700148", "ACC-1208", "2024-04-23", "Green Basket", 22, 342.77, "EUR", "pending"], ["T-700149", "ACC-1593", "2024-05-18", "FreshMart", 99, 239.5, "GBP", "settled"], ["T-700150", "ACC-2913", "2024-04-23", "FuelStop", 46, 359.36, "EUR", "pending"], ["T-700151", "ACC-4218", "2024-05-17", "RailOne", 30, 348.1, "EUR", "settled"], ["T-700152", "ACC-1208", "2024-04-05", "RailOne", 30, 323.19, "EUR", "settled"], ["T-700153", "ACC-2334", "2024-05-30", "RailOne", 30, 250.94, "EUR", "declined"], ["T-700154", "ACC-2913", "2024-06-26", "Noodle Bar", 79, 206.88, "GBP", "reversed"], ["T-700155", "ACC-6854", "2024-06-03", "Green Basket", 22, 170.52, "EUR", "reversed"], ["T-700156", "ACC-6854", "2024-06-19", "Noodle Bar", 79, 320.59, "USD", "reversed"], ["T-700157", "ACC-8033", "2024-05-24", "CityPower", 45, 386.41, "USD", "pending"], ["T-700158", "ACC-4433", "2024-06-23", "Byte Shop", 89, 274.65, "EUR", "declined"], ["T-700159", "ACC-5939", "2024-05-19", "FreshMart", 22, 61.76, "GBP", "declined"], ["T-700160", "ACC-4666", "2024-06-11", "FreshMart", 22, 4.5, "USD", "declined"], ["T-700161", "ACC-2435", "2024-06-26", "RailOne", 30, 403.95, "EUR", "settled"], ["T-700162", "ACC-3699", "2024-06-22", "TechCorner", 89, 26.11, "GBP", "pending"], ["T-700163", "ACC-2564", "2024-04-18", "FuelStop", 46, 414.49, "GBP", "settled"], ["T-700164", "ACC-8033", "2024-05-06", "CityPower", 45, 228.63, "EUR", "settled"], ["T-700165", "ACC-4433", "2024-06-09", "FuelStop", 46, 50.93, "GBP", "settled"], ["T-700166", "ACC-6175", "2024-05-11", "TechCorner", 89, 106.43, "EUR", "settled"], ["T-700167", "ACC-5939", "2024-06-05", "FuelStop", 46, 344.02, "USD", "declined"], ["T-700168", "ACC-6175", "2024-05-18", "CityPower", 45, 340.08, "EUR", "settled"], ["T-700169", "ACC-2564", "2024-04-17", "CityPower", 45, 36.58, "EUR", "settled"], ["T-700170", "ACC-1593", "2024-04-18", "Trattoria Roma", 79, 171.59, "EUR", "settled"], ["T-700171", "ACC-4666", "2024-06-06", "Trattoria Roma", 79, 43.81, "EUR", "settled"], ["T-700172", "ACC-8033", "2024-04-08", "FuelStop", 46, 221.12, "EUR", "settled"], ["T-700173", "ACC-4666", "2024-06-17", "CarePharm", 57, 268.92, "USD", "pending"], ["T-700174", "ACC-2334", "2024-05-10", "CityPower", 45, 215.68, "EUR", "settled"], ["T-700175", "ACC-2913", "2024-06-11", "RailOne", 30, 400.99, "EUR", "settled"], ["T-700176", "ACC-8033", "2024-06-21", "FuelStop", 46, 221.06, "GBP", "reversed"], ["T-700177", "ACC-2913", "2024-06-10", "FuelStop", 46, 106.01, "GBP", "settled"], ["T-700178", "ACC-2913", "2024-05-14", "FreshMart", 22, 291.61, "EUR", "settled"], ["T-700179", "ACC-3327", "2024-06-15", "FuelStop", 46, 352.43, "EUR", "settled"], ["T-700180", "ACC-1593", "2024-04-25", "Trattoria Roma", 79, 246.68, "GBP", "declined"], ["T-700181", "ACC-4218", "2024-05-28", "FreshMart", 22, 234.84, "USD", "settled"], ["T-700182", "ACC-2564", "2024-04-14", "RailOne", 30, 152.06, "USD", "settled "], ["T-700183", "ACC-2435", "2024-05-17", "CityPower", 45, 289.11, "EUR", "pending"], ["T-700184", "ACC-8033", "2024-04-07", "CarePharm", 57, 102.83, "EUR", "settled"]]}, "merchant_categories": {"columns": ["id", "name", "manager", "tier"], "order": "id", "rows": [[22, "grocery", "Amanda Goodman", "gold"], [30, "travel", "Sean Garcia", "gold"], [41, "South Brian", "Alicia Anthony", "gold"], [45, "utilities", "Jeanette Johnson", "silver"], [46, "fuel", "Jennifer Jackson", "bronze"], [57, "health", "David Simmons", "bronze"], [79, "dining", "Abigail Perez", "bronze"], [80, "Tylerborough", "Tammy Zimmerman", "gold"], [89, "electronics", "Robert Mitchell", "bronze"]]}, "merchant_category_summary": {"columns": ["merchant_category_id", "name", "rows", "total_amount"], "order": "merchant_category_id", "rows": [[22, "grocery", 9, 938.64], [30, "travel", 8, 2444.54], [41, "South Brian", 0, 0.0], [45, "utilities", 11, 2204.51], [46, "fuel", 15, 3467.18], [57, "health", 9, 1812.73], [79, "dining", 12, 2333.33], [80, "Tylerborough", 0, 0.0], [89, "electronics", 8, 1247.02]]}}}, "out": "", "variant": "update"}')


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
