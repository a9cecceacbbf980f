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


SPEC = json.loads('{"expected": [["status", "priority", "ticket_id", "csat", "team"], ["closed", "medium", "TCK-5097", "1.0", "billing"], ["closed", "medium", "TCK-5098", "5.0", "onboarding"], ["closed", "medium", "TCK-5099", "1.0", "mobile"], ["closed", "low", "TCK-5101", "3.0", "mobile"], ["closed", "high", "TCK-5104", "3.0", "mobile"], ["closed", "high", "TCK-5104-N77", "-9.0", "mobile"], ["closed", "high", "TCK-5105", "1.0", "platform"], ["closed", "medium", "TCK-5108", "1.0", "mobile"], ["closed", "medium", "TCK-5108-X60", "1.0", "mobile"], ["closed", "urgent", "TCK-5111", "3.0", "billing"], ["closed", "low", "TCK-5112", "1.0", "onboarding"], ["closed", "low", "TCK-5114", "3.0", "onboarding"], ["closed", "medium", "TCK-5117", "2.0", "platform"], ["closed", "high", "TCK-5122", "3.0", "mobile"], ["closed", "medium", "TCK-5123", "1.0", "platform"], ["closed", "medium", "TCK-5125", "2.0", "mobile"], ["closed", "high", "TCK-5126", "5.0", "mobile"], ["closed", "urgent", "TCK-5128", "5.0", "onboarding"], ["closed", "high", "TCK-5130", "5.0", "onboarding"], ["closed", "high", "TCK-5132", "1.0", "billing"], ["closed", "low", "TCK-5134", "1.0", "platform"], ["closed", "urgent", "TCK-5135", "5.0", "mobile"], ["closed", "medium", "TCK-5136", "2.0", "mobile"], ["closed", "medium", "TCK-5138", "5.0", "mobile"], ["closed", "high", "TCK-5139", "3.0", "mobile"], ["closed", "urgent", "TCK-5140", "3.0", "platform"], ["closed", "high", "TCK-5142", "4.0", "onboarding"], ["closed", "high", "TCK-5144", "3.0", "mobile"], ["closed", "medium", "TCK-5145", "1.0", "mobile"], ["closed", "urgent", "TCK-5146", "3.0", "platform"], ["closed", "Medium", "TCK-5147", "1.0", "mobile"], ["closed", "medium", "TCK-5148", "1.0", "platform"], ["closed", "low", "TCK-5149", "1.0", "onboarding"], ["closed", "urgent", "TCK-5150", "1.0", "platform"], ["closed", "urgent", "TCK-5152", "2.0", "platform"], ["closed", "low", "TCK-5153", "1.0", "onboarding"], ["closed", "high", "TCK-5154", "4.0", "onboarding"], ["closed", "urgent", "TCK-5156", "3.0", "billing"], ["closed", "medium", "TCK-5157", "3.0", "billing"], ["closed", "low", "TCK-5161", "2.0", "billing"], ["closed", "low", "TCK-5161-X28", "2.0", "billing"], ["closed", "high", "TCK-5163", "4.0", "mobile"], ["closed", "medium", "TCK-5164", "4.0", "mobile"], ["closed", "high", "TCK-5165", "5.0", "mobile"], ["closed", "urgent", "TCK-5166", "2.0", "onboarding"], ["closed", "medium", "TCK-5167", "5.0", "onboarding"], ["closed", "low", "TCK-5168", "4.0", "platform"], ["closed", "high", "TCK-5170", "3.0", "billing"], ["closed", "low", "TCK-5171", "3.0", "platform"], ["closed", "medium", "TCK-5172", "5.0", "onboarding"], ["closed", "medium", "TCK-5173", "1.0", "billing"], ["closed", "urgent", "TCK-5174", "1.0", "platform"], ["closed", "high", "TCK-5175", "1.0", "onboarding"], ["closed", "high", "TCK-5177", "1.0", "billing"], ["closed", "medium", "TCK-5178", "4.0", "mobile"], ["closed", "high", "TCK-5179", "2.0", "billing"], ["closed", "medium", "TCK-5180", "2.0", "platform"], ["closed", "high", "TCK-5181", "2.0", "mobile"], ["closed", "medium", "TCK-5182", "2.0", "onboarding"], ["closed", "urgent", "TCK-5184", "4.0", "mobile"], ["closed", "urgent", "TCK-5185", "3.0", "platform"], ["closed", "high", "TCK-5186", "4.0", "mobile"], ["closed", "high", "TCK-5189", "5.0", "platform"], ["closed", "urgent", "TCK-5190", "5.0", "onboarding"], ["closed", "urgent", "TCK-5191", "5.0", "platform"], ["closed", "low", "TCK-5192", "5.0", "onboarding"], ["closed", "low", "TCK-5194", "5.0", "billing"], ["closed", "medium", "TCK-5197", "2.0", "platform"], ["closed", "urgent", "TCK-5198", "2.0", "platform"], ["closed", "urgent", "TCK-5200", "4.0", "mobile"]], "kind": "csv", "out": "/app/out/clean.csv", "src": "/app/datasets/support_tickets_raw.csv", "src_sha256": "18a4a026d537d3f351585909a7a98095abe56a14956cdd2f6fbdc8ed18032af3"}')

unchanged(SPEC["src"], SPEC["src_sha256"])
compare_output(SPEC["out"], SPEC["kind"], SPEC["expected"])
finish(SPEC["out"])
