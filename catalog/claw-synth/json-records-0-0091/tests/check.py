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


SPEC = json.loads('{"inputs": {"/app/data/orders.jsonl": "3bafab0c7ace4d15d9ee485ec668394c714e1509089063693856767d233bdf1a"}, "outputs": {"/app/orders_valid.jsonl": ["jsonl", [{"coupon": null, "created_at": "2024-05-24T07:32:00Z", "order_id": "O-60061", "quantity": 5, "sku": "P-0559", "status": "refunded", "unit_price": 156.5, "user_id": 168}, {"coupon": null, "created_at": "2024-05-02T01:22:00Z", "order_id": "O-60062", "quantity": 1, "sku": "P-0650", "status": "paid", "unit_price": 247.39, "user_id": 171}, {"coupon": null, "created_at": "2024-05-02T00:30:00Z", "order_id": "O-60063", "quantity": 5, "sku": "P-0234", "status": "paid", "unit_price": 361.9, "user_id": 188}, {"coupon": null, "created_at": "2024-05-22T19:41:00Z", "order_id": "O-60064", "quantity": 3, "sku": "P-0234", "status": "paid", "unit_price": 361.9, "user_id": 141}, {"coupon": "VIP", "created_at": "2024-06-04T23:54:00Z", "order_id": "O-60067", "quantity": 3, "sku": "P-0572", "status": "paid", "unit_price": 159.85, "user_id": 177}, {"coupon": null, "created_at": "2024-05-23T01:41:00Z", "order_id": "O-60068", "quantity": 6, "sku": "P-0585", "status": "refunded", "unit_price": 234.21, "user_id": 106}, {"coupon": null, "created_at": "2024-05-03T08:50:00Z", "order_id": "O-60069", "quantity": 3, "sku": "P-0143", "status": "paid", "unit_price": 210.5, "user_id": 156}, {"coupon": null, "created_at": "2024-06-04T20:05:00Z", "order_id": "O-60070", "quantity": 6, "sku": "P-0273", "status": "pending", "unit_price": 35.44, "user_id": 124}, {"coupon": "VIP", "created_at": "2024-06-01T03:22:00Z", "order_id": "O-60071", "quantity": 2, "sku": "P-0195", "status": "paid", "unit_price": 328.81, "user_id": 186}, {"coupon": "VIP", "created_at": "2024-05-22T16:52:00Z", "order_id": "O-60072", "quantity": 1, "sku": "P-0429", "status": "paid", "unit_price": 36.46, "user_id": 185}, {"coupon": null, "created_at": "2024-06-06T11:38:00Z", "order_id": "O-60073", "quantity": 5, "sku": "P-0715", "status": "pending", "unit_price": 136.92, "user_id": 147}, {"coupon": null, "created_at": "2024-06-14T23:05:00Z", "order_id": "O-60074", "quantity": 5, "sku": "P-0533", "status": "paid", "unit_price": 49.18, "user_id": 140}, {"coupon": null, "created_at": "2024-05-08T17:14:00Z", "order_id": "O-60075", "quantity": 4, "sku": "P-0533", "status": "paid", "unit_price": 49.18, "user_id": 189}, {"coupon": "SPRING10", "created_at": "2024-06-11T15:41:00Z", "order_id": "O-60076", "quantity": 3, "sku": "P-0611", "status": "pending", "unit_price": 294.15, "user_id": 184}, {"coupon": null, "created_at": "2024-05-04T02:18:00Z", "order_id": "O-60077", "quantity": 6, "sku": "P-0572", "status": "paid", "unit_price": 159.85, "user_id": 175}, {"coupon": null, "created_at": "2024-05-10T19:55:00Z", "order_id": "O-60078", "quantity": 4, "sku": "P-0598", "status": "pending", "unit_price": 308.58, "user_id": 164}, {"coupon": null, "created_at": "2024-06-13T19:56:00Z", "order_id": "O-60079", "quantity": 5, "sku": "P-0130", "status": "pending", "unit_price": 298.18, "user_id": 178}, {"coupon": "SPRING10", "created_at": "2024-05-25T23:26:00Z", "order_id": "O-60080", "quantity": 2, "sku": "P-0702", "status": "paid", "unit_price": 195.06, "user_id": 124}, {"coupon": null, "created_at": "2024-06-07T08:52:00Z", "order_id": "O-60081", "quantity": 1, "sku": "P-0715", "status": "pending", "unit_price": 136.92, "user_id": 187}, {"coupon": "SPRING10", "created_at": "2024-05-23T05:24:00Z", "order_id": "O-60082", "quantity": 3, "sku": "P-0676", "status": "paid", "unit_price": 377.0, "user_id": 126}, {"coupon": "VIP", "created_at": "2024-05-20T16:37:00Z", "order_id": "O-60083", "quantity": 3, "sku": "P-0767", "status": "paid", "unit_price": 147.21, "user_id": 113}, {"coupon": null, "created_at": "2024-05-30T10:06:00Z", "order_id": "O-60084", "quantity": 4, "sku": "P-0169", "status": "paid", "unit_price": 154.05, "user_id": 165}, {"coupon": null, "created_at": "2024-05-23T03:28:00Z", "order_id": "O-60085", "quantity": 5, "sku": "P-0013", "status": "pending", "unit_price": 339.43, "user_id": 153}, {"coupon": null, "created_at": "2024-05-19T18:18:00Z", "order_id": "O-60086", "quantity": 4, "sku": "P-0169", "status": "paid", "unit_price": 154.05, "user_id": 155}, {"coupon": "SPRING10", "created_at": "2024-05-11T12:16:00Z", "order_id": "O-60088", "quantity": 6, "sku": "P-0065", "status": "paid", "unit_price": 97.59, "user_id": 179}, {"coupon": null, "created_at": "2024-05-01T06:27:00Z", "order_id": "O-60089", "quantity": 4, "sku": "P-0325", "status": "paid", "unit_price": 399.6, "user_id": 185}, {"coupon": "VIP", "created_at": "2024-05-08T17:47:00Z", "order_id": "O-60090", "quantity": 1, "sku": "P-0273", "status": "paid", "unit_price": 35.44, "user_id": 129}, {"coupon": null, "created_at": "2024-06-13T12:10:00Z", "order_id": "O-60091", "quantity": 3, "sku": "P-0039", "status": "paid", "unit_price": 355.57, "user_id": 107}, {"coupon": null, "created_at": "2024-05-30T19:43:00Z", "order_id": "O-60092", "quantity": 5, "sku": "P-0247", "status": "paid", "unit_price": 31.75, "user_id": 121}]], "/app/rejects.json": ["json", [{"errors": ["bad_status"], "index": 4, "key": "O-60065"}, {"errors": ["bad_status"], "index": 5, "key": "O-60066"}, {"errors": ["bad_status"], "index": 26, "key": "O-60087"}, {"errors": ["duplicate_order_id", "missing_sku"], "index": 27, "key": "O-60072"}, {"errors": ["duplicate_order_id", "missing_sku"], "index": 28, "key": "O-60061"}, {"errors": ["bad_status"], "index": 34, "key": "O-60093"}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
