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


SPEC = json.loads('{"inputs": {"/app/data/events.jsonl": "4dc77b0ee691bcc38b41550f22f485b3ee607d3e197de96bb1c5282bbcb13267", "/app/exports/users.json": "9e73c90b3a9221e123b29609249631a39da065613d0189bf00e786b2a72d017f"}, "outputs": {"/app/output/enriched.jsonl": ["jsonl", [{"event_id": "ev-00014", "lookup_plan": "free", "session": "s-029", "ts": "2024-06-03T08:59:00Z", "user_id": 122}, {"event_id": "ev-00015", "lookup_plan": "team", "session": "s-029", "ts": "2024-06-03T09:04:35Z", "user_id": 185}, {"event_id": "ev-00016", "lookup_plan": "enterprise", "session": "s-020", "ts": "2024-06-03T09:07:31Z", "user_id": 177}, {"event_id": "ev-00017", "lookup_plan": "free", "session": "s-023", "ts": "2024-06-03T09:13:01Z", "user_id": 140}, {"event_id": "ev-00018", "lookup_plan": "pro", "session": "s-019", "ts": "2024-06-03T09:15:23Z", "user_id": 131}, {"event_id": "ev-00019", "lookup_plan": "free", "session": "s-030", "ts": "2024-06-03T09:20:02Z", "user_id": 112}, {"event_id": "ev-00020", "lookup_plan": "pro", "session": "s-035", "ts": "2024-06-03T09:26:18Z", "user_id": 109}, {"event_id": "ev-00021", "lookup_plan": null, "session": "s-024", "ts": "2024-06-03T09:27:44Z", "user_id": 153}, {"event_id": "ev-00022", "lookup_plan": "enterprise", "session": "s-004", "ts": "2024-06-03T09:29:11Z", "user_id": 130}, {"event_id": "ev-00023", "lookup_plan": "free", "session": "s-013", "ts": "2024-06-03T09:35:16Z", "user_id": 155}, {"event_id": "ev-00024", "lookup_plan": "free", "session": "s-014", "ts": "2024-06-03T09:36:29Z", "user_id": 167}, {"event_id": "ev-00025", "lookup_plan": "free", "session": "s-001", "ts": "2024-06-03T09:40:58Z", "user_id": 136}, {"event_id": "ev-00026", "lookup_plan": "free", "session": "s-027", "ts": "2024-06-03T09:45:09Z", "user_id": 188}, {"event_id": "ev-00027", "lookup_plan": "enterprise", "session": "s-010", "ts": "2024-06-03T09:50:46Z", "user_id": 142}, {"event_id": "ev-00028", "lookup_plan": "enterprise", "session": "s-025", "ts": "2024-06-03T09:54:48Z", "user_id": 142}, {"event_id": "ev-00030", "lookup_plan": "free", "session": "s-018", "ts": "2024-06-03T10:03:07Z", "user_id": 140}, {"event_id": "ev-00031", "lookup_plan": "free", "session": "s-016", "ts": "2024-06-03T10:05:30Z", "user_id": 168}, {"event_id": "ev-00032", "lookup_plan": "team", "session": "s-031", "ts": "2024-06-03T10:11:34Z", "user_id": 185}, {"event_id": "ev-00033", "lookup_plan": "team", "session": "s-017", "ts": "2024-06-03T10:11:40Z", "user_id": 102}, {"event_id": "ev-00034", "lookup_plan": "enterprise", "session": "s-030", "ts": "2024-06-03T10:13:28Z", "user_id": 147}, {"event_id": "ev-00035", "lookup_plan": "enterprise", "session": "s-004", "ts": "2024-06-03T10:16:07Z", "user_id": 157}, {"event_id": "ev-00036", "lookup_plan": "free", "session": "s-040", "ts": "2024-06-03T10:18:09Z", "user_id": 128}, {"event_id": "ev-00037", "lookup_plan": "free", "session": "s-036", "ts": "2024-06-03T10:23:27Z", "user_id": 138}, {"event_id": "ev-00038", "lookup_plan": "free", "session": "s-035", "ts": "2024-06-03T10:27:19Z", "user_id": 134}, {"event_id": "ev-00039", "lookup_plan": "enterprise", "session": "s-024", "ts": "2024-06-03T10:28:44Z", "user_id": 120}, {"event_id": "ev-00040", "lookup_plan": "pro", "session": "s-009", "ts": "2024-06-03T10:32:33Z", "user_id": 189}, {"event_id": "ev-00041", "lookup_plan": "enterprise", "session": "s-004", "ts": "2024-06-03T10:37:12Z", "user_id": 169}, {"event_id": "ev-00042", "lookup_plan": "free", "session": "s-028", "ts": "2024-06-03T10:42:56Z", "user_id": 125}, {"event_id": "ev-00043", "lookup_plan": "enterprise", "session": "s-011", "ts": "2024-06-03T10:43:13Z", "user_id": 110}, {"event_id": "ev-00045", "lookup_plan": "free", "session": "s-027", "ts": "2024-06-03T10:48:15Z", "user_id": 116}, {"event_id": "ev-00046", "lookup_plan": "enterprise", "session": "s-004", "ts": "2024-06-03T10:51:16Z", "user_id": 119}, {"event_id": "ev-00047", "lookup_plan": "free", "session": "s-030", "ts": "2024-06-03T10:54:24Z", "user_id": 128}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
