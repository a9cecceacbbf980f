#!/bin/bash
# Reference solution: parse the combined log format with the regex from the instruction.
set -euo pipefail
python3 - <<'PY'
import re
from collections import Counter

LINE = re.compile(r'^(\S+) \S+ \S+ \[[^\]]+\] "([^"]*)" (\d{3}) (\d+|-) "[^"]*" "[^"]*"$')
with open("/var/log/nginx/access.log") as fh:
    lines = fh.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()

total = malformed = 0
ips, statuses, errors = Counter(), Counter(), Counter()
for line in lines:
    m = LINE.match(line)
    if not m:
        malformed += 1
        continue
    total += 1
    ip, request, status = m.group(1), m.group(2), int(m.group(3))
    ips[ip] += 1
    statuses[status] += 1
    parts = request.split(" ")
    if 500 <= status <= 599 and len(parts) == 3:
        errors[parts[1].split("?", 1)[0]] += 1

out = [f"total_requests: {total}", f"malformed_lines: {malformed}", f"unique_ips: {len(ips)}", "top_ips:"]
out += [f"{ip} {n}" for ip, n in sorted(ips.items(), key=lambda kv: (-kv[1], kv[0]))[:5]]
out.append("status_counts:")
out += [f"{s} {n}" for s, n in sorted(statuses.items())]
out.append("server_error_paths:")
out += [f"{p} {n}" for p, n in sorted(errors.items(), key=lambda kv: (-kv[1], kv[0]))]
with open("/app/report.txt", "w") as fh:
    fh.write("\n".join(out) + "\n")
PY
