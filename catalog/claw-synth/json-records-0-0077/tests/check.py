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


SPEC = json.loads('{"inputs": {"/app/input/reviews.json": "ff8f2d63ecc1f9b687a6ecb803e6921121a76cdc8e85072884596d587113624e"}, "outputs": {"/app/results/table.csv": ["csv", [["review_id", "title", "verified", "created_at", "helpful_votes"], ["5001", "Inside manager form smile", "true", "2024-01-11", "3"], ["5002", "Per activity middle", "true", "2024-06-05", "12"], ["5003", "Evidence open though", "true", "2024-03-18", "19"], ["5004", "Travel institution keep specific", "true", "2024-03-21", "30"], ["5005", "Concern series explain", "false", "2024-05-28", "34"], ["5006", "Enough just guess", "true", "2024-01-18", "24"], ["5007", "Add center center", "true", "2024-05-11", "24"], ["5008", "Floor yeah wear without", "true", "2024-02-03", "29"], ["5009", "Team focus his east", "true", "2024-02-17", "21"], ["5010", "Yeah want many", "true", "2024-02-12", "24"], ["5011", "Last hear", "true", "2024-04-19", "2"], ["5012", "Since act modern third", "false", "2024-02-21", "8"], ["5013", "Shake call first", "true", "2024-02-02", "23"], ["5014", "Past west walk", "true", "2024-01-25", "22"], ["5015", "Authority pass", "true", "2024-04-22", "10"], ["5016", "Church card admit yard", "true", "2024-06-06", "20"], ["5017", "Store product", "true", "2024-03-24", "34"], ["5018", "Carry as ago candidate employee", "false", "2024-04-03", "5"], ["5019", "Seat surface thousand billion score", "true", "2024-03-02", "29"], ["5020", "Its school move if", "true", "2024-01-04", "8"], ["5021", "Bad whatever", "false", "2024-01-13", "40"], ["5022", "Nice side television", "false", "2024-02-14", "18"], ["5023", "Subject four", "false", "2024-04-21", "40"], ["5024", "Former get live", "true", "2024-03-17", "34"], ["5025", "Remember people fight share", "true", "2024-05-17", "17"], ["5026", "Like sometimes agree present", "true", "2024-03-19", "28"], ["5027", "Most along break final", "true", "2024-01-05", "12"], ["5028", "Expect executive strong", "true", "2024-06-07", "24"], ["5029", "Its thank parent face", "true", "2024-04-17", "39"], ["5030", "Attorney six sure sense", "true", "2024-01-04", "31"], ["5031", "Will service receive", "false", "2024-02-18", "28"], ["5032", "Machine friend large", "false", "2024-01-04", "5"], ["5033", "Information throw other green", "true", "2024-06-03", "34"], ["5034", "Read modern main art", "true", "2024-06-05", "12"], ["5035", "Part he", "false", "2024-02-23", "20"], ["5036", "Agency star director performance", "true", "2024-05-22", "32"], ["5037", "Three the ready agreement six", "true", "2024-01-17", "34"], ["5038", "Two often", "true", "2024-02-17", "39"], ["5039", "Certainly authority senior", "true", "2024-01-14", "31"], ["5040", "Outside test consider record", "true", "2024-01-02", "29"], ["5041", "Movie their account him south", "true", "2024-03-28", "24"], ["5042", "Job along half", "true", "2024-03-04", "35"], ["5043", "Reflect relationship human than", "false", "2024-01-09", "13"], ["5044", "Care yet million economic condition", "false", "2024-04-13", "38"], ["5045", "Simply reason onto painting", "true", "2024-01-11", "5"], ["5046", "Record new task yard", "true", "2024-04-02", "19"], ["5047", "Loss enough how bag", "true", "2024-05-29", "15"], ["5048", "Tough treat view herself evidence", "false", "2024-01-06", "11"], ["5049", "In debate support century", "true", "2024-03-20", "15"], ["5050", "Individual reflect", "false", "2024-03-27", "33"], ["5051", "Rich however society", "true", "2024-03-23", "37"], ["5052", "Network open age reach", "false", "2024-01-22", "35"], ["5053", "Wonder mention", "true", "2024-04-05", "36"], ["5054", "Together grow loss", "false", "2024-02-01", "16"], ["5055", "Hundred region", "true", "2024-05-05", "36"], ["5056", "Son radio give", "true", "2024-04-25", "27"], ["5057", "Area term dream mean", "true", "2024-02-11", "7"], ["5058", "Figure design surface that", "false", "2024-06-04", "40"], ["5059", "Size live", "true", "2024-01-27", "18"], ["5060", "Democratic success", "true", "2024-01-08", "0"], ["5061", "Rise laugh suddenly", "true", "2024-04-27", "12"], ["5062", "Moment more western", "false", "2024-03-04", "13"], ["5063", "Lot since medical all", "true", "2024-04-19", "21"], ["5064", "Director travel", "false", "2024-02-15", "5"], ["5065", "Make yeah husband tough skill", "true", "2024-02-09", "34"], ["5066", "Which player", "true", "2024-01-16", "23"], ["5067", "Entire car", "true", "2024-06-07", "35"], ["5068", "North girl will", "true", "2024-05-27", "10"], ["5069", "Fill my attorney", "true", "2024-03-13", "40"], ["5070", "Member development seven ball although", "true", "2024-03-30", "4"], ["5071", "Anyone head father will", "true", "2024-01-12", "31"], ["5072", "Grow play", "false", "2024-05-11", "0"], ["5073", "Contain item just", "true", "2024-04-16", "20"], ["5074", "Movement miss good", "true", "2024-04-16", "23"], ["5075", "Worker phone institution window hard", "false", "2024-06-04", "26"], ["5076", "Defense red dog couple", "true", "2024-06-04", "19"], ["5077", "Simple push", "true", "2024-06-03", "24"], ["5078", "Notice large measure", "true", "2024-02-29", "4"], ["5079", "None reality something agent", "true", "2024-02-22", "6"], ["5080", "However surface pick happen", "true", "2024-01-22", "25"], ["5081", "So speech west", "true", "2024-01-13", "19"], ["5082", "Left see", "true", "2024-04-17", "30"], ["5083", "See grow", "true", "2024-02-14", "15"], ["5084", "Suddenly effort top", "true", "2024-03-17", "8"], ["5085", "Body wish region recognize group", "true", "2024-01-01", "28"], ["5086", "Shoulder owner major team seek", "true", "2024-02-16", "38"], ["5087", "Almost popular", "true", "2024-02-23", "15"], ["5088", "Reality movie cell activity", "true", "2024-02-19", "6"], ["5089", "Share open similar bar", "true", "2024-01-21", "7"], ["5090", "Only hot boy institution", "false", "2024-01-12", "22"], ["5091", "Family election beautiful protect", "false", "2024-04-11", "17"], ["5092", "Resource bag management federal", "true", "2024-01-31", "26"], ["5093", "Though group law bag", "true", "2024-06-06", "12"], ["5094", "Structure reach religious outside", "true", "2024-05-26", "17"], ["5095", "Maintain generation respond six", "false", "2024-04-12", "35"], ["5096", "Create against", "true", "2024-01-20", "10"], ["5097", "Hour Mrs hear human drug", "false", "2024-02-08", "5"], ["5098", "Soldier main receive", "true", "2024-05-17", "30"], ["5099", "Stage out million", "true", "2024-05-22", "0"], ["5100", "Memory event outside edge", "true", "2024-03-18", "35"], ["5101", "Forward billion look", "false", "2024-01-06", "0"], ["5102", "Much relate concern their", "true", "2024-01-09", "30"], ["5103", "Quickly forget", "true", "2024-01-02", "1"], ["5104", "Detail information instead material together", "true", "2024-02-24", "18"], ["5105", "Base gun rise start", "true", "2024-02-26", "25"], ["5106", "Sit management couple", "false", "2024-05-21", "12"], ["5107", "For animal anything official significant", "true", "2024-04-24", "14"], ["5108", "Phone maybe", "true", "2024-01-27", "10"], ["5109", "Deal learn", "true", "2024-01-07", "12"], ["5110", "Majority pull win", "false", "2024-04-07", "4"], ["5111", "Minute central major hour", "true", "2024-04-16", "19"], ["5112", "Long campaign throw", "true", "2024-04-07", "19"], ["5113", "Must establish whether", "false", "2024-03-12", "34"], ["5114", "Effect again", "true", "2024-02-15", "27"], ["5115", "Be instead", "true", "2024-01-22", "23"], ["5116", "Matter catch", "true", "2024-03-24", "2"], ["5117", "Gas side nation", "true", "2024-05-05", "29"], ["5118", "Fly discover next always see", "true", "2024-03-22", "10"], ["5119", "Significant there ground thousand", "false", "2024-06-05", "34"], ["5120", "Machine office", "true", "2024-06-05", "16"], ["5121", "Site perform out marriage clearly", "true", "2024-03-15", "36"], ["5122", "Up available remain another technology", "true", "2024-01-08", "27"], ["5123", "American there keep from", "false", "2024-01-16", "2"], ["5124", "Mean event seat", "false", "2024-03-03", "11"], ["5125", "Meet your let watch sea", "true", "2024-05-27", "12"], ["5126", "Natural fly official", "true", "2024-03-22", "0"], ["5127", "Them begin", "true", "2024-03-25", "13"], ["5128", "Kitchen food suddenly", "true", "2024-05-26", "37"], ["5129", "Throughout conference resource level you", "true", "2024-06-06", "27"], ["5130", "Sea long worry full", "true", "2024-02-20", "0"]]]}}')

for path, digest in sorted(SPEC["inputs"].items()):
    unchanged(path, digest)
for path, (kind, want) in sorted(SPEC["outputs"].items()):
    before = len(errors)
    compare_output(path, kind, want)
    if len(errors) > before:
        errors.insert(before, f"{path}:")
finish(", ".join(sorted(SPEC["outputs"])))
