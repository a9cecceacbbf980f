"""Verify /app/report.txt. The expected report is computed from a fresh copy of the seeded log
(regenerated here with the same generator the image used), so editing the log cannot help."""
import re
import sys
from collections import Counter

sys.path.insert(0, "/tests")
from gen_access_log import generate  # noqa: E402

VALID = re.compile(r'^(\S+) \S+ \S+ \[[^\]]+\] "([^"]*)" (\d{3}) (\d+|-) "[^"]*" "[^"]*"$')


def expected_report(text: str) -> str:
    lines = text.split("\n")
    if lines[-1] == "":
        lines = lines[:-1]
    by_ip, by_status, err_paths = Counter(), Counter(), Counter()
    bad = 0
    for line in lines:
        m = VALID.match(line)
        if m is None:
            bad += 1
            continue
        by_ip[m.group(1)] += 1
        code = int(m.group(3))
        by_status[code] += 1
        req = m.group(2).split(" ")
        if code >= 500 and len(req) == 3:
            err_paths[req[1].partition("?")[0]] += 1
    rows = [
        f"total_requests: {sum(by_ip.values())}",
        f"malformed_lines: {bad}",
        f"unique_ips: {len(by_ip)}",
        "top_ips:",
    ]
    top = sorted(by_ip.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    rows += [f"{ip} {n}" for ip, n in top]
    rows.append("status_counts:")
    rows += [f"{code} {by_status[code]}" for code in sorted(by_status)]
    rows.append("server_error_paths:")
    rows += [f"{p} {n}" for p, n in sorted(err_paths.items(), key=lambda kv: (-kv[1], kv[0]))]
    return "\n".join(rows)


log_text = generate()
want = expected_report(log_text)
# sanity: the seeded log must exercise the tie-break at the top-5 boundary
assert "\n10.0.0.12 22\nstatus_counts:" in want, want

try:
    with open("/app/report.txt") as fh:
        got = fh.read()
except OSError as exc:
    print(f"FAIL: cannot read /app/report.txt: {exc}")
    sys.exit(1)

got_lines = got.rstrip("\n").split("\n")
want_lines = want.split("\n")
if got_lines != want_lines:
    print("FAIL: /app/report.txt differs from the expected report")
    for i in range(max(len(got_lines), len(want_lines))):
        g = got_lines[i] if i < len(got_lines) else "<missing>"
        w = want_lines[i] if i < len(want_lines) else "<missing>"
        mark = "  " if g == w else "!!"
        print(f"{mark} line {i + 1}: got {g!r} expected {w!r}")
    sys.exit(1)
print("PASS")
