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


SPEC = json.loads('{"inputs": {"/app/feeds/users.json": "106c6987323be068bc3867937e2ffd4b44dcafce3ff3f2e6dc6343739a3df998"}, "outputs": {"/app/output/clean.jsonl": ["jsonl", [{"active": true, "address": {"city": "Tomhaven", "postcode": "19807"}, "country": "NL", "email": "brenda.perez@example.com", "id": 122, "logins": 277, "name": "Brenda Perez", "plan": "free", "signup_date": "2023-07-14"}, {"active": true, "address": {"city": "South Rachel", "postcode": "85815"}, "country": "JP", "email": "marcus.reese@mail.test", "id": 123, "logins": 145, "name": "Marcus Reese", "plan": "enterprise", "signup_date": "2022-02-25"}, {"active": false, "address": {"city": "Lake Brianton", "postcode": "02871"}, "country": "US", "email": "raymond.dickerson@example.com", "id": 124, "logins": 39, "name": "Raymond Dickerson", "plan": "free", "signup_date": "2022-06-02"}, {"active": true, "address": {"city": "Angelaport", "postcode": "17875"}, "country": "DE", "email": "don.johnson@example.com", "id": 125, "logins": 61, "name": "Don Johnson", "plan": "free", "signup_date": "2022-07-21"}, {"active": false, "address": {"city": "Lisamouth", "postcode": "02795"}, "country": "JP", "email": "stephanie.smith@corp.example", "id": 127, "logins": 47, "name": "Stephanie Smith", "plan": "free", "signup_date": "2024-01-27"}, {"active": true, "address": {"city": "Sampsonshire", "postcode": "55221"}, "country": "DE", "email": "chelsea.chambers@mail.test", "id": 128, "logins": 294, "name": "Chelsea Chambers", "plan": "free", "signup_date": "2022-07-15"}, {"active": true, "address": {"city": "New Steven", "postcode": "20791"}, "country": "FR", "email": "lawrence.luna@corp.example", "id": 129, "logins": 32, "name": "Lawrence Luna", "plan": "free", "signup_date": "2023-11-09"}, {"active": true, "address": {"city": "Kentbury", "postcode": "44356"}, "country": "NL", "email": "elizabeth.nolan@corp.example", "id": 130, "logins": 69, "name": "Elizabeth Nolan", "plan": "enterprise", "signup_date": "2023-11-23"}, {"active": true, "address": {"city": "Elliottstad", "postcode": "93025"}, "country": "DE", "email": "justin.fowler@example.com", "id": 131, "logins": 37, "name": "Justin Fowler", "plan": "pro", "signup_date": "2022-08-15"}, {"active": true, "address": {"city": "Reeveschester", "postcode": "21400"}, "country": "NL", "email": "sara.cruz@corp.example", "id": 132, "logins": 263, "name": "Sara Cruz", "plan": "pro", "signup_date": "2024-01-09"}, {"active": true, "address": {"city": "Spencerhaven", "postcode": "85961"}, "country": "ES", "email": "catherine.olson@example.com", "id": 133, "logins": 209, "name": "Catherine Olson", "plan": "free", "signup_date": "2023-06-12"}, {"active": true, "address": {"city": "New Ashley", "postcode": "18754"}, "country": "ES", "email": "ann.jacobs@example.com", "id": 135, "logins": 56, "name": "Ann Jacobs", "plan": "free", "signup_date": "2023-08-27"}, {"active": false, "address": {"city": "Milesberg", "postcode": "03507"}, "country": "US", "email": "amy.carter@mail.test", "id": 136, "logins": 111, "name": "Amy Carter", "plan": "free", "signup_date": "2022-03-19"}, {"active": false, "address": {"city": "East Peterport", "postcode": "88676"}, "country": "ES", "email": "melissa.sandoval@example.com", "id": 137, "logins": 261, "name": "Melissa Sandoval", "plan": "free", "signup_date": "2022-05-11"}, {"active": true, "address": {"city": "Port Zacharyburgh", "postcode": "20034"}, "country": "NL", "email": "andrea.mccarthy@mail.test", "id": 138, "logins": 73, "name": "Andrea Mccarthy", "plan": "free", "signup_date": "2022-10-15"}, {"active": true, "address": {"city": "Port Alexismouth", "postcode": "53584"}, "country": "BR", "email": "meredith.short@mail.test", "id": 139, "logins": 279, "name": "Meredith Short", "plan": "free", "signup_date": "2023-06-28"}, {"active": false, "address": {"city": "East Joshua", "postcode": "16231"}, "country": "NL", "email": "luke.perez@example.com", "id": 140, "logins": 11, "name": "Luke Perez", "plan": "free", "signup_date": "2022-07-26"}, {"active": false, "address": {"city": "Port Charlesmouth", "postcode": "28879"}, "country": "DE", "email": null, "id": 113, "logins": 22, "name": "Aaron Duran", "plan": "team", "signup_date": "2024-01-13"}, {"active": true, "address": {"city": "Biancamouth", "postcode": "87732"}, "country": "BR", "email": "robert.wright@example.com", "id": 141, "logins": 43, "name": "Robert Wright", "plan": "free", "signup_date": "2022-04-27"}, {"active": true, "address": {"city": "Sethfurt", "postcode": "73385"}, "country": "ES", "email": "jeffery.evans@mail.test", "id": 143, "logins": 132, "name": "Jeffery Evans", "plan": "free", "signup_date": "2023-02-09"}, {"active": true, "address": {"city": "Maxwellton", "postcode": "30204"}, "country": "ES", "email": null, "id": 145, "logins": 210, "name": "Stephen Rogers", "plan": "enterprise", "signup_date": "2024-01-06"}, {"active": true, "address": {"city": "Powershaven", "postcode": "12345"}, "country": "DE", "email": "michelle.ortiz@mail.test", "id": 146, "logins": 242, "name": "Michelle Ortiz", "plan": "team", "signup_date": "2023-02-08"}, {"active": true, "address": {"city": "Lake Seanfort", "postcode": "47237"}, "country": "BR", "email": "jane.perez@mail.test", "id": 147, "logins": 182, "name": "Jane Perez", "plan": "enterprise", "signup_date": "2023-08-12"}, {"active": false, "address": {"city": "Lake Betty", "postcode": "42972"}, "country": "GB", "email": "carl.marshall@corp.example", "id": 148, "logins": 80, "name": "Carl Marshall", "plan": "pro", "signup_date": "2022-06-04"}, {"active": true, "address": {"city": "Davidview", "postcode": "55810"}, "country": "FR", "email": "hunter.garrett@corp.example", "id": 149, "logins": 203, "name": "Hunter Garrett", "plan": "enterprise", "signup_date": "2023-04-21"}]], "/app/output/users_errors.json": ["json", [{"errors": ["logins_invalid"], "index": 1, "key": 142}, {"errors": ["email_invalid"], "index": 5, "key": 126}, {"errors": ["email_invalid"], "index": 13, "key": 134}, {"errors": ["id_duplicate", "signup_date_required"], "index": 14, "key": 127}, {"errors": ["id_duplicate"], "index": 23, "key": 142}, {"errors": ["email_invalid"], "index": 25, "key": 144}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
