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


SPEC = json.loads('{"expected": [["reading_id", "humidity_pct", "sensor_id", "temperature_c", "site"], ["R100170", "94.40", "s-04", "27.8", "greenhouse-a"], ["R100185", "93.30", "s-02", "23.3", "greenhouse-a"], ["R100210", "92.50", "s-01", "-", "greenhouse-b"], ["R100275", "91.60", "s-03", "23.8", "office"], ["R100171", "90.80", "s-09", "-1.0", "cold-room"], ["R100182", "90.50", "s-02", "25.5", "greenhouse-a"], ["R100209", "90.20", "s-08", "-", "warehouse"], ["R100220", "89.40", "s-07", "14.0", "warehouse"], ["R100206", "89.20", "s-07", "17.9", "warehouse"], ["R100239", "89.20", "s-01", "25.9", "greenhouse-b"], ["R100240", "88.60", "s-10", "0.7", "cold-room"], ["R100272", "88.60", "s-06", "22.8", "greenhouse-b"], ["R100218", "88.20", "s-04", "24.7", "greenhouse-a"], ["R100262", "88.20", "s-01", "25.5", "greenhouse-b"], ["R100226", "87.50", "s-06", "24.0", "greenhouse-b"], ["R100181", "87.00", "s-12", "-4.2", "cold-room"], ["R100233", "86.60", "s-10", "-1.7", "cold-room"], ["R100186", "85.40", "s-08", "12.6", "warehouse"], ["R100252", "85.30", "s-07", "13.8", "warehouse"], ["R100177", "84.70", "s-04", "21.3", "greenhouse-a"], ["R100229", "84.50", "s-11", "0.0", "cold-room"], ["R100187", "84.30", "s-11", "0.2", "cold-room"], ["R100212", "84.10", "s-07", "15.4", "warehouse"], ["R100179", "84.00", "s-01", "24.6", "greenhouse-b"], ["R100271", "82.30", "s-03", "20.8", "office"], ["R100193", "82.00", "s-04", "27.7", "greenhouse-a"], ["R100264", "81.70", "s-08", "14.6", "warehouse"], ["R100180", "81.60", "s-01", "25.3", "greenhouse-b"], ["R100195", "81.20", "s-12", "-3.0", "cold-room"], ["R100251", "81.20", "s-06", "20.1", "greenhouse-b"], ["R100235", "81.10", "s-01", "20.2", "greenhouse-b"], ["R100202", "80.60", "s-12", "-3.4", "cold-room"], ["R100274", "80.10", "s-06", "20.9", "greenhouse-b"], ["R100211", "79.40", "s-05", "13.4", "warehouse"], ["R100234", "78.70", "s-02", "27.1", "greenhouse-a"], ["R100196", "77.80", "s-07", "12.5", "warehouse"], ["R100219", "77.70", "s-12", "-5.4", "cold-room"], ["R100219-X45", "77.70", "s-12", "-5.4", "cold-room"], ["R100192", "76.50", "s-07", "11.0", "warehouse"], ["R100225", "76.50", "s-12", "-1.7", "cold-room"], ["R100173", "75.10", "s-04", "25.2", "greenhouse-a"], ["R100266", "72.20", "s-11", "-5.5", "cold-room"], ["R100273", "72.10", "s-04", "25.8", "greenhouse-a"], ["R100267", "72.00", "s-04", "27.0", "Greenhouse-A"], ["R100257", "71.90", "s-08", "16.4", "warehouse"], ["R100203", "71.30", "s-05", "13.0", "warehouse"], ["R100176", "70.70", "s-10", "-5.5", "cold-room"], ["R100172", "70.50", "s-02", "21.3", "greenhouse-a"], ["R100253", "69.20", "s-07", "15.4", "warehouse"], ["R100216", "67.80", "s-04", "25.9", "greenhouse-a"], ["R100188", "67.70", "s-10", "-4.4", "cold-room"], ["R100241", "67.50", "s-02", "20.5", "greenhouse-a"], ["R100236", "67.20", "s-10", "-2.9", "cold-room"], ["R100276", "66.00", "s-01", "23.7", "greenhouse-b"], ["R100244", "65.70", "s-07", "14.2", "warehouse"], ["R100175", "65.00", "s-06", "19.1", "greenhouse-b"], ["R100217", "64.40", "s-12", "-1.5", "cold-room"], ["R100268", "62.80", "s-08", "14.3", "warehouse"], ["R100279", "62.50", "s-04", "23.6", "greenhouse-a"], ["R100237", "62.00", "s-11", "-0.0", "cold-room"], ["R100174", "61.60", "s-04", "27.8", "greenhouse-a"], ["R100242", "61.10", "s-05", "10.9", "warehouse"], ["R100248", "60.60", "s-02", "25.1", "greenhouse-a"], ["R100222", "60.10", "s-04", "22.1", "greenhouse-a"], ["R100191", "59.80", "s-01", "N/A", "greenhouse-b"], ["R100204", "58.10", "s-04", "26.7", "greenhouse-a"], ["R100238", "57.50", "s-03", "21.1", "office"], ["R100254", "57.40", "s-05", "16.1", "warehouse"], ["R100258", "55.70", "s-08", "11.4", "warehouse"], ["R100265", "53.50", "s-04", "25.4", "greenhouse-a"], ["R100213", "53.40", "s-11", "-0.8", "cold-room"], ["R100256", "52.90", "s-07", "14.5", "warehouse"], ["R100189", "51.80", "s-05", "17.1", "warehouse"], ["R100197", "50.60", "s-10", "-0.1", "cold-room"], ["R100207", "50.40", "s-04", "25.0", "greenhouse-a"], ["R100243", "49.50", "s-11", "-0.7", "cold-room"], ["R100255", "48.60", "s-07", "13.0", "warehouse"], ["R100194", "47.80", "s-09", "-0.2", "cold-room"], ["R100231", "47.20", "s-06", "25.8", "greenhouse-b"], ["R100223", "46.90", "s-10", "1.8", "cold-room"], ["R100228", "46.00", "s-09", "-1.1", "cold-room"], ["R100183", "45.30", "s-12", "-3.6", "cold-room"], ["R100230", "45.20", "s-08", "12.7", "warehouse"], ["R100214", "44.10", "s-02", "26.1", "greenhouse-a"], ["R100227", "43.10", "s-07", "12.9", "warehouse"], ["R100169", "42.50", "s-02", "20.7", "greenhouse-a"], ["R100250", "42.30", "s-03", "18.5", "office"], ["R100249", "41.60", "s-07", "16.4", "warehouse"], ["R100184", "41.10", "s-01", "24.6", "greenhouse-b"], ["R100198", "40.30", "s-05", "13.3", "warehouse"], ["R100278", "40.00", "s-03", "17.3", "office"], ["R100208", "38.70", "s-05", "17.5", "warehouse"], ["R100270", "38.10", "s-08", "11.5", "warehouse"], ["R100245", "37.90", "s-07", "17.0", "warehouse"], ["R100205", "37.10", "s-06", "20.8", "greenhouse-b"], ["R100232", "36.60", "s-08", "14.2", "warehouse"], ["R100247", "36.60", "s-06", "25.3", "greenhouse-b"], ["R100221", "36.40", "s-04", "20.2", "greenhouse-a"], ["R100178", "36.20", "s-08", "13.4", "warehouse"], ["R100269", "35.90", "s-05", "12.7", "warehouse"], ["R100215", "35.60", "s-05", "17.8", "warehouse"], ["R100201", "34.30", "s-03", "20.5", "office"], ["R100277", "34.30", "s-02", "26.5", "greenhouse-a"], ["R100260", "33.50", "s-05", "13.1", "warehouse"], ["R100224", "33.20", "s-04", "23.1", "greenhouse-a"], ["R100200", "31.70", "s-07", "10.9", "warehouse"], ["R100199", "31.30", "s-03", "22.3", "office"], ["R100261", "31.00", "s-09", "-0.1", "cold-room"], ["R100263", "30.50", "s-01", "25.5", "greenhouse-b"], ["R100259", "29.50", "s-07", "14.9", "warehouse"], ["R100190", "26.50", "s-07", "12.1", "warehouse"], ["R100246", "26.10", "s-07", "10.7", "warehouse"]], "kind": "csv", "out": "/app/out/normalized.csv", "src": "/app/incoming/sensor_readings.csv", "src_sha256": "790f3acff3335acf37775caa12d43b59f486dc18609ac81fb34e257d6d71cdac"}')

unchanged(SPEC["src"], SPEC["src_sha256"])
compare_output(SPEC["out"], SPEC["kind"], SPEC["expected"])
finish(SPEC["out"])
