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


SPEC = json.loads('{"inputs": {"/app/exports/events.jsonl": "533324493a0dec292e6bc911f3ec744e6992fd3fe96a89d3a31f9a92c1dfcd19"}, "outputs": {"/app/output/events.csv": ["csv", [["event_id", "ts", "type", "user_id", "props.path"], ["ev-00039", "2024-06-03T10:28:44Z", "page_view", "120", "/cart"], ["ev-00040", "2024-06-03T10:32:33Z", "page_view", "189", "/help"], ["ev-00041", "2024-06-03T10:37:12Z", "click", "169", "/checkout"], ["ev-00042", "2024-06-03T10:42:56Z", "page_view", "125", "/checkout"], ["ev-00043", "2024-06-03T10:43:13Z", "logout", "110", "/checkout"], ["ev-00044", "2024-06-03T10:46:42Z", "page_view", "", "/cart"], ["ev-00045", "2024-06-03T10:48:15Z", "click", "116", "/cart"], ["ev-00046", "2024-06-03T10:51:16Z", "page_view", "119", "/cart"], ["ev-00047", "2024-06-03T10:54:24Z", "click", "128", "/"], ["ev-00048", "2024-06-03T11:01:00Z", "page_view", "159", "/account"], ["ev-00049", "2024-06-03T11:03:43Z", "page_view", "180", "/account"], ["ev-00050", "2024-06-03T11:05:42Z", "page_view", "142", "/cart"], ["ev-00051", "2024-06-03T11:07:28Z", "click", "147", "/account"], ["ev-00052", "2024-06-03T11:12:49Z", "page_view", "109", "/"], ["ev-00053", "2024-06-03T11:15:02Z", "page_view", "178", "/cart"], ["ev-00054", "2024-06-03T11:16:43Z", "logout", "133", "/"], ["ev-00055", "2024-06-03T11:19:40Z", "error", "187", "/"], ["ev-00056", "2024-06-03T11:20:28Z", "page_view", "150", "/help"], ["ev-00057", "2024-06-03T11:25:34Z", "purchase", "116", "/account"], ["ev-00058", "2024-06-03T11:31:07Z", "page_view", "141", "/checkout"], ["ev-00059", "2024-06-03T11:33:00Z", "search", "", "/cart"], ["ev-00060", "2024-06-03T11:34:45Z", "click", "189", "/account"], ["ev-00061", "2024-06-03T11:39:31Z", "search", "132", "/"], ["ev-00062", "2024-06-03T11:41:28Z", "page_view", "115", "/shop"], ["ev-00063", "2024-06-03T11:42:22Z", "logout", "137", "/shop"], ["ev-00064", "2024-06-03T11:46:41Z", "page_view", "159", "/help"], ["ev-00065", "2024-06-03T11:48:52Z", "page_view", "121", "/cart"], ["ev-00066", "2024-06-03T11:51:16Z", "page_view", "171", "/"], ["ev-00067", "2024-06-03T11:57:12Z", "search", "", "/help"], ["ev-00068", "2024-06-03T12:01:53Z", "click", "184", "/help"], ["ev-00069", "2024-06-03T12:05:58Z", "logout", "176", "/account"], ["ev-00070", "2024-06-03T12:09:14Z", "page_view", "121", "/checkout"], ["ev-00071", "2024-06-03T12:12:25Z", "error", "116", "/cart"], ["ev-00072", "2024-06-03T12:13:55Z", "search", "178", "/"], ["ev-00073", "2024-06-03T12:15:02Z", "click", "105", "/help"], ["ev-00074", "2024-06-03T12:18:29Z", "logout", "108", "/"], ["ev-00075", "2024-06-03T12:21:25Z", "page_view", "152", "/help"], ["ev-00076", "2024-06-03T12:26:57Z", "logout", "184", "/help"], ["ev-00077", "2024-06-03T12:33:01Z", "search", "165", "/checkout"], ["ev-00078", "2024-06-03T12:39:39Z", "page_view", "", "/shop"], ["ev-00079", "2024-06-03T12:45:58Z", "click", "111", "/checkout"], ["ev-00080", "2024-06-03T12:52:18Z", "click", "147", "/shop"], ["ev-00081", "2024-06-03T12:55:44Z", "logout", "119", "/account"], ["ev-00082", "2024-06-03T13:02:16Z", "page_view", "106", "/"], ["ev-00083", "2024-06-03T13:06:31Z", "page_view", "179", "/checkout"], ["ev-00084", "2024-06-03T13:12:28Z", "click", "102", "/help"], ["ev-00085", "2024-06-03T13:16:40Z", "page_view", "142", "/help"], ["ev-00086", "2024-06-03T13:18:53Z", "page_view", "169", "/shop"], ["ev-00087", "2024-06-03T13:24:41Z", "page_view", "139", "/cart"], ["ev-00088", "2024-06-03T13:30:58Z", "page_view", "119", "/"], ["ev-00089", "2024-06-03T13:34:37Z", "page_view", "141", "/shop"], ["ev-00090", "2024-06-03T13:37:25Z", "page_view", "116", "/"], ["ev-00091", "2024-06-03T13:39:40Z", "page_view", "154", "/shop"], ["ev-00092", "2024-06-03T13:42:09Z", "page_view", "170", "/"], ["ev-00093", "2024-06-03T13:45:12Z", "page_view", "164", "/help"]]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
