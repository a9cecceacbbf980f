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


SPEC = json.loads('{"inputs": {"/app/json/events.jsonl": "7f652e3233bdef1b427da8dc1165156d0df5bc6fc9c531feb0aa407cd76c8eb7"}, "outputs": {"/app/results/errors.json": ["json", [{"errors": ["duplicate_event_id"], "index": 13, "key": "ev-00074"}, {"errors": ["bad_user_id", "duplicate_event_id"], "index": 22, "key": "ev-00069"}]], "/app/results/events_valid.jsonl": ["jsonl", [{"event_id": "ev-00066", "props": {"device": "desktop", "ms": 3915, "path": "/"}, "session": "s-034", "ts": "2024-06-03T11:51:16Z", "type": "page_view", "user_id": 171}, {"event_id": "ev-00067", "props": {"device": "mobile", "ms": 3184, "path": "/help"}, "session": "s-005", "ts": "2024-06-03T11:57:12Z", "type": "search", "user_id": null}, {"event_id": "ev-00068", "props": {"device": "mobile", "ms": 567, "path": "/help"}, "session": "s-002", "ts": "2024-06-03T12:01:53Z", "type": "click", "user_id": 184}, {"event_id": "ev-00069", "props": {"device": "mobile", "ms": 3568, "path": "/account"}, "session": "s-010", "ts": "2024-06-03T12:05:58Z", "type": "logout", "user_id": 176}, {"event_id": "ev-00070", "props": {"device": "mobile", "ms": 3272, "path": "/checkout"}, "session": "s-017", "ts": "2024-06-03T12:09:14Z", "type": "page_view", "user_id": 121}, {"event_id": "ev-00071", "props": {"device": "mobile", "ms": 2843, "path": "/cart"}, "session": "s-008", "ts": "2024-06-03T12:12:25Z", "type": "error", "user_id": 116}, {"event_id": "ev-00072", "props": {"device": "desktop", "ms": 1875, "path": "/"}, "session": "s-030", "ts": "2024-06-03T12:13:55Z", "type": "search", "user_id": 178}, {"event_id": "ev-00073", "props": {"device": "tablet", "ms": 1847, "path": "/help"}, "session": "s-010", "ts": "2024-06-03T12:15:02Z", "type": "click", "user_id": 105}, {"event_id": "ev-00074", "props": {"device": "mobile", "ms": 3818, "path": "/"}, "session": "s-013", "ts": "2024-06-03T12:18:29Z", "type": "logout", "user_id": 108}, {"event_id": "ev-00075", "props": {"device": "tablet", "ms": 2932, "path": "/help"}, "session": "s-013", "ts": "2024-06-03T12:21:25Z", "type": "page_view", "user_id": 152}, {"event_id": "ev-00076", "props": {"device": "tablet", "ms": 1979, "path": "/help"}, "session": "s-040", "ts": "2024-06-03T12:26:57Z", "type": "logout", "user_id": 184}, {"event_id": "ev-00077", "props": {"device": "tablet", "ms": 283, "path": "/checkout"}, "session": "s-009", "ts": "2024-06-03T12:33:01Z", "type": "search", "user_id": 165}, {"event_id": "ev-00078", "props": {"device": "mobile", "ms": 1010, "path": "/shop"}, "session": "s-028", "ts": "2024-06-03T12:39:39Z", "type": "page_view", "user_id": null}, {"event_id": "ev-00079", "props": {"device": "mobile", "ms": 344, "path": "/checkout"}, "session": "s-031", "ts": "2024-06-03T12:45:58Z", "type": "click", "user_id": 111}, {"event_id": "ev-00080", "props": {"device": "desktop", "ms": 540, "path": "/shop"}, "session": "s-023", "ts": "2024-06-03T12:52:18Z", "type": "click", "user_id": 147}, {"event_id": "ev-00081", "props": {"device": "desktop", "ms": 1771, "path": "/account"}, "session": "s-015", "ts": "2024-06-03T12:55:44Z", "type": "logout", "user_id": 119}, {"event_id": "ev-00082", "props": {"device": "tablet", "ms": 1618, "path": "/"}, "session": "s-008", "ts": "2024-06-03T13:02:16Z", "type": "page_view", "user_id": 106}, {"event_id": "ev-00083", "props": {"device": "desktop", "ms": 775, "path": "/checkout"}, "session": "s-030", "ts": "2024-06-03T13:06:31Z", "type": "page_view", "user_id": 179}, {"event_id": "ev-00084", "props": {"device": "mobile", "ms": 2310, "path": "/help"}, "session": "s-033", "ts": "2024-06-03T13:12:28Z", "type": "click", "user_id": 102}, {"event_id": "ev-00085", "props": {"device": "desktop", "ms": 2270, "path": "/help"}, "session": "s-026", "ts": "2024-06-03T13:16:40Z", "type": "page_view", "user_id": 142}, {"event_id": "ev-00086", "props": {"device": "mobile", "ms": 1770, "path": "/shop"}, "session": "s-028", "ts": "2024-06-03T13:18:53Z", "type": "page_view", "user_id": 169}, {"event_id": "ev-00087", "props": {"device": "desktop", "ms": 3584, "path": "/cart"}, "session": "s-034", "ts": "2024-06-03T13:24:41Z", "type": "page_view", "user_id": 139}, {"event_id": "ev-00088", "props": {"device": "tablet", "ms": 3083, "path": "/"}, "session": "s-018", "ts": "2024-06-03T13:30:58Z", "type": "page_view", "user_id": 119}, {"event_id": "ev-00089", "props": {"device": "tablet", "ms": 577, "path": "/shop"}, "session": "s-030", "ts": "2024-06-03T13:34:37Z", "type": "page_view", "user_id": 141}, {"event_id": "ev-00090", "props": {"device": "tablet", "ms": 3280, "path": "/"}, "session": "s-039", "ts": "2024-06-03T13:37:25Z", "type": "page_view", "user_id": 116}, {"event_id": "ev-00091", "props": {"device": "tablet", "ms": 2094, "path": "/shop"}, "session": "s-009", "ts": "2024-06-03T13:39:40Z", "type": "page_view", "user_id": 154}, {"event_id": "ev-00092", "props": {"device": "mobile", "ms": 308, "path": "/"}, "session": "s-033", "ts": "2024-06-03T13:42:09Z", "type": "page_view", "user_id": 170}, {"event_id": "ev-00093", "props": {"device": "desktop", "ms": 1764, "path": "/help"}, "session": "s-033", "ts": "2024-06-03T13:45:12Z", "type": "page_view", "user_id": 164}, {"event_id": "ev-00094", "props": {"device": "mobile", "ms": 933, "path": "/cart"}, "session": "s-005", "ts": "2024-06-03T13:49:08Z", "type": "logout", "user_id": 148}, {"event_id": "ev-00095", "props": {"device": "mobile", "ms": 1980, "path": "/cart"}, "session": "s-028", "ts": "2024-06-03T13:50:00Z", "type": "page_view", "user_id": 171}, {"event_id": "ev-00096", "props": {"device": "desktop", "ms": 2587, "path": "/account"}, "session": "s-007", "ts": "2024-06-03T13:55:39Z", "type": "page_view", "user_id": null}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
