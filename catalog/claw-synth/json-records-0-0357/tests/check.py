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


SPEC = json.loads('{"inputs": {"/app/json/events.jsonl": "4cc9bdfae27eabec0e0ac1a2ce7f5a786c8de095ed0f2af3fd09aedc50ea4e11"}, "outputs": {"/app/out/filtered.jsonl": ["jsonl", [{"event_id": "ev-00001", "session": "s-021", "src_ts": "2024-06-03T08:06:27Z", "type": "click", "user_id_value": 102}, {"event_id": "ev-00004", "session": "s-019", "src_ts": "2024-06-03T08:15:54Z", "type": "error", "user_id_value": 132}, {"event_id": "ev-00005", "session": "s-028", "src_ts": "2024-06-03T08:22:17Z", "type": "search", "user_id_value": 155}, {"event_id": "ev-00006", "session": "s-032", "src_ts": "2024-06-03T08:28:14Z", "type": "page_view", "user_id_value": 126}, {"event_id": "ev-00009", "session": "s-026", "src_ts": "2024-06-03T08:39:15Z", "type": "page_view", "user_id_value": 132}, {"event_id": "ev-00010", "session": "s-018", "src_ts": "2024-06-03T08:40:00Z", "type": "click", "user_id_value": 104}, {"event_id": "ev-00011", "session": "s-021", "src_ts": "2024-06-03T08:45:26Z", "type": "page_view", "user_id_value": 145}, {"event_id": "ev-00012", "session": "s-027", "src_ts": "2024-06-03T08:51:00Z", "type": "page_view", "user_id_value": 136}, {"event_id": "ev-00013", "session": "s-009", "src_ts": "2024-06-03T08:55:09Z", "type": "page_view", "user_id_value": 122}, {"event_id": "ev-00014", "session": "s-029", "src_ts": "2024-06-03T08:59:00Z", "type": "click", "user_id_value": 122}, {"event_id": "ev-00017", "session": "s-023", "src_ts": "2024-06-03T09:13:01Z", "type": "page_view", "user_id_value": 140}, {"event_id": "ev-00018", "session": "s-019", "src_ts": "2024-06-03T09:15:23Z", "type": "click", "user_id_value": 131}, {"event_id": "ev-00019", "session": "s-030", "src_ts": "2024-06-03T09:20:02Z", "type": "page_view", "user_id_value": 112}, {"event_id": "ev-00020", "session": "s-035", "src_ts": "2024-06-03T09:26:18Z", "type": "click", "user_id_value": 109}, {"event_id": "ev-00021", "session": "s-024", "src_ts": "2024-06-03T09:27:44Z", "type": "page_view", "user_id_value": 153}, {"event_id": "ev-00022", "session": "s-004", "src_ts": "2024-06-03T09:29:11Z", "type": "page_view", "user_id_value": 130}, {"event_id": "ev-00023", "session": "s-013", "src_ts": "2024-06-03T09:35:16Z", "type": "purchase", "user_id_value": 155}, {"event_id": "ev-00025", "session": "s-001", "src_ts": "2024-06-03T09:40:58Z", "type": "purchase", "user_id_value": 136}, {"event_id": "ev-00026", "session": "s-027", "src_ts": "2024-06-03T09:45:09Z", "type": "page_view", "user_id_value": 188}, {"event_id": "ev-00027", "session": "s-010", "src_ts": "2024-06-03T09:50:46Z", "type": "page_view", "user_id_value": 142}, {"event_id": "ev-00028", "session": "s-025", "src_ts": "2024-06-03T09:54:48Z", "type": "search", "user_id_value": 142}, {"event_id": "ev-00030", "session": "s-018", "src_ts": "2024-06-03T10:03:07Z", "type": "click", "user_id_value": 140}, {"event_id": "ev-00033", "session": "s-017", "src_ts": "2024-06-03T10:11:40Z", "type": "purchase", "user_id_value": 102}, {"event_id": "ev-00034", "session": "s-030", "src_ts": "2024-06-03T10:13:28Z", "type": "search", "user_id_value": 147}, {"event_id": "ev-00036", "session": "s-040", "src_ts": "2024-06-03T10:18:09Z", "type": "page_view", "user_id_value": 128}, {"event_id": "ev-00037", "session": "s-036", "src_ts": "2024-06-03T10:23:27Z", "type": "page_view", "user_id_value": 138}, {"event_id": "ev-00038", "session": "s-035", "src_ts": "2024-06-03T10:27:19Z", "type": "logout", "user_id_value": 134}, {"event_id": "ev-00039", "session": "s-024", "src_ts": "2024-06-03T10:28:44Z", "type": "page_view", "user_id_value": 120}, {"event_id": "ev-00042", "session": "s-028", "src_ts": "2024-06-03T10:42:56Z", "type": "page_view", "user_id_value": 125}, {"event_id": "ev-00043", "session": "s-011", "src_ts": "2024-06-03T10:43:13Z", "type": "logout", "user_id_value": 110}, {"event_id": "ev-00045", "session": "s-027", "src_ts": "2024-06-03T10:48:15Z", "type": "click", "user_id_value": 116}, {"event_id": "ev-00046", "session": "s-004", "src_ts": "2024-06-03T10:51:16Z", "type": "page_view", "user_id_value": 119}, {"event_id": "ev-00047", "session": "s-030", "src_ts": "2024-06-03T10:54:24Z", "type": "click", "user_id_value": 128}, {"event_id": "ev-00050", "session": "s-033", "src_ts": "2024-06-03T11:05:42Z", "type": "page_view", "user_id_value": 142}, {"event_id": "ev-00051", "session": "s-009", "src_ts": "2024-06-03T11:07:28Z", "type": "click", "user_id_value": 147}, {"event_id": "ev-00052", "session": "s-002", "src_ts": "2024-06-03T11:12:49Z", "type": "page_view", "user_id_value": 109}, {"event_id": "ev-00054", "session": "s-036", "src_ts": "2024-06-03T11:16:43Z", "type": "logout", "user_id_value": 133}, {"event_id": "ev-00056", "session": "s-013", "src_ts": "2024-06-03T11:20:28Z", "type": "page_view", "user_id_value": 150}, {"event_id": "ev-00057", "session": "s-011", "src_ts": "2024-06-03T11:25:34Z", "type": "purchase", "user_id_value": 116}, {"event_id": "ev-00058", "session": "s-031", "src_ts": "2024-06-03T11:31:07Z", "type": "page_view", "user_id_value": 141}, {"event_id": "ev-00061", "session": "s-032", "src_ts": "2024-06-03T11:39:31Z", "type": "search", "user_id_value": 132}, {"event_id": "ev-00062", "session": "s-030", "src_ts": "2024-06-03T11:41:28Z", "type": "page_view", "user_id_value": 115}, {"event_id": "ev-00063", "session": "s-008", "src_ts": "2024-06-03T11:42:22Z", "type": "logout", "user_id_value": 137}, {"event_id": "ev-00065", "session": "s-021", "src_ts": "2024-06-03T11:48:52Z", "type": "page_view", "user_id_value": 121}, {"event_id": "ev-00070", "session": "s-017", "src_ts": "2024-06-03T12:09:14Z", "type": "page_view", "user_id_value": 121}, {"event_id": "ev-00071", "session": "s-008", "src_ts": "2024-06-03T12:12:25Z", "type": "error", "user_id_value": 116}, {"event_id": "ev-00073", "session": "s-010", "src_ts": "2024-06-03T12:15:02Z", "type": "click", "user_id_value": 105}, {"event_id": "ev-00074", "session": "s-013", "src_ts": "2024-06-03T12:18:29Z", "type": "logout", "user_id_value": 108}, {"event_id": "ev-00075", "session": "s-013", "src_ts": "2024-06-03T12:21:25Z", "type": "page_view", "user_id_value": 152}, {"event_id": "ev-00079", "session": "s-031", "src_ts": "2024-06-03T12:45:58Z", "type": "click", "user_id_value": 111}, {"event_id": "ev-00080", "session": "s-023", "src_ts": "2024-06-03T12:52:18Z", "type": "click", "user_id_value": 147}, {"event_id": "ev-00081", "session": "s-015", "src_ts": "2024-06-03T12:55:44Z", "type": "logout", "user_id_value": 119}, {"event_id": "ev-00082", "session": "s-008", "src_ts": "2024-06-03T13:02:16Z", "type": "page_view", "user_id_value": 106}, {"event_id": "ev-00084", "session": "s-033", "src_ts": "2024-06-03T13:12:28Z", "type": "click", "user_id_value": 102}, {"event_id": "ev-00085", "session": "s-026", "src_ts": "2024-06-03T13:16:40Z", "type": "page_view", "user_id_value": 142}, {"event_id": "ev-00087", "session": "s-034", "src_ts": "2024-06-03T13:24:41Z", "type": "page_view", "user_id_value": 139}, {"event_id": "ev-00088", "session": "s-018", "src_ts": "2024-06-03T13:30:58Z", "type": "page_view", "user_id_value": 119}, {"event_id": "ev-00089", "session": "s-030", "src_ts": "2024-06-03T13:34:37Z", "type": "page_view", "user_id_value": 141}, {"event_id": "ev-00090", "session": "s-039", "src_ts": "2024-06-03T13:37:25Z", "type": "page_view", "user_id_value": 116}, {"event_id": "ev-00091", "session": "s-009", "src_ts": "2024-06-03T13:39:40Z", "type": "page_view", "user_id_value": 154}, {"event_id": "ev-00094", "session": "s-005", "src_ts": "2024-06-03T13:49:08Z", "type": "logout", "user_id_value": 148}, {"event_id": "ev-00098", "session": "s-002", "src_ts": "2024-06-03T14:01:19Z", "type": "error", "user_id_value": 130}, {"event_id": "ev-00099", "session": "s-004", "src_ts": "2024-06-03T14:04:38Z", "type": "page_view", "user_id_value": 155}, {"event_id": "ev-00100", "session": "s-011", "src_ts": "2024-06-03T14:08:59Z", "type": "page_view", "user_id_value": 126}, {"event_id": "ev-00101", "session": "s-029", "src_ts": "2024-06-03T14:11:20Z", "type": "page_view", "user_id_value": 125}, {"event_id": "ev-00103", "session": "s-002", "src_ts": "2024-06-03T14:18:17Z", "type": "search", "user_id_value": 145}, {"event_id": "ev-00104", "session": "s-031", "src_ts": "2024-06-03T14:20:46Z", "type": "page_view", "user_id_value": 117}, {"event_id": "ev-00107", "session": "s-018", "src_ts": "2024-06-03T14:29:12Z", "type": "click", "user_id_value": 113}, {"event_id": "ev-00108", "session": "s-011", "src_ts": "2024-06-03T14:31:28Z", "type": "page_view", "user_id_value": 135}, {"event_id": "ev-00109", "session": "s-038", "src_ts": "2024-06-03T14:37:59Z", "type": "click", "user_id_value": 155}, {"event_id": "ev-00110", "session": "s-028", "src_ts": "2024-06-03T14:38:14Z", "type": "error", "user_id_value": 135}, {"event_id": "ev-00111", "session": "s-022", "src_ts": "2024-06-03T14:41:34Z", "type": "page_view", "user_id_value": 101}, {"event_id": "ev-00113", "session": "s-036", "src_ts": "2024-06-03T14:50:15Z", "type": "error", "user_id_value": 153}, {"event_id": "ev-00115", "session": "s-011", "src_ts": "2024-06-03T14:55:10Z", "type": "purchase", "user_id_value": 167}, {"event_id": "ev-00117", "session": "s-026", "src_ts": "2024-06-03T14:56:03Z", "type": "error", "user_id_value": 104}, {"event_id": "ev-00119", "session": "s-017", "src_ts": "2024-06-03T15:02:57Z", "type": "page_view", "user_id_value": 145}, {"event_id": "ev-00121", "session": "s-038", "src_ts": "2024-06-03T15:06:10Z", "type": "purchase", "user_id_value": 145}, {"event_id": "ev-00122", "session": "s-027", "src_ts": "2024-06-03T15:09:52Z", "type": "click", "user_id_value": 179}, {"event_id": "ev-00123", "session": "s-023", "src_ts": "2024-06-03T15:12:03Z", "type": "click", "user_id_value": 140}, {"event_id": "ev-00124", "session": "s-004", "src_ts": "2024-06-03T15:15:17Z", "type": "page_view", "user_id_value": 104}, {"event_id": "ev-00126", "session": "s-026", "src_ts": "2024-06-03T15:18:06Z", "type": "logout", "user_id_value": 106}, {"event_id": "ev-00128", "session": "s-016", "src_ts": "2024-06-03T15:24:46Z", "type": "purchase", "user_id_value": 158}, {"event_id": "ev-00129", "session": "s-017", "src_ts": "2024-06-03T15:26:26Z", "type": "logout", "user_id_value": 127}, {"event_id": "ev-00130", "session": "s-006", "src_ts": "2024-06-03T15:26:53Z", "type": "page_view", "user_id_value": 121}, {"event_id": "ev-00131", "session": "s-033", "src_ts": "2024-06-03T15:30:55Z", "type": "click", "user_id_value": 124}, {"event_id": "ev-00132", "session": "s-025", "src_ts": "2024-06-03T15:31:26Z", "type": "error", "user_id_value": 128}, {"event_id": "ev-00133", "session": "s-022", "src_ts": "2024-06-03T15:35:09Z", "type": "page_view", "user_id_value": 144}, {"event_id": "ev-00136", "session": "s-010", "src_ts": "2024-06-03T15:49:22Z", "type": "page_view", "user_id_value": 147}, {"event_id": "ev-00139", "session": "s-038", "src_ts": "2024-06-03T15:55:10Z", "type": "search", "user_id_value": 101}, {"event_id": "ev-00141", "session": "s-037", "src_ts": "2024-06-03T15:58:33Z", "type": "click", "user_id_value": 155}, {"event_id": "ev-00142", "session": "s-039", "src_ts": "2024-06-03T16:01:54Z", "type": "page_view", "user_id_value": 104}, {"event_id": "ev-00144", "session": "s-039", "src_ts": "2024-06-03T16:10:22Z", "type": "page_view", "user_id_value": 111}, {"event_id": "ev-00147", "session": "s-024", "src_ts": "2024-06-03T16:16:48Z", "type": "page_view", "user_id_value": 153}, {"event_id": "ev-00148", "session": "s-008", "src_ts": "2024-06-03T16:22:06Z", "type": "click", "user_id_value": 117}, {"event_id": "ev-00149", "session": "s-027", "src_ts": "2024-06-03T16:23:57Z", "type": "click", "user_id_value": 168}, {"event_id": "ev-00150", "session": "s-032", "src_ts": "2024-06-03T16:28:06Z", "type": "page_view", "user_id_value": 106}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
