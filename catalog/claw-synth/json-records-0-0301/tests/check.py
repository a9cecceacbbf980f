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


SPEC = json.loads('{"inputs": {"/app/feeds/orders.jsonl": "f75b7ef41bb34d33cb7e67e623c6913b5a537a5ebb41e35e69032ced1c2bfc1a"}, "outputs": {"/app/counts.json": ["json", {"cancelled": {"count": 3, "distinct_coupon": 1}, "paid": {"count": 25, "distinct_coupon": 2}, "pending": {"count": 3, "distinct_coupon": 2}, "refunded": {"count": 3, "distinct_coupon": 1}}]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
