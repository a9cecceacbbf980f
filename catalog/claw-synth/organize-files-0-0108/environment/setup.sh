#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": ".directory\nef0436f29a5290f9b8c9dc442ad8eecbad0a466d\nFoot image reason seat road reveal west.\n", "m": 1686037783, "p": "mr./unsorted/.directory"}, {"c": ".DS_Store\n40e4b6c56e0e94b57387be9b0d2272f4624aa2ca\nSituation account whole side.\n", "m": 1695167971, "p": "mr./unsorted/.DS_Store"}, {"fill": "Notes Light.dat ab6b367e77", "m": 1625578546, "p": "mr./unsorted/Notes Light.dat", "size": 2451}, {"fill": "Tutorial Road.log ceb0af626d", "m": 1611686094, "p": "mr./unsorted/Tutorial Road.log", "size": 4472}, {"fill": "inventory (2).bin 69a3073488", "m": 1604997627, "p": "mr./unsorted/inventory (2).bin", "size": 2669}, {"fill": "kestrel-guide (8).bin 141a9f1501", "m": 1644002462, "p": "mr./unsorted/kestrel-guide (8).bin", "size": 997}, {"fill": "show_resume (7).zip 46c4441184", "m": 1654385350, "p": "mr./unsorted/show_resume (7).zip", "size": 2437}, {"c": "Tutorial Service.csv 13947a76fd\nTutorial Service.csv 13947a76fd\nTutorial Service.csv 13947a76fd\nTutorial Service.csv 13947a76fd\nTutorial Service.csv 13947a76fd\nTutorial Service.cs", "m": 1646933155, "p": "mr./unsorted/Tutorial Service.csv"}, {"fill": "memo-accept.pdf 8af700e1eb", "m": 1603453779, "p": "mr./unsorted/memo-accept.pdf", "size": 2449}, {"fill": "boarding-pass.bin e4e8cf24fe", "m": 1634917263, "p": "mr./unsorted/boarding-pass.bin", "size": 2249}, {"fill": "physical_catalog.json f8517b912e", "m": 1617099741, "p": "mr./unsorted/physical_catalog.json", "size": 4600}, {"fill": "photo (8).dat 946478ad06", "m": 1641646250, "p": "mr./unsorted/photo (8).dat", "size": 1075}, {"fill": "portrait.dat 829b823555", "m": 1705272706, "p": "mr./unsorted/portrait.dat", "size": 929}, {"fill": "tundra-tutorial.json f333163d67", "m": 1685455478, "p": "mr./unsorted/tundra-tutorial.json", "size": 2536}, {"fill": "believe_dump.dat 3bda8c2d9a", "m": 1656390976, "p": "mr./unsorted/believe_dump.dat", "size": 2250}, {"fill": "quote_social.zip 545e32cc45", "m": 1621967196, "p": "mr./unsorted/quote_social.zip", "size": 4751}, {"fill": "schedule-four (8).zip 8a79430448", "m": 1606748745, "p": "mr./unsorted/schedule-four (8).zip", "size": 3546}, {"fill": "ledger create.json 745a5effd4", "m": 1675081406, "p": "mr./unsorted/ledger create.json", "size": 2450}, {"c": "chair_resume.txt\n1e66a5cd39e772ad233e2bc6aa310120f12e694d\nWin born shoulder unit culture.\n", "p": "mr./unsorted/keep/chair_resume.txt"}]""")
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
