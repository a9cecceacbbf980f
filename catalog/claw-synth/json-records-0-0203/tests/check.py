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


SPEC = json.loads('{"inputs": {"/app/imports/crm_contacts_changes.jsonl": "d111548ac878f55dc78d172fbe03160b92095318f9326b8222142e52c774a8a9", "/app/imports/crm_contacts_main.json": "435c0f427d5757abc1d79e0952774850f9f3dbf593b701f8c02eb684deb86781"}, "outputs": {"/app/merged.json": ["json", [{"email": "cody.george@example.com", "id": 101, "name": "Cody George", "phone": "+1-555-2078", "sources": ["crm_contacts_main"], "updated_at": "2024-02-15T07:31:00Z"}, {"email": "darlene.graham@example.com", "id": 103, "name": "Nathan", "phone": "+1-555-1534", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-18T06:24:00Z"}, {"email": "robert.kennedy@example.com", "id": 104, "phone": "+1-555-3473", "sources": ["crm_contacts_changes"], "updated_at": "2024-02-18T04:54:00Z"}, {"email": "amanda.walker@mail.test", "id": 105, "name": "Amanda", "phone": "+1-555-3209", "sources": ["crm_contacts_main"], "updated_at": "2024-02-05T21:37:00Z"}, {"email": "sally.obrien@mail.test", "id": 107, "name": "Sally Obrien", "phone": "+1-555-4547", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-01-31T12:25:00Z"}, {"email": "jessica.case@corp.example", "id": 111, "name": "Shawn Roberts", "phone": "+1-555-8690", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-01-23T05:22:00Z"}, {"email": "nancy.wiggins@mail.test", "id": 112, "name": "Nancy Wiggins", "phone": "+1-555-4950", "sources": ["crm_contacts_main"], "updated_at": "2024-02-05T01:36:00Z"}, {"email": "emily59@example.net", "id": 113, "name": "Aaron Duran", "phone": "+1-555-2538", "sources": ["crm_contacts_main"], "updated_at": "2024-01-22T21:25:00Z"}, {"email": "sean.rogers@corp.example", "id": 115, "name": "Sean Rogers", "phone": "+1-555-4464", "sources": ["crm_contacts_main"], "updated_at": "2024-02-20T06:40:00Z"}, {"email": "jody.wall@example.com", "id": 117, "name": "Nancy Wiggins", "phone": "+1-555-5674", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-05T22:05:00Z"}, {"email": "stephanie.becker@example.com", "id": 118, "name": "Stephanie Becker", "phone": "+1-555-2272", "sources": ["crm_contacts_main"], "updated_at": "2024-02-06T20:35:00Z"}, {"email": "tyler.archer@mail.test", "id": 120, "name": "Tyler Archer", "phone": "+1-555-3132", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-07T19:06:00Z"}, {"email": "brenda.perez@example.com", "id": 122, "name": "Brenda Perez", "phone": "+1-555-7558", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-21T05:37:00Z"}, {"email": "don.johnson@example.com", "id": 125, "name": "Don Johnson", "phone": "+1-555-8851", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-08T05:46:00Z"}, {"id": 126, "name": "Elizabeth", "phone": "+1-555-1095", "sources": ["crm_contacts_changes"], "updated_at": "2024-02-14T07:49:00Z"}, {"email": "lawrence.luna@corp.example", "id": 129, "name": "Lawrence Luna", "phone": "+1-555-5131", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-16T22:02:00Z"}, {"email": "elizabeth.nolan@corp.example", "id": 130, "name": "Elizabeth", "phone": "+1-555-5541", "sources": ["crm_contacts_main"], "updated_at": "2024-02-04T18:48:00Z"}, {"email": "justin.fowler@example.com", "id": 131, "name": "Justin Fowler", "phone": "+1-555-4697", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-21T04:12:00Z"}, {"email": "sara.cruz@corp.example", "id": 132, "name": "Jody Wall", "phone": "+1-555-9496", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-01-19T20:51:00Z"}, {"email": "jessica.gonzalez@corp.example", "id": 135, "name": "Joseph", "sources": ["crm_contacts_changes"], "updated_at": "2024-02-12T00:55:00Z"}, {"email": "andrea.mccarthy@mail.test", "id": 136, "phone": "+1-555-8703", "sources": ["crm_contacts_changes"], "updated_at": "2024-01-22T10:20:00Z"}, {"email": "melissa.sandoval@example.com", "id": 137, "name": "Melissa Sandoval", "phone": "+1-555-8703", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-05T07:55:00Z"}, {"id": 138, "name": "Andrea", "sources": ["crm_contacts_changes"], "updated_at": "2024-01-17T14:04:00Z"}, {"email": "nathan.jacobs@mail.test", "id": 139, "name": "Meredith Short", "phone": "+1-555-9963", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-02T09:49:00Z"}, {"id": 141, "name": "Aaron Duran", "phone": "+1-555-4721", "sources": ["crm_contacts_changes"], "updated_at": "2024-02-07T00:13:00Z"}, {"email": "jeffery.evans@mail.test", "id": 143, "name": "Jeffery Evans", "phone": "+1-555-7487", "sources": ["crm_contacts_main"], "updated_at": "2024-02-02T12:15:00Z"}, {"email": "paul.miller at mail.test", "id": 144, "name": "Paul", "phone": "+1-555-4206", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-15T13:51:00Z"}, {"email": "jane.perez@mail.test", "id": 147, "name": "Jane Perez", "phone": "+1-555-8684", "sources": ["crm_contacts_main"], "updated_at": "2024-01-23T22:33:00Z"}, {"email": "carl.marshall@corp.example", "id": 148, "name": "Carl Marshall", "phone": "+1-555-4798", "sources": ["crm_contacts_main"], "updated_at": "2024-02-12T13:56:00Z"}, {"email": "samantha.martinez@mail.test", "id": 150, "name": "Brenda Knight", "phone": "+1-555-2353", "sources": ["crm_contacts_changes"], "updated_at": "2024-02-10T02:43:00Z"}, {"email": "julie.jones@example.com", "id": 151, "name": "Julie", "phone": "+1-555-7047", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-16T20:48:00Z"}, {"email": "keith.ortiz@mail.test", "id": 154, "name": "Keith Ortiz", "phone": "+1-555-9206", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-03T16:54:00Z"}, {"email": "james.delacruz@example.com", "id": 155, "name": "James Delacruz", "phone": "+1-555-7208", "sources": ["crm_contacts_main"], "updated_at": "2024-01-25T17:29:00Z"}, {"email": "mooreandrew@example.com", "id": 156, "name": "Charles James", "phone": "+1-555-7838", "sources": ["crm_contacts_main"], "updated_at": "2024-02-11T08:57:00Z"}, {"id": 157, "name": "Lucas Yates", "phone": "+1-555-0509", "sources": ["crm_contacts_changes"], "updated_at": "2024-01-31T21:29:00Z"}, {"email": "shawn.roberts@mail.test", "id": 159, "name": "Shawn Roberts", "phone": "+1-555-8867", "sources": ["crm_contacts_main"], "updated_at": "2024-02-13T07:50:00Z"}, {"email": "teresa.dixon@example.com", "id": 160, "name": "Teresa Dixon", "phone": "+1-555-8630", "sources": ["crm_contacts_main"], "updated_at": "2024-02-16T16:37:00Z"}, {"email": "thomas.smith@corp.example", "id": 161, "name": "Thomas Smith", "phone": "+1-555-7613", "sources": ["crm_contacts_main"], "updated_at": "2024-01-21T10:36:00Z"}, {"email": "ashley.douglas@corp.example", "id": 162, "name": "Ashley Douglas", "phone": "+1-555-7911", "sources": ["crm_contacts_main"], "updated_at": "2024-01-30T02:58:00Z"}, {"email": "amanda.smith@mail.test", "id": 164, "name": "Amanda", "phone": "+1-555-3172", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-01-24T03:48:00Z"}, {"email": "kim.jackson@example.com", "id": 165, "name": "Kim", "phone": "+1-555-0509", "sources": ["crm_contacts_main"], "updated_at": "2024-01-18T03:43:00Z"}, {"email": "shawn.wilson@mail.test", "id": 166, "name": "Shawn Wilson", "phone": "+1-555-8729", "sources": ["crm_contacts_main"], "updated_at": "2024-02-06T09:48:00Z"}, {"email": "cody.harris@example.com", "id": 168, "name": "Cody Harris", "phone": "+1-555-7633", "sources": ["crm_contacts_main"], "updated_at": "2024-02-18T12:04:00Z"}, {"email": "amanda.bailey@corp.example", "id": 169, "name": "Amanda Bailey", "phone": "+1-555-7770", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-18T08:43:00Z"}, {"email": "kimberly.adams@example.com", "id": 170, "name": "Kimberly Adams", "phone": "+1-555-6819", "sources": ["crm_contacts_main"], "updated_at": "2024-01-31T16:54:00Z"}, {"email": "susan.moore@mail.test", "id": 171, "name": "Aaron Cox", "phone": "+1-555-3790", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-07T20:14:00Z"}, {"email": "joseph.brown@mail.test", "id": 172, "name": "Joseph", "phone": "+1-555-5447", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-12T08:30:00Z"}, {"id": 174, "name": "Robert Kennedy", "phone": "+1-555-0724", "sources": ["crm_contacts_changes"], "updated_at": "2024-02-18T13:37:00Z"}, {"email": "jessica.gonzalez@corp.example", "id": 176, "name": "Jessica Gonzalez", "phone": "+1-555-5645", "sources": ["crm_contacts_main"], "updated_at": "2024-02-16T22:25:00Z"}, {"email": "susan.moore@mail.test", "id": 177, "name": "Susan", "phone": "+1-555-5633", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-18T01:50:00Z"}, {"email": "ashley.mclaughlin@corp.example", "id": 178, "name": "Ashley Mclaughlin", "phone": "+1-555-8079", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-21T00:00:00Z"}, {"email": "amanda.bailey@corp.example", "id": 179, "name": "David", "phone": "+1-555-9824", "sources": ["crm_contacts_changes"], "updated_at": "2024-01-15T21:34:00Z"}, {"email": "nathan.jacobs@mail.test", "id": 180, "name": "Nathan", "phone": "+1-555-3790", "sources": ["crm_contacts_main"], "updated_at": "2024-02-20T14:01:00Z"}, {"email": "david.holmes@example.com", "id": 184, "name": "David Holmes", "phone": "+1-555-6049", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-01-19T03:34:00Z"}, {"email": "christopher.williams@corp.example", "id": 185, "name": "Christopher Williams", "phone": "+1-555-2487", "sources": ["crm_contacts_main"], "updated_at": "2024-02-15T05:03:00Z"}, {"email": "dean.carter@corp.example", "id": 186, "name": "Dean Carter", "phone": "+1-555-6975", "sources": ["crm_contacts_main"], "updated_at": "2024-02-17T06:28:00Z"}, {"email": "sarah.perez@corp.example", "id": 187, "name": "Sarah Perez", "phone": "+1-555-4147", "sources": ["crm_contacts_main"], "updated_at": "2024-02-19T03:58:00Z"}, {"email": "cynthia.stuart@mail.test", "id": 189, "name": "Amy", "phone": "+1-555-8747", "sources": ["crm_contacts_changes", "crm_contacts_main"], "updated_at": "2024-02-15T08:04:00Z"}, {"email": "christina.vazquez@example.com", "id": 190, "phone": "+1-555-3949", "sources": ["crm_contacts_changes"], "updated_at": "2024-01-29T17:41:00Z"}]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
