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


SPEC = json.loads('{"inputs": {"/app/data/events_main.json": "a359288f0063c3530db57b06520100795b684bd277d7138d9fd868b5b1ff988c", "/app/data/events_patch.jsonl": "fd4591ddebc693a5f0031fe8b2606e224a161f59eeaf734dc7bb0f311c8c0cae"}, "outputs": {"/app/results/merged.json": ["json", [{"event_id": "ev-00067", "session": "s-005", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T11:57:12Z", "type": "page_view", "updated_at": "2024-05-27T10:23:00Z"}, {"event_id": "ev-00068", "session": "s-004", "sources": ["events_patch"], "type": "click", "updated_at": "2024-05-13T06:12:00Z", "user_id": 105}, {"event_id": "ev-00069", "session": "s-010", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T12:05:58Z", "type": "logout", "updated_at": "2024-05-28T18:08:00Z", "user_id": 176}, {"event_id": "ev-00070", "session": "s-017", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T12:09:14Z", "type": "page_view", "updated_at": "2024-05-31T04:15:00Z", "user_id": 121}, {"event_id": "ev-00071", "session": "s-011", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T12:12:25Z", "type": "purchase", "updated_at": "2024-05-18T12:51:00Z", "user_id": 177}, {"event_id": "ev-00072", "session": "s-030", "sources": ["events_main"], "ts": "2024-06-03T12:13:55Z", "type": "search", "updated_at": "2024-05-22T16:50:00Z", "user_id": 178}, {"event_id": "ev-00073", "session": "s-010", "sources": ["events_main"], "ts": "2024-06-03T12:15:02Z", "type": "click", "updated_at": "2024-05-11T17:01:00Z", "user_id": 105}, {"event_id": "ev-00074", "session": "s-013", "sources": ["events_main"], "ts": "2024-06-03T12:18:29Z", "type": "logout", "updated_at": "2024-06-02T21:33:00Z", "user_id": 108}, {"event_id": "ev-00075", "session": "s-013", "sources": ["events_main"], "ts": "2024-06-03T12:21:25Z", "type": "page_view", "updated_at": "2024-05-22T14:33:00Z", "user_id": 152}, {"event_id": "ev-00076", "session": "s-040", "sources": ["events_main"], "ts": "2024-06-03T12:26:57Z", "type": "logout", "updated_at": "2024-06-08T05:33:00Z", "user_id": 184}, {"event_id": "ev-00077", "session": "s-009", "sources": ["events_main"], "ts": "2024-06-03T12:33:01Z", "type": "search", "updated_at": "2024-06-03T11:26:00Z", "user_id": 165}, {"event_id": "ev-00078", "session": "s-028", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T12:39:39Z", "type": "page_view", "updated_at": "2024-06-02T23:26:00Z"}, {"event_id": "ev-00079", "session": "s-031", "sources": ["events_main"], "ts": "2024-06-03T12:45:58Z", "type": "click", "updated_at": "2024-05-16T15:14:00Z", "user_id": 111}, {"event_id": "ev-00080", "session": "s-023", "sources": ["events_main"], "ts": "2024-06-03T12:52:18Z", "type": "click", "updated_at": "2024-05-10T15:54:00Z", "user_id": 147}, {"event_id": "ev-00081", "session": "s-015", "sources": ["events_main"], "ts": "2024-06-03T12:55:44Z", "type": "logout", "updated_at": "2024-05-25T02:47:00Z", "user_id": 119}, {"event_id": "ev-00082", "session": "s-008", "sources": ["events_main"], "ts": "2024-06-03T13:02:16Z", "type": "page_view", "updated_at": "2024-05-05T18:29:00Z", "user_id": 106}, {"event_id": "ev-00083", "session": "s-030", "sources": ["events_main"], "ts": "2024-06-03T13:06:31Z", "type": "page_view", "updated_at": "2024-05-12T11:35:00Z", "user_id": 179}, {"event_id": "ev-00084", "session": "s-033", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T14:41:34Z", "type": "search", "updated_at": "2024-05-26T19:20:00Z", "user_id": 102}, {"event_id": "ev-00085", "sources": ["events_patch"], "ts": "2024-06-03T12:15:02Z", "updated_at": "2024-05-04T17:20:00Z", "user_id": 142}, {"event_id": "ev-00086", "session": "s-028", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T14:16:31Z", "type": "search", "updated_at": "2024-05-30T16:53:00Z", "user_id": 169}, {"event_id": "ev-00087", "session": "s-034", "sources": ["events_main"], "ts": "2024-06-03T13:24:41Z", "type": "page_view", "updated_at": "2024-06-10T19:22:00Z", "user_id": 139}, {"event_id": "ev-00088", "session": "s-018", "sources": ["events_main"], "ts": "2024-06-03T13:30:58Z", "type": "page_view", "updated_at": "2024-06-09T16:14:00Z", "user_id": 119}, {"event_id": "ev-00089", "session": "s-015", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T12:18:29Z", "type": "page_view", "updated_at": "2024-06-09T23:52:00Z", "user_id": 153}, {"event_id": "ev-00090", "session": "s-023", "sources": ["events_patch"], "type": "page_view", "updated_at": "2024-05-15T03:23:00Z"}, {"event_id": "ev-00091", "session": "s-008", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T13:39:40Z", "type": "error", "updated_at": "2024-06-06T21:14:00Z", "user_id": 154}, {"event_id": "ev-00092", "session": "s-033", "sources": ["events_main"], "ts": "2024-06-03T13:42:09Z", "type": "page_view", "updated_at": "2024-05-31T20:33:00Z", "user_id": 170}, {"event_id": "ev-00093", "session": "s-008", "sources": ["events_patch"], "type": "page_view", "updated_at": "2024-06-09T07:35:00Z", "user_id": 173}, {"event_id": "ev-00094", "session": "s-005", "sources": ["events_main"], "ts": "2024-06-03T13:49:08Z", "type": "logout", "updated_at": "2024-05-07T06:26:00Z", "user_id": 148}, {"event_id": "ev-00095", "session": "s-028", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T13:50:00Z", "type": "page_view", "updated_at": "2024-05-30T15:56:00Z", "user_id": 171}, {"event_id": "ev-00096", "session": "s-007", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T13:55:39Z", "type": "page_view", "updated_at": "2024-06-02T04:52:00Z"}, {"event_id": "ev-00097", "session": "s-026", "sources": ["events_main"], "ts": "2024-06-03T13:56:47Z", "type": "logout", "updated_at": "2024-05-24T08:54:00Z", "user_id": 173}, {"event_id": "ev-00098", "session": "s-002", "sources": ["events_main"], "ts": "2024-06-03T14:01:19Z", "type": "error", "updated_at": "2024-05-16T16:45:00Z", "user_id": 130}, {"event_id": "ev-00099", "session": "s-004", "sources": ["events_main"], "ts": "2024-06-03T14:04:38Z", "type": "page_view", "updated_at": "2024-06-09T09:51:00Z", "user_id": 155}, {"event_id": "ev-00100", "session": "s-011", "sources": ["events_main"], "ts": "2024-06-03T14:08:59Z", "type": "page_view", "updated_at": "2024-05-23T13:35:00Z", "user_id": 126}, {"event_id": "ev-00101", "session": "s-029", "sources": ["events_main"], "ts": "2024-06-03T14:11:20Z", "type": "page_view", "updated_at": "2024-05-10T12:31:00Z", "user_id": 125}, {"event_id": "ev-00102", "session": "s-002", "sources": ["events_main"], "ts": "2024-06-03T14:16:31Z", "type": "click", "updated_at": "2024-05-20T16:42:00Z", "user_id": 156}, {"event_id": "ev-00103", "session": "s-002", "sources": ["events_main"], "ts": "2024-06-03T14:18:17Z", "type": "search", "updated_at": "2024-05-24T01:53:00Z", "user_id": 145}, {"event_id": "ev-00104", "session": "s-031", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T14:20:46Z", "type": "page_view", "updated_at": "2024-06-04T08:23:00Z", "user_id": 164}, {"event_id": "ev-00105", "session": "s-023", "sources": ["events_main"], "ts": "2024-06-03T14:23:22Z", "type": "page_view", "updated_at": "2024-05-08T16:09:00Z", "user_id": 180}, {"event_id": "ev-00106", "session": "s-011", "sources": ["events_main"], "ts": "2024-06-03T14:26:56Z", "type": "page_view", "updated_at": "2024-05-12T08:02:00Z", "user_id": 190}, {"event_id": "ev-00107", "session": "s-018", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T14:11:20Z", "type": "click", "updated_at": "2024-06-08T13:54:00Z", "user_id": 113}, {"event_id": "ev-00108", "session": "s-008", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T13:30:58Z", "type": "page_view", "updated_at": "2024-06-07T14:04:00Z", "user_id": 135}, {"event_id": "ev-00109", "session": "s-038", "sources": ["events_main"], "ts": "2024-06-03T14:37:59Z", "type": "click", "updated_at": "2024-05-05T18:15:00Z", "user_id": 155}, {"event_id": "ev-00110", "session": "s-028", "sources": ["events_main"], "ts": "2024-06-03T14:38:14Z", "type": "error", "updated_at": "2024-06-03T09:19:00Z", "user_id": 135}, {"event_id": "ev-00111", "session": "s-033", "sources": ["events_patch"], "ts": "2024-06-03T12:13:55Z", "type": "logout", "updated_at": "2024-05-08T01:06:00Z"}, {"event_id": "ev-00112", "session": "s-006", "sources": ["events_main"], "ts": "2024-06-03T14:47:51Z", "type": "click", "updated_at": "2024-06-04T01:46:00Z", "user_id": 157}, {"event_id": "ev-00113", "session": "s-036", "sources": ["events_main"], "ts": "2024-06-03T14:50:15Z", "type": "error", "updated_at": "2024-05-31T09:31:00Z", "user_id": 153}, {"event_id": "ev-00114", "session": "s-004", "sources": ["events_main"], "ts": "2024-06-03T14:51:51Z", "type": "page_view", "updated_at": "2024-06-09T21:52:00Z"}, {"event_id": "ev-00115", "session": "s-011", "sources": ["events_main"], "ts": "2024-06-03T14:55:10Z", "type": "purchase", "updated_at": "2024-05-17T20:42:00Z", "user_id": 167}, {"event_id": "ev-00116", "session": "s-020", "sources": ["events_main"], "ts": "2024-06-03T14:55:23Z", "type": "page_view", "updated_at": "2024-06-05T16:39:00Z"}, {"event_id": "ev-00117", "session": "s-026", "sources": ["events_main"], "ts": "2024-06-03T14:56:03Z", "type": "error", "updated_at": "2024-05-07T22:43:00Z", "user_id": 104}, {"event_id": "ev-00118", "session": "s-020", "sources": ["events_main", "events_patch"], "ts": "2024-06-03T14:57:51Z", "type": "page_view", "updated_at": "2024-05-31T11:50:00Z", "user_id": 188}, {"event_id": "ev-00119", "session": "s-017", "sources": ["events_main"], "ts": "2024-06-03T15:02:57Z", "type": "page_view", "updated_at": "2024-05-11T11:10:00Z", "user_id": 145}, {"event_id": "ev-00120", "session": "s-011", "sources": ["events_main"], "ts": "2024-06-03T15:05:05Z", "type": "click", "updated_at": "2024-05-26T15:05:00Z", "user_id": 177}, {"event_id": "ev-00121", "session": "s-038", "sources": ["events_main"], "ts": "2024-06-03T15:06:10Z", "type": "purchase", "updated_at": "2024-05-27T13:19:00Z", "user_id": 145}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
