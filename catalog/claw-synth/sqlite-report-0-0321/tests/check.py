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

SPEC = json.loads('{"db": "/app/app.sqlite", "expected": {"index": {"columns": ["hire_date"], "name": "idx_employees_hire_date", "table": "employees"}, "tables": {"contracts": {"columns": ["id", "name", "manager", "tier"], "order": "id", "rows": [[18, "part-time", "Daniel Hanna", "bronze"], [30, "contractor", "Christina Osborne", "bronze"], [31, "South Lisaview", "James Lopez", "silver"], [32, "West Kristenborough", "Chris Franco", "silver"], [57, "full-time", "James Mann", "gold"]]}, "employees": {"columns": ["employee_id", "full_name", "department", "office", "contract_id", "hire_date", "salary", "performance_score", "flagged"], "order": "employee_id", "rows": [["E1042", "Brian Smith", "Finance", "Berlin", 57, "2020-04-03", 89000, 2.9, 1], ["E1043", "John Carpenter", "Finance", "Remote", 57, "2015-07-23", null, 4.4, 1], ["E1044", "Stephanie Pennington", "Sales", "Singapore", 30, "2021-01-28", 183000, 2.5, 0], ["E1045", "Mark Foley", "Legal", "Remote", 18, "2017-12-15", 51000, 3.1, 1], ["E1046", "Angel Crawford", "Sales", "Austin", 18, "2015-02-08", 138000, 4.8, 1], ["E1047", "Rebecca Perez", "Support", "Remote", 57, "2016-07-30", 91500, 1.5, 0], ["E1048", "Tracey York", "Sales", "Toronto", 57, "2015-01-02", 63000, 4.6, 1], ["E1049", "Susan Roberts", "Marketing", "Austin", 30, "2019-05-09", 93500, 1.7, 0], ["E1050", "Angel Rojas", "Engineering", "Toronto", 57, "2024-02-14", 129500, 3.3, 1], ["E1051", "Jeffery Smith", "Support", "Remote", 18, "2015-04-14", 91500, 2.2, 0], ["E1052", "Charles Figueroa", "Operations", "Remote", 18, "2017-10-15", 48500, 1.6, 0], ["E1053", "Brenda Miller", "Engineering", "Singapore", 57, "2022-09-25", 175500, 3.7, 1], ["E1054", "Terry Moore", "Marketing", "Singapore", 57, "2016-10-08", 57000, 4.4, 1], ["E1055", "Darren Horn", "Legal", "Singapore", 18, "2016-11-03", 167000, 4.0, 1], ["E1056", "Kimberly Reyes", "Finance", "Remote", 18, "2017-09-30", 113500, 3.0, 1], ["E1057", "William Henry", "Legal", "Austin", 57, "2022-04-05", 82000, 1.4, 0], ["E1058", "Michele Harrison", "Marketing", "Toronto", 18, "2017-01-07", 121000, 3.3, 1], ["E1059", "Sara Miller", "Support", "Berlin", 30, "2017-11-02", 154500, 1.7, 0], ["E1060", "Tiffany Bryant", "Finance", "Berlin", 30, "2023-02-05", 69500, 1.0, 0], ["E1061", "Kevin Watson", "Operations", "Singapore", 57, "2023-10-30", 170500, 3.0, 1], ["E1062", "William Wheeler", "Support", "Remote", 18, "2017-11-01", 112500, 4.5, 1], ["E1063", "Gerald Ortiz", "Support", "Singapore", 57, "2022-06-21", 62500, 1.6, 0], ["E1064", "Diane Johnson", "Engineering", "Toronto", 57, "2023-08-05", 42000, 3.1, 1], ["E1065", "Jennifer Hendricks MD", "Legal", "  Austin", 57, "2015-01-01", 142000, 5.0, 1], ["E1066", "Susan Sullivan", "Marketing", "Austin", 18, "2019-09-19", 54500, 2.1, 0], ["E1067", "Luis Beasley", "Finance", "Toronto", 57, "2018-02-20", 165500, 1.7, 0], ["E1068", "Courtney Hall", "Sales", "Remote", 57, "2016-01-21", 148000, 1.2, 0], ["E1069", "Michelle Stone", "Sales", "Austin", 57, "2018-01-11", 174500, 4.2, 1], ["E1070", "Douglas Murphy", "Operations", "Singapore", 30, "2017-12-06", 69500, 1.9, 0], ["E1071", "Maria Wood", "Support", "toronto", 57, "2020-10-08", 136000, 1.9, 0], ["E1072", "Rachael Aguilar", "Operations", "Austin", 30, "2020-12-15", 49000, 3.3, 1], ["E1073", "Austin Wade", "Support", "Berlin", 57, "2018-09-03", 74500, 3.9, 1], ["E1074", "Kathryn Stafford", "Legal", "Austin", 57, "2023-01-27", 64500, 4.6, 1], ["E1075", "Jeremy Johnson", "Finance", "Singapore", 30, "2021-07-23", 144000, 2.8, 0], ["E1076", "Keith Bowman DDS", "Engineering", "Remote", 57, "2015-08-24", 49500, 3.4, 1], ["E1077", "Chris Butler", "Marketing", "Remote", 57, "2021-10-28", 63500, 3.1, 1], ["E1078", "Elizabeth Davidson", "Legal", "Berlin", 57, "2018-06-04", 169500, 3.4, 1], ["E1079", "Paul Hernandez", "Sales", "Toronto", 30, "2017-04-06", 178500, 3.8, 1], ["E1080", "Sandra Watts", "Marketing", "Singapore", 57, "2020-10-10", 58500, 1.1, 0], ["E1081", "Mary Mcneil", "Operations", "  Austin", null, "2017-08-30", 178500, 3.9, 1], ["E1082", "Carrie Ayala", "Engineering", "Toronto", 57, "2015-11-28", 91000, 2.4, 0], ["E1083", "Matthew Harmon", "Support", "Austin", 30, "2016-02-28", 66500, 4.5, 1], ["E1084", "Marisa Torres", "Support", "Singapore", 57, "2021-08-03", 58500, 3.4, 1], ["E1085", "Mark Cummings", "Support", "Toronto", 30, "2022-02-06", 61500, 3.6, 1], ["E1086", "Martha Porter", "Engineering", "Berlin", 18, "2019-09-24", 123500, 1.3, 0], ["E1087", "Ernest Henderson", "Legal", "Austin", 18, "2019-04-11", 138000, 1.8, 0], ["E1089", "Olivia Allen", "Operations", "Toronto", 57, "2019-01-08", 78000, 2.0, 0], ["E1090", "Karen Parker", "Marketing", "Berlin", 57, "2018-03-20", 69000, 2.0, 0], ["E1091", "Kimberly Miller", "Operations", "Remote", 57, "2022-12-16", 84500, 4.8, 1], ["E1092", "Stephanie Fields", "Finance", "Remote", 57, "2017-10-16", 152500, 1.5, 0], ["E1093", "Daniel Ramirez", "Legal", "Remote", 57, "2016-12-16", 64000, 1.7, 0], ["E1094", "Raymond Meyer", "Operations", "Remote", 57, "2018-04-09", 158000, 4.1, 1], ["E1096", "Rachel Huang", "Engineering", "Berlin", 30, "2018-09-19", 89000, 2.8, 0], ["E1097", "Raymond Peterson", "Finance", "Austin", 18, "2016-06-17", 162000, 4.4, 1], ["E1098", "Michelle Velez", "Sales", "Singapore", 57, "2022-09-04", 157500, 3.8, 1], ["E1099", "Amber Ballard", "Engineering", "Remote", 18, "2015-06-07", 150000, 1.8, 0], ["E1100", "Michael Riggs", "Finance", "Singapore", 57, "2016-12-05", 97000, 1.9, 0], ["E1101", "Ricardo Shannon", "Finance", "Berlin", 18, "2022-08-17", 57000, 2.7, 0], ["E1102", "Lisa Baker", "Finance", "Singapore", 57, "2023-06-10", 86500, 3.8, 1], ["E1103", "Justin Lyons", "Sales", "Austin", 57, "2020-01-03", 95000, 1.5, 0], ["E1104", "Sarah Mcneil", "Legal", "Toronto", 57, "2015-04-06", 167500, 1.5, 0], ["E1105", "Stephanie Zavala", "Support", "Austin", 57, "2017-01-10", 161500, 3.7, 1], ["E1106", "Katherine Baker", "Support", "Berlin", 57, "2022-04-15", 50000, 4.9, 1], ["E1107", "Jill Berry", "Finance", "Austin", 18, "2016-04-12", 103500, 1.7, 0], ["E1108", "Alicia Greene", "Support", "Toronto", 18, "2017-11-29", 122000, 3.2, 1], ["E1109", "Lisa Scott", "Support", "Austin", 57, "2023-07-23", 99500, 2.7, 0], ["E1110", "Shawn Dougherty", "Engineering", "Austin", 57, "2017-11-21", 42500, 1.3, 0], ["E1111", "Patricia Wright", "Finance", "Toronto", 57, "2018-02-22", 45500, 2.0, 0], ["E1112", "Anthony Paul", "Engineering", "Singapore", 57, "2018-08-09", 159000, 3.9, 1], ["E1113", "Michael Adams", "Engineering", "Toronto", 18, "2015-12-16", 153500, 2.9, 1], ["E1114", "Nathaniel Fisher", "Engineering", "Toronto", 57, "2017-02-08", 184500, 2.6, 0], ["E1115", "Mary Park", "Support", "Austin", 57, "2019-03-25", 107000, 2.2, 0], ["E1116", "Heather Bauer", "Legal", "Austin", 30, "2024-04-18", 88000, 4.8, 1], ["E1117", "Karen King", "Sales", "Toronto", 57, "2016-06-06", 97000, 3.6, 1], ["E1118", "Kristen Hull", "Marketing", "Berlin", 30, "2022-06-18", 121500, 2.6, 0], ["E1119", "Tracy Hicks", "Marketing", "Singapore", 18, "2018-05-08", 71000, 2.9, 1], ["E1120", "Lauren Campbell", "Marketing", "Toronto", 18, "2019-11-15", 77000, 3.8, 1], ["E1121", "Kenneth Parks", "Sales", "Remote", 57, "2020-06-23", 137000, 3.6, 1], ["E1122", "Amber Cross", "Support", "Remote", 96, "2016-02-25", 105500, 2.0, 0], ["E1123", "Michael Miller", "Operations", "Toronto", 18, "2023-02-25", 133500, 2.5, 0], ["E1124", "Jacqueline Melton", "Marketing", "Remote", 57, "2016-04-12", 54500, 1.6, 0], ["E1125", "Courtney Flores", "Operations", "Remote", 18, "2022-10-25", 178000, 2.3, 0], ["E1126", "Dr. Madison Stewart", "Finance", "Berlin", 57, "2021-05-16", 65000, 4.8, 1], ["E1127", "Robin Perez", "Operations", "Austin", 57, "2019-06-15", 172500, 1.5, 0], ["E1128", "William Salazar", "Legal", "Austin", 57, "2019-05-19", 184500, 4.7, 1], ["E1129", "Dr. Cody Hebert MD", "Support", "Remote", 57, "2017-12-29", 99500, 4.4, 1], ["E1130", "Tracey Larson", "Engineering", "Berlin", 57, "2020-05-08", 158000, 2.3, 0], ["E1131", "Carlos Johnson", "Support", "Singapore", 57, "2018-03-18", 68500, 4.7, 1], ["E1132", "Joshua Hunter", "Finance", "Austin", 18, "2015-09-16", 183500, 1.0, 0], ["E1133", "Jennifer Medina", "Operations", "Singapore", 57, "2023-01-10", 149000, 1.4, 0], ["E1134", "Robin Williams", "Marketing", "Remote", 18, "2016-04-02", 128000, 2.6, 0], ["E1135", "Anthony Bennett", "Sales", "Austin", 57, "2019-05-17", 152000, 4.1, 1], ["E1136", "Natalie Gregory", "Legal", "Singapore", 57, "2017-01-16", null, 2.9, 1], ["E1137", "Brandon Yang", "Engineering", "Austin", 57, "2021-09-02", 55000, 2.7, 0], ["E1138", "Joseph Rojas", "Sales", "Singapore", 57, "2021-05-04", 138500, 4.5, 1], ["E1139", "Stephanie Marshall", "Support", "Remote", 57, "2015-02-22", 173500, 1.7, 0], ["E1140", "Donald Bird", "Sales", "Remote", 57, "2023-10-06", 77000, 1.5, 0], ["E1142", "Pamela Cunningham", "Finance", "Remote", 30, "2020-09-30", 179500, 1.2, 0], ["E1143", "Michael Shelton", "Sales", "Berlin", 18, "2022-12-05", 66000, 2.5, 0], ["E1144", "Lee Hernandez", "Legal", "Austin", 57, "2015-08-30", 126000, 4.3, 1], ["E1145", "Sharon Copeland", "Support", "Singapore", 18, "2023-04-10", 159500, 4.9, 1], ["E1146", "Robin Hays", "Support", "Berlin", 57, "2015-11-11", 100500, 3.4, 1], ["E1147", "Adriana Maxwell", "Finance", "Toronto", 57, "2021-10-20", 142000, 4.0, 1], ["E1148", "James Lang", "Marketing", "Austin", 57, "2017-05-27", 71000, 2.1, 0], ["E1149", "Melissa Lawson", "Sales", "Berlin", 57, "2015-09-14", 115500, 3.9, 1], ["E1150", "Mark Hester", "Legal", "Toronto", 30, "2020-03-12", 174500, 4.5, 1], ["E1151", "Kathryn Greene", "Marketing", "Austin", 18, "2022-03-24", null, 2.6, 0], ["E1152", "Ashley Mcmillan", "Support", "Remote", 30, "2019-10-19", 107500, 2.9, 1], ["E1153", "Robert Vazquez", "Finance", "Austin", 57, "2022-01-06", 128000, 1.5, 0], ["E1154", "Christopher Nguyen", "Support", "Toronto", 57, "2021-05-24", 168500, 3.6, 1], ["E1155", "Richard Pollard", "Sales", "Toronto", 57, "2020-10-08", 166000, 2.7, 0], ["E1156", "Jeremy Hansen", "Legal", "Berlin", 57, "2015-07-07", null, 2.4, 0], ["E1157", "Cassandra Butler", "Sales", "Remote", 18, "2016-10-04", 165000, 5.0, 1], ["E1158", "Stanley Bradford", "Support", "Berlin", 57, "2016-04-19", 174500, 2.1, 0], ["E1159", "Leroy Carter", "Finance", "Singapore", 57, "2016-02-06", 135500, 1.1, 0], ["E1160", "Robert Smith", "Engineering", "Singapore", 18, "2019-12-27", 64500, 3.9, 1], ["E1161", "Thomas Robertson", "Support", "Singapore", 18, "2023-02-15", 169500, 4.8, 1], ["E1162", "Brenda Giles", "Legal", "Toronto", 30, "2017-11-09", 103500, 1.0, 0], ["E1164", "Tyler Graham", "Engineering", "Singapore", 18, "2023-08-02", 45000, 4.1, 1], ["E1165", "Michael Pittman", "Sales", "Austin", 18, "2019-12-15", 177000, 1.1, 0], ["E1166", "Derek Duffy", "Engineering", "Remote", 18, "2018-07-31", 79000, 1.6, 0], ["E1167", "Jason Callahan", "Engineering", "Remote", 30, "2015-07-06", 112500, 2.5, 0], ["E1168", "Ashlee Young", "Legal", "Austin", 57, "2022-06-13", 161000, 1.1, 0], ["E1169", "Donald Perez", "Finance", "Toronto", 57, "2019-10-04", 94500, 1.2, 0], ["E1170", "Frank Ellis", "Support", "Berlin", 57, "2021-09-22", 77000, 3.9, 1], ["E1171", "Karen Taylor", "Marketing", "Singapore", 57, "2020-11-04", 161500, 3.4, 1], ["E1172", "Robin Mckee", "Support", "Austin", 30, "2024-03-08", 87000, 1.4, 0], ["E1173", "Sharon Griffin", "Sales", "Berlin", 18, "2022-02-12", 135500, 2.5, 0], ["E1174", "Michelle Stevens", "Engineering", "Berlin", 18, "2021-03-11", 58000, 1.6, 0], ["E1175", "Leah Hill", "Operations", "Singapore", 30, "2017-03-06", 66500, 3.9, 1], ["E1176", "John Stanley", "Marketing", "Berlin", 57, "2019-01-05", 147500, 2.0, 0], ["E1177", "Robert Caldwell", "Legal", "Berlin", 57, "2023-02-10", 42500, 3.4, 1], ["E1178", "Nancy Perez", "Marketing", "Austin", 57, "2023-08-05", 130500, 2.5, 0], ["E1179", "Steven Russell", "Engineering", "Singapore", 57, "2019-01-11", 141000, 4.5, 1], ["E1180", "David Johnson", "SUPPORT", "Toronto", 57, "2020-09-18", 92500, 3.5, 1], ["E1181", "Michelle Mcclain", "Finance", "Toronto", 30, "2016-06-08", 169000, 3.5, 1], ["E1182", "Nicole Holder", "Operations", "Toronto", 57, "2023-03-31", 104500, 4.4, 1], ["E1183", "Jason Jones", "Operations", "Berlin", 57, "2020-03-01", 145500, 4.2, 1], ["E1184", "Mr. Daniel Wilcox DDS", "Marketing", "Austin", 57, "2022-02-26", 99000, 2.7, 0]]}}}, "out": "", "variant": "update"}')


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
