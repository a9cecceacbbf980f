#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "dummy archive wiki.20260215-1505.xml.gz\n", "m": 1680211632, "p": "wiki-exports/wiki.20260215-1505.xml.gz"}, {"c": "dummy archive wiki.20260315-0435.xml.gz\n", "m": 1673358883, "p": "wiki-exports/wiki.20260315-0435.xml.gz"}, {"c": "dummy archive wiki.20260322-1410.xml.gz\n", "m": 1648562795, "p": "wiki-exports/wiki.20260322-1410.xml.gz"}, {"c": "dummy archive wiki.20260324-0845.xml.gz\n", "m": 1630523645, "p": "wiki-exports/wiki.20260324-0845.xml.gz"}, {"c": "dummy archive wiki.20260324-1555.xml.gz\n", "m": 1667084713, "p": "wiki-exports/wiki.20260324-1555.xml.gz"}, {"c": "dummy archive wiki.20260328-0725.xml.gz\n", "m": 1664760696, "p": "wiki-exports/wiki.20260328-0725.xml.gz"}, {"c": "dummy archive wiki.20260402-0530.xml.gz\n", "m": 1647062440, "p": "wiki-exports/wiki.20260402-0530.xml.gz"}, {"c": "dummy archive wiki.20260420-1905.xml.gz\n", "m": 1600585411, "p": "wiki-exports/wiki.20260420-1905.xml.gz"}, {"c": "dummy archive wiki.20260420-2130.xml.gz\n", "m": 1629533200, "p": "wiki-exports/wiki.20260420-2130.xml.gz"}, {"c": "dummy archive wiki.20260503-1550.xml.gz\n", "m": 1620625820, "p": "wiki-exports/wiki.20260503-1550.xml.gz"}, {"c": "dummy archive wiki.20260505-0245.xml.gz\n", "m": 1619546361, "p": "wiki-exports/wiki.20260505-0245.xml.gz"}, {"c": "dummy archive wiki.20260508-0945.xml.gz\n", "m": 1610309562, "p": "wiki-exports/wiki.20260508-0945.xml.gz"}, {"c": "dummy archive wiki.20260508-2145.xml.gz\n", "m": 1612674334, "p": "wiki-exports/wiki.20260508-2145.xml.gz"}, {"c": "dummy archive wiki.20260512-1735.xml.gz\n", "m": 1600768754, "p": "wiki-exports/wiki.20260512-1735.xml.gz"}, {"c": "dummy archive wiki.20260517-0000.xml.gz\n", "m": 1685318266, "p": "wiki-exports/wiki.20260517-0000.xml.gz"}, {"c": "dummy archive wiki.20260517-1020.xml.gz\n", "m": 1636160684, "p": "wiki-exports/wiki.20260517-1020.xml.gz"}, {"c": "dummy archive wiki.20260518-0135.xml.gz\n", "m": 1612714795, "p": "wiki-exports/wiki.20260518-0135.xml.gz"}, {"c": "dummy archive wiki.20260522-0930.xml.gz\n", "m": 1690127094, "p": "wiki-exports/wiki.20260522-0930.xml.gz"}, {"c": "dummy archive wiki.20260524-0225.xml.gz\n", "m": 1608924553, "p": "wiki-exports/wiki.20260524-0225.xml.gz"}, {"c": "dummy archive wiki.20260525-1610.xml.gz\n", "m": 1693558415, "p": "wiki-exports/wiki.20260525-1610.xml.gz"}, {"c": "dummy archive wiki.20260529-2320.xml.gz\n", "m": 1635980049, "p": "wiki-exports/wiki.20260529-2320.xml.gz"}, {"c": "dummy archive wiki.20260601-0925.xml.gz\n", "m": 1643209807, "p": "wiki-exports/wiki.20260601-0925.xml.gz"}, {"c": "dummy archive wiki.20260601-1505.xml.gz\n", "m": 1630990411, "p": "wiki-exports/wiki.20260601-1505.xml.gz"}, {"c": "dummy archive wiki.20260603-0340.xml.gz\n", "m": 1631617863, "p": "wiki-exports/wiki.20260603-0340.xml.gz"}, {"c": "dummy archive wiki.20260603-1410.xml.gz\n", "m": 1673305992, "p": "wiki-exports/wiki.20260603-1410.xml.gz"}, {"c": "dummy archive wiki.20260603-2210.xml.gz\n", "m": 1625468455, "p": "wiki-exports/wiki.20260603-2210.xml.gz"}, {"c": "not a backup: WIKI.20260215-1505.xml.gz\n", "m": 1617678487, "p": "wiki-exports/WIKI.20260215-1505.xml.gz"}, {"c": "not a backup: wiki.20260215-1505.xml.gz.partial\n", "m": 1623054462, "p": "wiki-exports/wiki.20260215-1505.xml.gz.partial"}, {"c": "not a backup: wiki.260215-1505.xml.gz\n", "m": 1667889681, "p": "wiki-exports/wiki.260215-1505.xml.gz"}, {"c": "not a backup: README.txt\n", "m": 1602390342, "p": "wiki-exports/README.txt"}, {"c": "dummy archive wiki.20260105-0000.xml.gz\n", "p": "wiki-exports/archive/wiki.20260105-0000.xml.gz"}]""")
for e in ENTRIES:
    path = os.path.join("/app", e["p"])
    if e.get("dir"):
        os.makedirs(path, exist_ok=True)
        continue
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if "fill" in e:
        unit = (e["fill"] + "\n").encode()
        data = (unit * (e["size"] // len(unit) + 1))[: e["size"]]
    else:
        data = e["c"].encode()
    with open(path, "wb") as fh:
        fh.write(data)
    if "m" in e:
        os.utime(path, (e["m"], e["m"]))
PY
