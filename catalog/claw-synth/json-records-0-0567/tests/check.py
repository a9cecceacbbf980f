"""Hidden checker: compares the agent's output files with the expected records, computed from the
seeded input when the task was made (embedded below); the inputs must be left as they were."""
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


SPEC = json.loads('{"inputs": {"/app/json/crm_contacts.jsonl": "0c5c0fcb07c207ba3d7635fc77fec29730c14a33b5e3eb47f1464432e8db10d4"}, "outputs": {"/app/results/flat.csv": ["csv", [["id", "country", "name", "owner"], ["101", "ES", "Cody George", "chen"], ["103", "ES", "Darlene", "ana"], ["104", "GB", "Jody Wall", "dara"], ["105", "BR", "Amanda", "bo"], ["107", "DE", "Sally Obrien", "dara"], ["111", "BR", "Jessica Case", "ana"], ["112", "NL", "Nancy Wiggins", "bo"], ["113", "DE", "Aaron Duran", "chen"], ["115", "JP", "Sean Rogers", "bo"], ["117", "DE", "William Bell", "ana"], ["118", "US", "Stephanie Becker", "ana"], ["120", "NL", "Tyler Archer", "chen"], ["122", "NL", "Brenda Perez", "chen"], ["125", "DE", "Don Johnson", "chen"], ["126", "BR", "Samantha Martinez", "ana"], ["129", "FR", "Lawrence Luna", "bo"], ["130", "NL", "Elizabeth", "bo"], ["131", "DE", "Justin Fowler", "dara"], ["132", "NL", "Sara Cruz", "chen"], ["135", "ES", "Ann Jacobs", "ana"], ["136", "US", "Amy", "ana"], ["137", "ES", "Melissa Sandoval", "ana"], ["138", "NL", "Andrea", "ana"], ["139", "BR", "Meredith Short", "ana"], ["141", "BR", "Robert", "dara"], ["143", "ES", "Jeffery Evans", "chen"], ["144", "BR", "Paul", "chen"], ["147", "BR", "Jane Perez", "bo"], ["148", "GB", "Carl Marshall", "dara"], ["150", "ES", "Brenda Knight", "dara"], ["151", "FR", "Julie", "chen"], ["154", "NL", "Keith Ortiz", "bo"], ["155", "DE", "James Delacruz", "ana"], ["156", "FR", "Charles James", "chen"], ["157", "NL", "Lucas Yates", "dara"], ["159", "JP", "Shawn Roberts", "chen"], ["160", "NL", "Teresa Dixon", "dara"], ["161", "US", "Thomas Smith", "dara"], ["162", "US", "Ashley Douglas", "chen"], ["164", "BR", "Amanda", "chen"], ["165", "FR", "Kim", "chen"], ["166", "DE", "Shawn Wilson", "chen"], ["168", "NL", "Cody Harris", "bo"], ["169", "JP", "Amanda Bailey", "chen"], ["170", "DE", "Kimberly Adams", "dara"], ["171", "GB", "Aaron Cox", "dara"], ["172", "BR", "Joseph", "ana"], ["174", "BR", "Robert Kennedy", "ana"], ["176", "GB", "Jessica Gonzalez", "ana"], ["177", "ES", "Susan", "bo"], ["178", "GB", "Ashley Mclaughlin", "bo"], ["179", "ES", "David", "bo"], ["180", "BR", "Nathan", "bo"], ["184", "GB", "David Holmes", "chen"], ["185", "BR", "Christopher Williams", "bo"], ["186", "JP", "Dean Carter", "dara"], ["187", "US", "Sarah Perez", "bo"], ["189", "NL", "Cynthia Stuart", "chen"], ["190", "BR", "Christina Vazquez", "bo"]]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
