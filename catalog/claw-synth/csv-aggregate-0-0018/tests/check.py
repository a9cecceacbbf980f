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


SPEC = json.loads('{"expected": [["sku", "supplier", "reorder_level", "last_counted"], ["INV-4973", "miller-livingston", "25.00", "2024-04-27"], ["INV-4973-X35", "miller-livingston", "25.00", "2024-04-27"], ["INV-4980", "morris group", "10.00", "2024-03-03"], ["INV-4987", "anderson plc", "20.00", "2024-03-14"], ["INV-4994", "anderson plc", "10.00", "2024-02-19"], ["INV-5001", "davis and sons", "100.00", "2024-03-21"], ["INV-5008", "anderson plc", "25.00", "2024-03-10"], ["INV-5015", "miller-livingston", "50.00", "2024-03-08"], ["INV-5022", "miller-livingston", "25.00", "2024-03-10"], ["INV-5029", "anderson plc", "25.00", "2024-02-02"], ["INV-5036", "morris group", "20.00", "2024-03-10"], ["INV-5043", "hernandez plc", "25.00", "2024-02-14"], ["INV-5050", "davis and sons", "100.00", "2024-04-26"], ["INV-5057", "anderson plc", "25.00", "2024-04-18"], ["INV-5064", "taylor-bell", "20.00", "2024-03-28"], ["INV-5071", "hernandez plc", "25.00", "2024-02-05"], ["INV-5078", "davis and sons", "10.00", "2024-04-20"], ["INV-5085", "davis and sons", "50.00", "2024-03-28"], ["INV-5092", "morris group", "20.00", "2024-03-25"], ["INV-5099", "taylor-bell", "50.00", "2024-02-02"], ["INV-5106", "morris group", "50.00", "2024-04-28"], ["INV-5113", "miller-livingston", "20.00", "2024-02-01"], ["INV-5120", "davis and sons", "25.00", "2024-03-17"], ["INV-5127", "howell-martin", "10.00", "2024-03-17"], ["INV-5134", "hernandez plc", "25.00", "2024-04-16"], ["INV-5141", "miller-livingston", "25.00", "2024-02-08"], ["INV-5148", "miller-livingston", "100.00", "2024-03-27"], ["INV-5155", "davis and sons", "25.00", "2024-02-18"], ["INV-5162", "davis and sons", "50.00", "2024-02-18"], ["INV-5169", "taylor-bell", "20.00", "2024-03-24"], ["INV-5176", "howell-martin", "25.00", "2024-02-28"], ["INV-5183", "taylor-bell", "20.00", "2024-04-05"], ["INV-5190", "brown, schwartz and johnson", "10.00", "2024-04-05"], ["INV-5197", "miller-livingston", "100.00", "2024-03-19"], ["INV-5204", "davis and sons", "100.00", "2024-02-07"], ["INV-5211", "brown, schwartz and johnson", "50.00", "2024-04-13"], ["INV-5218", "howell-martin", "25.00", "2024-02-16"], ["INV-5225", "taylor-bell", "10.00", "2024-02-08"], ["INV-5232", "davis and sons", "10.00", "2024-04-21"], ["INV-5239", "howell-martin", "100.00", "2024-04-24"], ["INV-5246", "davis and sons", "20.00", "2024-03-27"], ["INV-5253", "davis and sons", "50.00", "2024-02-10"], ["INV-5260", "brown, schwartz and johnson", "50.00", "2024-04-25"], ["INV-5267", "brown, schwartz and johnson", "100.00", "2024-04-23"], ["INV-5274", "morris group", "50.00", "2024-04-17"], ["INV-5281", "davis and sons", "50.00", "2024-04-06"], ["INV-5288", "brown, schwartz and johnson", "10.00", "2024-04-05"], ["INV-5295", "davis and sons", "50.00", "2024-03-16"], ["INV-5302", "davis and sons", "50.00", "2024-03-07"], ["INV-5309", "davis and sons", "100.00", "2024-04-01"], ["INV-5316", "miller-livingston", "10.00", "2024-02-23"], ["INV-5323", "anderson plc", "10.00", "2024-03-23"], ["INV-5330", "morris group", "100.00", "2024-04-30"], ["INV-5337", "davis and sons", "25.00", "2024-03-15"], ["INV-5344", "miller-livingston", "25.00", "2024-04-23"], ["INV-5351", "taylor-bell", "50.00", "2024-04-18"], ["INV-5358", "hernandez plc", "50.00", "2024-02-17"], ["INV-5365", "davis and sons", "100.00", "2024-03-08"], ["INV-5372", "hernandez plc", "50.00", "2024-04-06"], ["INV-5379", "taylor-bell", "20.00", "2024-02-11"], ["INV-5386", "anderson plc", "20.00", "2024-02-19"], ["INV-5393", "miller-livingston", "10.00", "2024-04-26"]], "kind": "csv", "out": "/app/reports/clean.csv", "src": "/app/raw/inventory.csv", "src_sha256": "5e7e9dd1281fdb3fff3a0a19bf0fc23359909fc9efd0966b58e046fccc10b1ff"}')

unchanged(SPEC["src"], SPEC["src_sha256"])
compare_output(SPEC["out"], SPEC["kind"], SPEC["expected"])
finish(SPEC["out"])
