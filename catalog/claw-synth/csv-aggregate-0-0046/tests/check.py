"""Hidden checker: compares the agent's output file with the expected result, computed from the seeded
CSV with exact decimal arithmetic when the task was made (embedded below)."""
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


SPEC = json.loads('{"expected": [["ship_date", "transit_days", "origin_hub", "shipment_id", "cost_eur"], ["2024-05-02", "52.00", "AMS", "SHP-880163", "21.85"], ["2024-02-15", "9.00", "WAW", "SHP-880101", "6.05"], ["2024-05-05", "9.00", "FRA", "SHP-880104", "40.23"], ["2024-05-13", "9.00", "MAD", "SHP-880119", "27.17"], ["2024-03-23", "9.00", "FRA", "SHP-880124", "21.58"], ["2024-04-23", "9.00", "WAW", "SHP-880130", "31.25"], ["2024-03-08", "9.00", "FRA", "SHP-880132", "27.29"], ["2024-02-05", "9.00", "WAW", "SHP-880140", "23.45"], ["2024-02-06", "9.00", "FRA", "SHP-880141", "18.57"], ["2024-03-29", "9.00", "FRA", "SHP-880142", "8.77"], ["2024-05-21", "9.00", "MAD", "SHP-880167", "27.92"], ["2024-02-16", "9.00", "AMS", "SHP-880173", "44.52"], ["2024-02-29", "9.00", "WAW", "SHP-880181", "29.25"], ["2024-02-24", "9.00", "AMS", "SHP-880184", "33.91"], ["2024-03-04", "9.00", "WAW", "SHP-880193", "47.47"], ["2024-05-02", "9.00", "AMS", "SHP-880195", "27.24"], ["2024-05-10", "9.00", "FRA", "SHP-880207", "16.79"], ["2024-02-28", "8.00", "AMS", "SHP-880120", "9.80"], ["2024-02-17", "8.00", "WAW", "SHP-880128", "37.22"], ["2024-04-11", "8.00", "MAD", "SHP-880148", "35.89"], ["2024-05-24", "8.00", "WAW", "SHP-880149", "29.95"], ["2024-05-08", "8.00", "FRA", "SHP-880150", "13.66"], ["2024-03-11", "8.00", "AMS", "SHP-880153", "23.94"], ["2024-03-23", "8.00", "MAD", "SHP-880161", "34.13"], ["2024-05-17", "8.00", "MAD", "SHP-880165", "28.52"], ["2024-05-02", "8.00", "AMS", "SHP-880191", "24.48"], ["2024-05-22", "8.00", "MAD", "SHP-880203", "48.59"], ["2024-03-02", "8.00", "MAD", "SHP-880204", "22.63"], ["2024-03-28", "8.00", "FRA", "SHP-880209", "20.07"], ["2024-04-14", "7.00", "AMS", "SHP-880107", "48.97"], ["2024-02-08", "7.00", "AMS", "SHP-880108", "12.55"], ["2024-05-11", "7.00", "MAD", "SHP-880112", "16.87"], ["2024-04-23", "7.00", "MAD", "SHP-880115", "31.86"], ["2024-05-23", "7.00", "AMS", "SHP-880127", "13.35"], ["2024-05-20", "7.00", "WAW", "SHP-880133", "44.10"], ["2024-04-24", "7.00", "FRA", "SHP-880136", "27.76"], ["2024-05-07", "7.00", "FRA", "SHP-880146", "34.74"], ["2024-03-01", "7.00", "MAD", "SHP-880151", "20.32"], ["2024-02-03", "7.00", "AMS", "SHP-880152", "14.43"], ["2024-02-15", "7.00", "AMS", "SHP-880156", "9.06"], ["2024-05-19", "7.00", "FRA", "SHP-880160", "8.52"], ["2024-02-10", "7.00", "AMS", "SHP-880171", "14.17"], ["2024-04-23", "7.00", "FRA", "SHP-880175", "5.09"], ["2024-05-29", "7.00", "AMS", "SHP-880176", "49.39"], ["2024-05-22", "7.00", "FRA", "SHP-880185", "47.12"], ["2024-05-02", "7.00", "AMS", "SHP-880186", "27.81"], ["2024-03-17", "7.00", "WAW", "SHP-880188", "22.42"], ["2024-02-07", "7.00", "WAW", "SHP-880189", "53.63"], ["2024-04-26", "7.00", "WAW", "SHP-880198", "33.54"], ["2024-04-26", "7.00", "WAW", "SHP-880198-X27", "33.54"], ["2024-02-09", "7.00", "FRA", "SHP-880199", "12.09"], ["2024-05-08", "7.00", "FRA", "SHP-880201", "27.35"], ["2024-03-08", "7.00", "MAD", "SHP-880202", "29.69"], ["2024-02-27", "6.00", "MAD", "SHP-880103", "33.10"], ["2024-03-27", "6.00", "MAD", "SHP-880110", "24.11"], ["2024-04-16", "6.00", "AMS", "SHP-880118", "26.74"], ["2024-04-08", "6.00", "FRA", "SHP-880123", "56.25"], ["2024-03-06", "6.00", "FRA", "SHP-880131", "4.90"], ["2024-04-21", "6.00", "AMS", "SHP-880144", "7.42"], ["2024-03-27", "6.00", "AMS", "SHP-880157", "18.04"], ["2024-03-30", "6.00", "AMS", "SHP-880164", "46.16"], ["2024-02-05", "6.00", "WAW", "SHP-880166", "22.62"], ["2024-05-23", "6.00", "FRA", "SHP-880170", "32.80"], ["2024-02-20", "6.00", "AMS", "SHP-880174", "30.10"], ["2024-04-06", "6.00", "FRA", "SHP-880178", "6.92"], ["2024-05-29", "6.00", "AMS", "SHP-880179", "34.73"], ["2024-02-23", "6.00", "WAW", "SHP-880200", "18.89"], ["2024-03-16", "5.00", "FRA", "SHP-880109", "10.96"], ["2024-03-10", "5.00", "MAD", "SHP-880114", "13.85"], ["2024-02-04", "5.00", "MAD", "SHP-880117", "27.45"], ["2024-03-02", "5.00", "WAW", "SHP-880143", "25.81"], ["2024-02-18", "5.00", "AMS", "SHP-880145", "12.36"], ["2024-02-03", "5.00", "FRA", "SHP-880159", "23.26"], ["2024-05-23", "5.00", "AMS", "SHP-880177", "40.00"], ["2024-05-13", "5.00", "MAD", "SHP-880180", "12.93"], ["2024-05-29", "5.00", "MAD", "SHP-880197", "42.92"], ["2024-04-17", "5.00", "MAD", "SHP-880205", "31.04"], ["2024-02-15", "4.00", "FRA", "SHP-880106", "18.24"], ["2024-03-31", "4.00", "MAD", "SHP-880111", "32.08"], ["2024-05-17", "4.00", "ams", "SHP-880121", "18.16"], ["2024-04-04", "4.00", "MAD", "SHP-880129", "7.26"], ["2024-02-12", "4.00", "WAW", "SHP-880134", "15.62"], ["2024-03-06", "4.00", "MAD", "SHP-880135", "9.41"], ["2024-05-26", "4.00", "AMS", "SHP-880154", "10.13"], ["2024-04-08", "4.00", "FRA", "SHP-880210", "33.23"], ["2024-03-01", "3.00", "WAW", "SHP-880113", "5.47"], ["2024-03-03", "3.00", "FRA", "SHP-880137", "37.29"], ["2024-03-10", "3.00", "MAD", "SHP-880147", "29.17"], ["2024-03-14", "3.00", "FRA", "SHP-880158", "11.68"], ["2024-03-06", "3.00", "MAD", "SHP-880162", "11.96"], ["2024-02-07", "3.00", "MAD", "SHP-880182", "16.71"], ["2024-04-04", "3.00", "AMS", "SHP-880192", "5.01"], ["2024-02-17", "3.00", "MAD", "SHP-880194", "26.76"], ["2024-02-29", "3.00", "FRA", "SHP-880208", "5.46"], ["2024-03-23", "2.00", "MAD", "SHP-880100", "12.58"], ["2024-02-07", "2.00", "MAD", "SHP-880116", "37.64"], ["2024-02-15", "2.00", "FRA", "SHP-880168", "45.97"], ["2024-02-10", "2.00", "MAD", "SHP-880169", "TBD"], ["2024-04-14", "1.00", "WAW", "SHP-880099", "19.16"], ["2024-02-24", "1.00", "AMS", "SHP-880105", "21.62"], ["2024-04-17", "1.00", "AMS", "SHP-880122", "18.82"], ["2024-05-07", "1.00", "AMS", "SHP-880125", "18.30"], ["2024-04-20", "1.00", "MAD", "SHP-880126", "29.94"], ["2024-02-01", "1.00", "FRA", "SHP-880138", "10.20"], ["2024-03-19", "1.00", "AMS", "SHP-880139", "20.05"], ["2024-05-09", "1.00", "WAW", "SHP-880155", "18.28"], ["2024-02-05", "1.00", "WAW", "SHP-880172", "12.53"], ["2024-03-15", "1.00", "WAW", "SHP-880183", "35.32"], ["2024-03-21", "1.00", "AMS", "SHP-880187", "16.77"], ["2024-03-19", "1.00", "WAW", "SHP-880190", "42.96"], ["2024-04-30", "1.00", "AMS", "SHP-880196", "30.61"], ["2024-02-18", "1.00", "AMS", "SHP-880206", "12.83"], ["2024-03-17", "1.00", "AMS", "SHP-880211", "22.47"]], "kind": "csv", "out": "/app/out/normalized.csv", "src": "/app/datasets/shipments_export.csv", "src_sha256": "d72f505e49349dcc4b08c2330ce35263a8318035b3a48de9d7a87cdc3f7495a6"}')

unchanged(SPEC["src"], SPEC["src_sha256"])
compare_output(SPEC["out"], SPEC["kind"], SPEC["expected"])
finish(SPEC["out"])
