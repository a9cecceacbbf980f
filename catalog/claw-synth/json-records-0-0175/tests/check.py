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


SPEC = json.loads('{"inputs": {"/app/exports/crm_contacts.jsonl": "f61ff190aeb6fb5546c9156c36603dcc91b3610c1f3d211fc7b891d3ddf5367e"}, "outputs": {"/app/output/clean.jsonl": ["jsonl", [{"country": "NL", "email": "elizabeth.nolan@corp.example", "id": 130, "name": "Elizabeth", "owner": "bo", "phone": "+1-555-5541", "updated_at": "2024-05-11T12:23:00Z"}, {"country": "DE", "email": "kimberly.adams@example.com", "id": 170, "name": "Kimberly Adams", "owner": "dara", "phone": "+1-555-6819", "updated_at": "2024-03-26T14:16:00Z"}, {"country": "BR", "email": "robert.wright@example.com", "id": 141, "name": "Robert", "owner": "dara", "phone": "+1-555-4721", "updated_at": "2024-04-28T15:53:00Z"}, {"country": "JP", "email": "sean.rogers@corp.example", "id": 115, "name": "Sean Rogers", "owner": "bo", "phone": "+1-555-4464", "updated_at": "2024-04-19T06:03:00Z"}, {"country": "GB", "email": "jody.wall@example.com", "id": 104, "name": "Jody Wall", "owner": "dara", "phone": "+1-555-3473", "updated_at": "2024-03-28T00:52:00Z"}, {"country": "NL", "email": "nancy.wiggins@mail.test", "id": 112, "name": "Nancy Wiggins", "owner": "bo", "phone": "+1-555-4950", "updated_at": "2024-04-27T08:32:00Z"}, {"country": "DE", "email": "sally.obrien@mail.test", "id": 107, "name": "Sally Obrien", "owner": "dara", "phone": "+1-555-4547", "updated_at": "2024-03-01T13:46:00Z"}, {"country": "NL", "email": "tyler.archer@mail.test", "id": 120, "name": "Tyler Archer", "owner": "chen", "phone": "+1-555-3132", "updated_at": "2024-05-26T22:40:00Z"}, {"country": "BR", "email": "christina.vazquez@example.com", "id": 190, "name": "Christina Vazquez", "owner": "bo", "phone": "+1-555-3949", "updated_at": "2024-04-26T07:41:00Z"}, {"country": "BR", "email": "nathan.jacobs@mail.test", "id": 180, "name": "Nathan", "owner": "bo", "phone": "+1-555-3790", "updated_at": "2024-03-03T18:26:00Z"}, {"country": "BR", "email": "jane.perez@mail.test", "id": 147, "name": "Jane Perez", "owner": "bo", "phone": "+1-555-8684", "updated_at": "2024-05-29T15:26:00Z"}, {"country": "NL", "email": "brenda.perez@example.com", "id": 122, "name": "Brenda Perez", "owner": "chen", "phone": "+1-555-7558", "updated_at": "2024-04-26T19:11:00Z"}, {"country": "FR", "email": "mooreandrew@example.com", "id": 156, "name": "Charles James", "owner": "chen", "phone": "+1-555-7838", "updated_at": "2024-05-27T05:28:00Z"}, {"country": "ES", "email": "david.sanchez@corp.example", "id": 179, "name": "David", "owner": "bo", "phone": "+1-555-9824", "updated_at": "2024-04-02T10:04:00Z"}, {"country": "NL", "email": "lucas.yates@mail.test", "id": 157, "name": "Lucas Yates", "owner": "dara", "phone": "+1-555-1095", "updated_at": "2024-04-04T11:10:00Z"}, {"country": "ES", "email": "brenda.knight@corp.example", "id": 150, "name": "Brenda Knight", "owner": "dara", "phone": "+1-555-2353", "updated_at": "2024-05-19T14:30:00Z"}, {"country": "JP", "email": "dean.carter@corp.example", "id": 186, "name": "Dean Carter", "owner": "dara", "phone": "+1-555-6975", "updated_at": "2024-03-19T03:58:00Z"}, {"country": "JP", "email": "shawn.roberts@mail.test", "id": 159, "name": "Shawn Roberts", "owner": "chen", "phone": "+1-555-8867", "updated_at": "2024-03-21T11:47:00Z"}, {"country": "GB", "email": "david.holmes@example.com", "id": 184, "name": "David Holmes", "owner": "chen", "phone": "+1-555-6049", "updated_at": "2024-03-15T22:30:00Z"}, {"country": "US", "email": "ashley.douglas@corp.example", "id": 162, "name": "Ashley Douglas", "owner": "chen", "phone": "+1-555-7911", "updated_at": "2024-04-06T15:45:00Z"}, {"country": "NL", "email": "keith.ortiz@mail.test", "id": 154, "name": "Keith Ortiz", "owner": "bo", "phone": "+1-555-9206", "updated_at": "2024-05-22T07:22:00Z"}, {"country": "ES", "email": "cody.george@example.com", "id": 101, "name": "Cody George", "owner": "chen", "phone": "+1-555-2078", "updated_at": "2024-05-03T17:40:00Z"}, {"country": "NL", "email": "sara.cruz@corp.example", "id": 132, "name": "Sara Cruz", "owner": "chen", "phone": "+1-555-9496", "updated_at": "2024-05-14T00:13:00Z"}, {"country": "DE", "email": "emily59@example.net", "id": 113, "name": "Aaron Duran", "owner": "chen", "phone": "+1-555-2538", "updated_at": "2024-04-24T18:38:00Z"}, {"country": "US", "email": "sarah.perez@corp.example", "id": 187, "name": "Sarah Perez", "owner": "bo", "phone": "+1-555-4147", "updated_at": "2024-05-28T03:54:00Z"}, {"country": "GB", "email": "ashley.mclaughlin@corp.example", "id": 178, "name": "Ashley Mclaughlin", "owner": "bo", "phone": "+1-555-8079", "updated_at": "2024-04-06T09:18:00Z"}, {"country": "DE", "email": "don.johnson@example.com", "id": 125, "name": "Don Johnson", "owner": "chen", "phone": "+1-555-8851", "updated_at": "2024-03-22T22:26:00Z"}, {"country": "NL", "email": "cynthia.stuart@mail.test", "id": 189, "name": "Cynthia Stuart", "owner": "chen", "phone": "+1-555-8747", "updated_at": "2024-04-09T20:42:00Z"}, {"country": "BR", "email": "christopher.williams@corp.example", "id": 185, "name": "Christopher Williams", "owner": "bo", "phone": "+1-555-2487", "updated_at": "2024-05-06T16:53:00Z"}, {"country": "ES", "email": "susan.moore@mail.test", "id": 177, "name": "Susan", "owner": "bo", "phone": "+1-555-5633", "updated_at": "2024-03-17T04:12:00Z"}, {"country": "JP", "email": "amanda.bailey@corp.example", "id": 169, "name": "Amanda Bailey", "owner": "chen", "phone": "+1-555-7770", "updated_at": "2024-05-26T08:42:00Z"}, {"country": "DE", "email": "justin.fowler@example.com", "id": 131, "name": "Justin Fowler", "owner": "dara", "phone": "+1-555-4697", "updated_at": "2024-03-30T11:33:00Z"}, {"country": "DE", "email": "shawn.wilson@mail.test", "id": 166, "name": "Shawn Wilson", "owner": "chen", "phone": "+1-555-8729", "updated_at": "2024-05-11T18:12:00Z"}, {"country": "GB", "email": "carl.marshall@corp.example", "id": 148, "name": "Carl Marshall", "owner": "dara", "phone": "+1-555-4798", "updated_at": "2024-05-07T03:55:00Z"}, {"country": "BR", "email": "amanda.walker@mail.test", "id": 105, "name": "Amanda", "owner": "bo", "phone": "+1-555-3209", "updated_at": "2024-03-21T02:38:00Z"}, {"country": "FR", "email": "julie.jones@example.com", "id": 151, "name": "Julie", "owner": "chen", "phone": "+1-555-7047", "updated_at": "2024-03-04T21:14:00Z"}, {"country": "GB", "email": "aaron.cox@example.com", "id": 171, "name": "Aaron Cox", "owner": "dara", "phone": "+1-555-0724", "updated_at": "2024-05-12T06:43:00Z"}, {"country": "NL", "email": "teresa.dixon@example.com", "id": 160, "name": "Teresa Dixon", "owner": "dara", "phone": "+1-555-8630", "updated_at": "2024-04-21T15:45:00Z"}]], "/app/output/crm_contacts_errors.json": ["json", [{"errors": ["bad_email"], "index": 0, "key": 165}, {"errors": ["duplicate_id"], "index": 1, "key": 165}, {"errors": ["bad_owner"], "index": 2, "key": 172}, {"errors": ["bad_owner"], "index": 5, "key": 126}, {"errors": ["bad_owner"], "index": 6, "key": 174}, {"errors": ["bad_owner"], "index": 8, "key": 111}, {"errors": ["bad_email"], "index": 12, "key": 144}, {"errors": ["bad_owner"], "index": 21, "key": 155}, {"errors": ["bad_owner"], "index": 22, "key": 117}, {"errors": ["bad_owner"], "index": 24, "key": 137}, {"errors": ["bad_owner"], "index": 26, "key": 139}, {"errors": ["bad_email"], "index": 27, "key": 129}, {"errors": ["bad_owner"], "index": 30, "key": 176}, {"errors": ["bad_owner"], "index": 31, "key": 118}, {"errors": ["bad_owner"], "index": 32, "key": 103}, {"errors": ["bad_owner"], "index": 38, "key": 138}, {"errors": ["bad_owner"], "index": 40, "key": 136}, {"errors": ["bad_owner", "missing_id"], "index": 42, "key": null}, {"errors": ["duplicate_id"], "index": 43, "key": 129}, {"errors": ["bad_owner"], "index": 46, "key": 135}, {"errors": ["duplicate_id"], "index": 48, "key": 186}, {"errors": ["bad_owner", "duplicate_id"], "index": 49, "key": 113}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
