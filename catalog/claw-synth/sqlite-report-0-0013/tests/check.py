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

SPEC = json.loads('{"db": "/app/data/app.db", "expected": {"index": {"columns": ["status_id"], "name": "idx_card_transactions_status_id", "table": "card_transactions"}, "tables": {"card_transactions": {"columns": ["txn_id", "account", "txn_date", "merchant", "merchant_category", "amount", "currency", "status_id"], "order": "txn_id", "rows": [["T-700042", "ACC-3699", "2024-04-07", "noodle bar", "dining", 242.48, "USD", 43], ["T-700043", "ACC-6854", "2024-04-28", "skyjet", "travel", 125.5, "EUR", 66], ["T-700044", "ACC-1208", "2024-05-25", "green basket", "grocery", 186.09, "EUR", 49], ["T-700045", "ACC-2564", "2024-06-11", "fuelstop", "fuel", 163.33, "EUR", 43], ["T-700046", "ACC-5939", "2024-06-15", "freshmart", "grocery", 11.85, "USD", 43], ["T-700047", "ACC-2913", "2024-06-15", "green basket", "grocery", 191.3, "EUR", 43], ["T-700048", "ACC-2913", "2024-04-23", "noodle bar", "dining", 127.93, "GBP", 66], ["T-700049", "ACC-2435", "2024-05-20", "citypower", "utilities", 371.04, "EUR", 43], ["T-700050", "ACC-6991", "2024-06-01", "railone", "travel", 201.26, "EUR", 43], ["T-700051", "ACC-9207", "2024-05-19", "carepharm", "health", 410.35, "EUR", 49], ["T-700052", "ACC-6854", "2024-05-10", "railone", "travel", 379.97, "EUR", 43], ["T-700053", "ACC-9207", "2024-06-04", "skyjet", "travel", -246.78, "EUR", 66], ["T-700054", "ACC-1593", "2024-05-20", "carepharm", "health", 226.5, "EUR", 43], ["T-700055", "ACC-9207", "2024-04-05", "skyjet", "travel", 84.02, "USD", 43], ["T-700056", "ACC-3811", "2024-05-17", "carepharm", "health", 75.74, "USD", 43], ["T-700057", "ACC-3699", "2024-06-05", "carepharm", "health", 43.66, "EUR", 43], ["T-700058", "ACC-4433", "2024-05-09", "trattoria roma", "dining", 243.2, "USD", 43], ["T-700059", "ACC-2913", "2024-05-10", "carepharm", "health", 295.44, "EUR", 43], ["T-700060", "ACC-2913", "2024-06-07", "noodle bar", "dining", 99.59, "USD", 49], ["T-700061", "ACC-5939", "2024-05-31", "skyjet", "travel", 367.81, "GBP", 43], ["T-700062", "ACC-2564", "2024-05-29", "skyjet", "travel", 170.71, "USD", 66], ["T-700063", "ACC-2435", "2024-05-06", "carepharm", "health", 195.8, "EUR", 43], ["T-700064", "ACC-3327", "2024-05-31", "carepharm", "health", 302.29, "EUR", 66], ["T-700065", "ACC-3699", "2024-05-13", "byte shop", "electronics", null, "GBP", 43], ["T-700066", "ACC-6854", "2024-05-25", "noodle bar", "dining", 169.18, "EUR", 43], ["T-700067", "ACC-4666", "2024-05-01", "byte shop", "electronics", 266.23, "GBP", 66], ["T-700068", "ACC-2564", "2024-05-29", "carepharm", "health", -384.25, "EUR", 43], ["T-700069", "ACC-3699", "2024-06-14", "citypower", "utilities", 46.03, "EUR", 66], ["T-700070", "ACC-2334", "2024-04-18", "techcorner", "electronics", 286.87, "USD", 43], ["T-700071", "ACC-4218", "2024-04-05", "fuelstop", "fuel", 186.66, "EUR", 43], ["T-700072", "ACC-8033", "2024-05-21", "fuelstop", "fuel", -151.96, "GBP", 66], ["T-700073", "ACC-4218", "2024-06-09", "citypower", "utilities", 180.73, "EUR", 66], ["T-700074", "ACC-4666", "2024-06-16", "skyjet", "travel", 189.02, "EUR", 49], ["T-700075", "ACC-1593", "2024-06-24", "carepharm", "Health", 111.23, "EUR", 43], ["T-700076", "ACC-6854", "2024-06-15", "techcorner", "electronics", 91.84, "USD", 43], ["T-700077", "ACC-2435", "2024-06-02", "trattoria roma", "dining", 183.02, "EUR", 43], ["T-700078", "ACC-2334", "2024-05-18", "noodle bar", "dining", 331.09, "EUR", 43], ["T-700079", "ACC-6175", "2024-05-18", "railone", "travel", 207.14, "EUR", 43], ["T-700080", "ACC-3811", "2024-04-28", "carepharm", "health", 109.23, "EUR", 43], ["T-700081", "ACC-2913", "2024-06-28", "noodle bar", "dining", -231.77, "GBP", 49], ["T-700082", "ACC-2913", "2024-05-18", "green basket", "grocery", 127.8, "GBP", 66], ["T-700083", "ACC-1593", "2024-04-24", "citypower", "utilities", 325.94, "EUR", 66], ["T-700084", "ACC-3699", "2024-05-30", "carepharm", "health", 302.75, "USD", 43], ["T-700085", "ACC-6854", "2024-05-05", "fuelstop", "fuel", 43.44, "GBP", 66], ["T-700086", "ACC-3699", "2024-04-12", "green basket", "grocery", 311.43, "gbp", 43], ["T-700087", "ACC-4218", "2024-04-16", "noodle bar", "dining", 404.32, "USD", 43], ["T-700088", "ACC-2564", "2024-05-27", "byte shop", "electronics", 340.12, "EUR", 43], ["T-700089", "ACC-2564", "2024-04-06", "carepharm", "health", 412.52, "EUR", 66], ["T-700090", "ACC-2564", "2024-05-21", "carepharm", "health", 346.31, "EUR", 43], ["T-700091", "ACC-2435", "2024-06-22", "citypower", "utilities", 64.44, "GBP", 66], ["T-700092", "ACC-3327", "2024-05-22", "trattoria roma", "dining", 98.98, "GBP", 66], ["T-700093", "ACC-2564", "2024-06-18", "railone", "travel", 254.71, "USD", 43], ["T-700094", "ACC-2564", "2024-06-08", "fuelstop", "fuel", 92.65, "EUR", 43], ["T-700095", "ACC-1208", "2024-04-13", "noodle bar", "dining", -312.46, "USD", 43], ["T-700096", "ACC-6991", "2024-05-07", "carepharm", "health", -74.14, "USD", 66], ["T-700097", "ACC-8033", "2024-06-04", "skyjet", "travel", 147.43, "EUR", 43], ["T-700098", "ACC-6175", "2024-04-17", "citypower", "utilities", 152.89, "GBP", 43], ["T-700099", "ACC-2334", "2024-06-11", "byte shop", "electronics", 351.52, "EUR", 43], ["T-700100", "ACC-8646", "2024-06-27", "freshmart", "grocery", 391.85, "GBP", 43], ["T-700101", "ACC-3699", "2024-05-24", "green basket", "grocery", 382.69, "GBP", 43], ["T-700102", "ACC-1593", "2024-04-04", "fuelstop", "fuel", 46.05, "GBP", 66], ["T-700103", "ACC-3327", "2024-05-18", "citypower", "utilities", 375.34, "EUR", 66], ["T-700104", "ACC-2334", "2024-04-14", "techcorner", "electronics", 345.33, "EUR", 43], ["T-700105", "ACC-9207", "2024-05-17", "fuelstop", "fuel", 332.6, "EUR", 49], ["T-700106", "ACC-3327", "2024-05-08", "railone", "travel", 306.65, "EUR", 43], ["T-700107", "ACC-2913", "2024-04-26", "trattoria roma", "dining", 386.61, "GBP", 66], ["T-700108", "ACC-2913", "2024-04-22", "fuelstop", "fuel", 322.3, "EUR", 49], ["T-700109", "ACC-1208", "2024-04-03", "fuelstop", "fuel", 147.18, "GBP", 43], ["T-700110", "ACC-3699", "2024-06-18", "trattoria roma", "dining", 379.24, "GBP", 43], ["T-700111", "ACC-1593", "2024-04-13", "noodle bar", "dining", 367.97, "USD", 43], ["T-700112", "ACC-3699", "2024-04-10", "fuelstop", "fuel", 359.21, "USD", 43], ["T-700113", "ACC-8646", "2024-04-01", "carepharm", "health", 288.14, "GBP", 43], ["T-700114", "ACC-8033", "2024-05-20", "trattoria roma", "dining", 118.54, "GBP", 43], ["T-700115", "ACC-2913", "2024-06-19", "techcorner", "electronics", 43.99, "EUR", 49], ["T-700116", "ACC-2564", "2024-04-05", "trattoria roma", "dining", 290.17, "EUR", 43], ["T-700117", "ACC-1593", "2024-04-09", "trattoria roma", "dining", 43.95, "USD", 43], ["T-700118", "ACC-2334", "2024-06-21", "byte shop", "electronics", 184.79, "EUR", 43], ["T-700119", "ACC-6175", "2024-04-19", "citypower", "utilities", 151.62, "EUR", 66], ["T-700120", "ACC-4433", "2024-05-28", "carepharm", "health", 40.55, "USD", 43], ["T-700121", "ACC-2334", "2024-05-11", "skyjet", "travel", 316.88, "EUR", 43], ["T-700122", "ACC-6991", "2024-04-15", "citypower", "utilities", 50.8, "GBP", 66], ["T-700123", "ACC-2913", "2024-05-29", "techcorner", "electronics", null, "USD", 43], ["T-700124", "ACC-9207", "2024-05-05", "carepharm", "health", 330.6, "EUR", 66], ["T-700125", "ACC-9207", "2024-06-12", "carepharm", "health", null, "EUR", 66], ["T-700126", "ACC-8646", "2024-06-21", "citypower", "utilities", 250.43, "USD", 49], ["T-700127", "ACC-4433", "2024-05-29", "techcorner", "electronics", 307.49, "GBP", 43], ["T-700128", "ACC-5939", "2024-04-17", "carepharm", "health", 277.87, "USD", 66], ["T-700129", "ACC-9207", "2024-05-27", "noodle bar", "dining", 118.12, "USD", 43], ["T-700130", "ACC-2913", "2024-05-18", "freshmart", "grocery", 84.66, "GBP", 66], ["T-700131", "ACC-4433", "2024-06-14", "fuelstop", "fuel", 50.44, "GBP", 66], ["T-700132", "ACC-8033", "2024-05-24", "fuelstop", "fuel", 314.65, "EUR", 66], ["T-700133", "ACC-2435", "2024-05-03", "fuelstop", "fuel", null, "EUR", 43], ["T-700134", "ACC-2913", "2024-05-20", "fuelstop", "fuel", 201.88, "EUR", 43], ["T-700135", "ACC-3811", "2024-06-15", "noodle bar", "dining", 390.63, "USD", 66], ["T-700136", "ACC-3327", "2024-05-07", "fuelstop", "fuel", 416.72, "EUR", 49], ["T-700137", "ACC-3327", "2024-05-11", "railone", "travel", 248.43, "EUR", 49], ["T-700138", "ACC-1593", "2024-04-27", "byte shop", "electronics", 303.56, "EUR", 66], ["T-700139", "ACC-2564", "2024-05-28", "citypower", "utilities", 52.32, "EUR", 49], ["T-700140", "ACC-4433", "2024-04-18", "fuelstop", "fuel", 54.86, "USD", 43], ["T-700141", "ACC-6175", "2024-06-19", "trattoria roma", "dining", 18.91, "GBP", 66], ["T-700142", "ACC-4666", "2024-04-25", "citypower", "utilities", 202.85, "EUR", 66], ["T-700143", "ACC-6854", "2024-05-26", "carepharm", "health", 99.65, "GBP", 43], ["T-700144", "ACC-8646", "2024-06-29", "carepharm", "health", 404.17, "EUR", 43], ["T-700145", "ACC-6175", "2024-04-18", "freshmart", "grocery", -288.71, "GBP", 43], ["T-700146", "ACC-2913", "2024-06-25", "trattoria roma", "dining", 363.46, "EUR", 43], ["T-700147", "ACC-3811", "2024-06-30", "freshmart", "grocery", 36.69, "EUR", 43], ["T-700148", "ACC-1208", "2024-04-23", "green basket", "grocery", 342.77, "EUR", 49], ["T-700149", "ACC-1593", "2024-05-18", "freshmart", "grocery", 239.5, "GBP", 43], ["T-700150", "ACC-2913", "2024-04-23", "fuelstop", "fuel", 359.36, "EUR", null], ["T-700151", "ACC-4218", "2024-05-17", "railone", "travel", 348.1, "EUR", 43], ["T-700152", "ACC-1208", "2024-04-05", "railone", "travel", 323.19, "EUR", 43], ["T-700153", "ACC-2334", "2024-05-30", "railone", "travel", 250.94, "EUR", 66], ["T-700154", "ACC-2913", "2024-06-26", "noodle bar", "dining", 206.88, "GBP", 66], ["T-700155", "ACC-6854", "2024-06-03", "green basket", "grocery", 170.52, "EUR", 66], ["T-700156", "ACC-6854", "2024-06-19", "noodle bar", "dining", 320.59, "USD", 66], ["T-700157", "ACC-8033", "2024-05-24", "citypower", "utilities", 386.41, "USD", 49], ["T-700158", "ACC-4433", "2024-06-23", "byte shop", "electronics", 274.65, "EUR", 66], ["T-700159", "ACC-5939", "2024-05-19", "freshmart", "grocery", 61.76, "GBP", 66], ["T-700160", "ACC-4666", "2024-06-11", "freshmart", "grocery", 4.5, "USD", 66], ["T-700161", "ACC-2435", "2024-06-26", "railone", "travel", 403.95, "EUR", 43], ["T-700162", "ACC-3699", "2024-06-22", "techcorner", "electronics", 26.11, "GBP", 49], ["T-700163", "ACC-2564", "2024-04-18", "fuelstop", "fuel", 414.49, "GBP", 97], ["T-700164", "ACC-8033", "2024-05-06", "citypower", "utilities", 228.63, "EUR", 43], ["T-700165", "ACC-4433", "2024-06-09", "fuelstop", "fuel", 50.93, "GBP", 43], ["T-700166", "ACC-6175", "2024-05-11", "techcorner", "electronics", 106.43, "EUR", 43], ["T-700167", "ACC-5939", "2024-06-05", "fuelstop", "fuel", 344.02, "USD", 66], ["T-700168", "ACC-6175", "2024-05-18", "citypower", "utilities", 340.08, "EUR", 43], ["T-700169", "ACC-2564", "2024-04-17", "citypower", "utilities", 36.58, "EUR", 43], ["T-700170", "ACC-1593", "2024-04-18", "trattoria roma", "dining", 171.59, "EUR", 43], ["T-700171", "ACC-4666", "2024-06-06", "trattoria roma", "dining", 43.81, "EUR", 43], ["T-700172", "ACC-8033", "2024-04-08", "fuelstop", "fuel", 221.12, "EUR", 43], ["T-700173", "ACC-4666", "2024-06-17", "carepharm", "health", 268.92, "USD", 49], ["T-700174", "ACC-2334", "2024-05-10", "citypower", "utilities", 215.68, "EUR", 43], ["T-700175", "ACC-2913", "2024-06-11", "railone", "travel", 400.99, "EUR", 43], ["T-700176", "ACC-8033", "2024-06-21", "fuelstop", "fuel", 221.06, "GBP", 66], ["T-700177", "ACC-2913", "2024-06-10", "fuelstop", "fuel", 106.01, "GBP", 43], ["T-700178", "ACC-2913", "2024-05-14", "freshmart", "grocery", 291.61, "EUR", 43]]}, "statuses": {"columns": ["id", "name", "manager", "tier"], "order": "id", "rows": [[9, "South Sarah", "Rachel Wade", "gold"], [43, "settled", "Lisa Saunders", "gold"], [44, "South John", "Marissa Whitehead", "bronze"], [49, "pending", "Rita Howard", "bronze"], [66, "reversed", "Jeffrey Brown", "silver"]]}}}, "out": "", "variant": "update"}')


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
