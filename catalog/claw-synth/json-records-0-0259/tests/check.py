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


SPEC = json.loads('{"inputs": {"/app/data/reviews.json": "dd32bd2edb847b36a8a54961eb43bdb78c930e1b4ee674f5bc7f4a088081ec71"}, "outputs": {"/app/results/clean.jsonl": ["jsonl", [{"created_at": "2024-01-13", "helpful_votes": 40, "rating": null, "review_id": 5021, "sku": "P-0117", "title": "Bad whatever", "user_id": 178, "verified": false}, {"created_at": "2024-02-14", "helpful_votes": 18, "rating": 3, "review_id": 5022, "sku": "P-0052", "title": "Nice side television", "user_id": 142, "verified": false}, {"created_at": "2024-04-21", "helpful_votes": 40, "rating": 1, "review_id": 5023, "sku": "P-0104", "title": "Subject four", "user_id": 166, "verified": false}, {"created_at": "2024-03-17", "helpful_votes": 34, "rating": 1, "review_id": 5024, "sku": "P-0403", "title": "Former get live", "user_id": 148, "verified": true}, {"created_at": "2024-05-17", "helpful_votes": 17, "rating": null, "review_id": 5025, "sku": "P-0416", "title": "Remember people fight share", "user_id": 109, "verified": true}, {"created_at": "2024-03-19", "helpful_votes": 28, "rating": 2, "review_id": 5026, "sku": "P-0546", "title": "Like sometimes agree present", "user_id": 146, "verified": true}, {"created_at": "2024-01-05", "helpful_votes": 12, "rating": 5, "review_id": 5027, "sku": "P-0689", "title": "Most along break final", "user_id": 160, "verified": true}, {"created_at": "2024-06-07", "helpful_votes": 24, "rating": 5, "review_id": 5028, "sku": "P-0728", "title": "Expect executive strong", "user_id": 118, "verified": true}, {"created_at": "2024-04-17", "helpful_votes": 39, "rating": 2, "review_id": 5029, "sku": "P-0065", "title": "Its thank parent face", "user_id": 109, "verified": true}, {"created_at": "2024-01-04", "helpful_votes": 31, "rating": 2, "review_id": 5030, "sku": "P-0624", "title": "Attorney six sure sense", "user_id": 123, "verified": true}, {"created_at": "2024-02-18", "helpful_votes": 28, "rating": 1, "review_id": 5031, "sku": "P-0559", "title": "Will service receive", "user_id": 147, "verified": false}, {"created_at": "2024-01-04", "helpful_votes": 5, "rating": 2, "review_id": 5032, "sku": "P-0312", "title": "Machine friend large", "user_id": 143, "verified": false}, {"created_at": "2024-06-03", "helpful_votes": 34, "rating": 5, "review_id": 5033, "sku": "P-0338", "title": "Information throw other green", "user_id": 110, "verified": true}, {"created_at": "2024-06-05", "helpful_votes": 12, "rating": 2, "review_id": 5034, "sku": "P-0754", "title": "Read modern main art", "user_id": 121, "verified": true}, {"created_at": "2024-02-23", "helpful_votes": 20, "rating": 5, "review_id": 5035, "sku": "P-0728", "title": "Part he", "user_id": 119, "verified": false}, {"created_at": "2024-01-17", "helpful_votes": 34, "rating": 1, "review_id": 5037, "sku": "P-0273", "title": "Three the ready agreement six", "user_id": 190, "verified": true}, {"created_at": "2024-02-17", "helpful_votes": 39, "rating": 4, "review_id": 5038, "sku": "P-0156", "title": "Two often", "user_id": 110, "verified": true}, {"created_at": "2024-01-14", "helpful_votes": 31, "rating": 5, "review_id": 5039, "sku": "P-0416", "title": "Certainly authority senior", "user_id": 125, "verified": true}, {"created_at": "2024-01-02", "helpful_votes": 29, "rating": 4, "review_id": 5040, "sku": "P-0481", "title": "Outside test consider record", "user_id": 134, "verified": true}, {"created_at": "2024-03-28", "helpful_votes": 24, "rating": 5, "review_id": 5041, "sku": "P-0039", "title": "Movie their account him south", "user_id": 123, "verified": true}, {"created_at": "2024-03-04", "helpful_votes": 35, "rating": 5, "review_id": 5042, "sku": "P-0156", "title": "Job along half", "user_id": 111, "verified": true}, {"created_at": "2024-01-11", "helpful_votes": 5, "rating": 2, "review_id": 5045, "sku": "P-0689", "title": "Simply reason onto painting", "user_id": 167, "verified": true}, {"created_at": "2024-04-02", "helpful_votes": 19, "rating": 4, "review_id": 5046, "sku": "P-0767", "title": "Record new task yard", "user_id": 142, "verified": true}, {"created_at": "2024-05-29", "helpful_votes": 15, "rating": 5, "review_id": 5047, "sku": "P-0520", "title": "Loss enough how bag", "user_id": 159, "verified": true}, {"created_at": "2024-03-20", "helpful_votes": 15, "rating": 5, "review_id": 5049, "sku": "P-0780", "title": "In debate support century", "user_id": 111, "verified": true}, {"created_at": "2024-03-27", "helpful_votes": 33, "rating": 3, "review_id": 5050, "sku": "P-0494", "title": "Individual reflect", "user_id": 186, "verified": false}, {"created_at": "2024-03-23", "helpful_votes": 37, "rating": 4, "review_id": 5051, "sku": "P-0169", "title": "Rich however society", "user_id": 112, "verified": true}, {"created_at": "2024-01-22", "helpful_votes": 35, "rating": 5, "review_id": 5052, "sku": "P-0403", "title": "Network open age reach", "user_id": 141, "verified": false}]], "/app/results/errors.json": ["json", [{"errors": ["title_too_long"], "index": 15, "key": 5036}, {"errors": ["title_too_long"], "index": 22, "key": 5043}, {"errors": ["title_too_long"], "index": 23, "key": 5044}, {"errors": ["review_id_duplicate"], "index": 25, "key": 5024}, {"errors": ["title_too_long"], "index": 28, "key": 5048}, {"errors": ["review_id_duplicate", "title_too_long"], "index": 32, "key": 5036}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
