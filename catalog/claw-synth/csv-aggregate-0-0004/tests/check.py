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


SPEC = json.loads('{"expected": [["claim_id", "category", "amount", "submitted_on"], ["EXP-30137", "lodging", "827.70", "2024-05-20"], ["EXP-30139", "lodging", "410.03", "2024-05-21"], ["EXP-30140", "meals", "411.23", "2024-03-03"], ["EXP-30141", "lodging", "73.84", "2024-04-05"], ["EXP-30142", "training", "504.82", "2024-03-23"], ["EXP-30143", "software", "248.01", "2024-01-21"], ["EXP-30144", "lodging", "170.24", "2024-05-18"], ["EXP-30145", "training", "577.31", "2024-01-28"], ["EXP-30146", "office", "603.93", "2024-05-13"], ["EXP-30147", "travel", "154.45", "2024-02-05"], ["EXP-30148", "software", "745.38", "2024-02-29"], ["EXP-30149", "meals", "162.90", "2024-01-20"], ["EXP-30150", "meals", "217.19", "2024-03-19"], ["EXP-30151", "training", "437.55", "2024-03-30"], ["EXP-30152", "lodging", "664.54", "2024-03-23"], ["EXP-30153", "travel", "209.94", "2024-01-04"], ["EXP-30154", "lodging", "504.63", "2024-02-21"], ["EXP-30155", "meals", "634.97", "2024-01-16"], ["EXP-30156", "training", "424.23", "2024-01-04"], ["EXP-30157", "travel", "617.53", "2024-02-19"], ["EXP-30158", "office", "550.74", "2024-03-18"], ["EXP-30159", "lodging", "363.90", "2024-03-18"], ["EXP-30160", "office", "637.10", "2024-04-25"], ["EXP-30161", "travel", "667.51", "2024-01-02"], ["EXP-30162", "office", "271.08", "2024-01-24"], ["EXP-30163", "office", "232.61", "2024-03-01"], ["EXP-30164", "office", "408.68", "2024-02-02"], ["EXP-30165", "travel", "170.01", "2024-04-19"], ["EXP-30166", "meals", "884.75", "2024-03-06"], ["EXP-30167", "office", "547.19", "2024-05-02"], ["EXP-30168", "training", "448.73", "2024-03-01"], ["EXP-30169", "software", "140.23", "2024-02-27"], ["EXP-30170", "lodging", "772.12", "2024-05-20"], ["EXP-30172", "lodging", "723.71", "2024-03-22"], ["EXP-30173", "software", "613.61", "2024-01-07"], ["EXP-30175", "training", "660.65", "2024-01-30"], ["EXP-30176", "training", "487.37", "2024-01-07"], ["EXP-30177", "travel", "781.87", "2024-03-19"], ["EXP-30178", "lodging", "129.67", "2024-03-03"], ["EXP-30179", "software", "750.82", "2024-01-20"], ["EXP-30180", "software", "294.91", "2024-03-30"], ["EXP-30181", "software", "112.87", "2024-05-02"], ["EXP-30182", "training", "533.70", "2024-03-24"], ["EXP-30183", "training", "870.41", "2024-03-01"], ["EXP-30184", "software", "850.98", "2024-02-20"], ["EXP-30185", "travel", "826.65", "2024-02-17"], ["EXP-30186", "lodging", "356.59", "2024-01-08"], ["EXP-30187", "meals", "706.29", "2024-02-13"], ["EXP-30188", "office", "525.72", "2024-04-26"], ["EXP-30189", "training", "300.96", "2024-01-16"], ["EXP-30190", "training", "818.06", "2024-04-30"], ["EXP-30191", "training", "576.55", "2024-04-09"], ["EXP-30192", "software", "880.22", "2024-04-03"]], "kind": "csv", "out": "/app/output/clean.csv", "src": "/app/data/expense_claims_export.csv", "src_sha256": "433962ad1af078b5c4513008f9ec6747d98c51fed064a7a65d00f5dc36623940"}')

unchanged(SPEC["src"], SPEC["src_sha256"])
compare_output(SPEC["out"], SPEC["kind"], SPEC["expected"])
finish(SPEC["out"])
