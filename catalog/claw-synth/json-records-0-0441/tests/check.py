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


SPEC = json.loads('{"inputs": {"/app/imports/reviews_changes.jsonl": "06ff55c273b7643110e02b9b5a43f86d4977ef9c4a43936b643ef68b662480ae", "/app/imports/reviews_crm.json": "d1f2705310d4c065cfc238896a48bc18025a8a8f68224cec8911419480b074f9"}, "outputs": {"/app/results/merged.json": ["json", [{"helpful_votes": 12, "rating": 2, "review_id": 5034, "sources": ["reviews_crm"], "updated_at": "2024-09-19T20:39:00Z", "verified": true}, {"helpful_votes": 20, "rating": 5, "review_id": 5035, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-10-24T21:15:00Z", "verified": false}, {"helpful_votes": 32, "review_id": 5036, "sources": ["reviews_changes"], "updated_at": "2024-10-15T11:33:00Z"}, {"helpful_votes": 34, "rating": 1, "review_id": 5037, "sources": ["reviews_crm"], "updated_at": "2024-10-12T11:27:00Z", "verified": true}, {"helpful_votes": 39, "rating": 4, "review_id": 5038, "sources": ["reviews_crm"], "updated_at": "2024-10-13T03:23:00Z", "verified": true}, {"helpful_votes": 31, "rating": 5, "review_id": 5039, "sources": ["reviews_crm"], "updated_at": "2024-10-15T12:40:00Z", "verified": true}, {"helpful_votes": 29, "rating": 4, "review_id": 5040, "sources": ["reviews_crm"], "updated_at": "2024-09-21T18:12:00Z", "verified": true}, {"helpful_votes": 24, "rating": 5, "review_id": 5041, "sources": ["reviews_crm"], "updated_at": "2024-10-18T15:08:00Z", "verified": true}, {"helpful_votes": 35, "rating": 5, "review_id": 5042, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-10-21T09:44:00Z", "verified": true}, {"helpful_votes": 39, "rating": 3, "review_id": 5043, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-10-24T06:39:00Z", "verified": false}, {"helpful_votes": 38, "rating": 2, "review_id": 5044, "sources": ["reviews_crm"], "updated_at": "2024-09-28T11:57:00Z", "verified": false}, {"helpful_votes": 5, "rating": 2, "review_id": 5045, "sources": ["reviews_crm"], "updated_at": "2024-09-19T02:49:00Z", "verified": true}, {"helpful_votes": 19, "rating": 4, "review_id": 5046, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-10-08T20:40:00Z", "verified": true}, {"rating": 4, "review_id": 5047, "sources": ["reviews_changes"], "updated_at": "2024-10-19T05:27:00Z"}, {"helpful_votes": 11, "rating": 4, "review_id": 5048, "sources": ["reviews_crm"], "updated_at": "2024-10-15T11:43:00Z", "verified": false}, {"helpful_votes": 15, "rating": 5, "review_id": 5049, "sources": ["reviews_crm"], "updated_at": "2024-09-25T02:53:00Z", "verified": true}, {"helpful_votes": 33, "rating": 3, "review_id": 5050, "sources": ["reviews_crm"], "updated_at": "2024-09-23T23:43:00Z", "verified": false}, {"helpful_votes": 39, "rating": 5, "review_id": 5051, "sources": ["reviews_changes"], "updated_at": "2024-10-06T03:45:00Z", "verified": true}, {"helpful_votes": 13, "rating": 5, "review_id": 5052, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-10-10T12:50:00Z", "verified": false}, {"helpful_votes": 36, "rating": 1, "review_id": 5053, "sources": ["reviews_crm"], "updated_at": "2024-10-20T13:15:00Z", "verified": true}, {"helpful_votes": 16, "rating": 3, "review_id": 5054, "sources": ["reviews_crm"], "updated_at": "2024-10-07T10:14:00Z", "verified": false}, {"helpful_votes": 27, "rating": 4, "review_id": 5055, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-10-24T07:18:00Z", "verified": true}, {"helpful_votes": 27, "rating": 3, "review_id": 5056, "sources": ["reviews_crm"], "updated_at": "2024-10-02T10:09:00Z", "verified": true}, {"helpful_votes": 7, "rating": 5, "review_id": 5057, "sources": ["reviews_crm"], "updated_at": "2024-10-16T03:48:00Z", "verified": true}, {"helpful_votes": 40, "rating": 1, "review_id": 5058, "sources": ["reviews_crm"], "updated_at": "2024-10-01T20:35:00Z", "verified": false}, {"helpful_votes": 18, "rating": 3, "review_id": 5059, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-10-23T12:52:00Z", "verified": true}, {"helpful_votes": 0, "rating": 4, "review_id": 5060, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-10-09T20:36:00Z", "verified": true}, {"helpful_votes": 12, "rating": 5, "review_id": 5061, "sources": ["reviews_crm"], "updated_at": "2024-09-24T12:35:00Z", "verified": true}, {"helpful_votes": 13, "rating": 5, "review_id": 5062, "sources": ["reviews_changes", "reviews_crm"], "updated_at": "2024-09-27T15:15:00Z", "verified": false}, {"helpful_votes": 21, "rating": 5, "review_id": 5063, "sources": ["reviews_crm"], "updated_at": "2024-09-20T22:03:00Z", "verified": true}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
