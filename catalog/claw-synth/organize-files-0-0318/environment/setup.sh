#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "photos/budget.mp3\n690c4e56961b370ccbbc4d95c2bcbf571d147ba5\nState professor fund hot.\n", "m": 1623831044, "p": "shared/photos/budget.mp3"}, {"c": "photos/2022/forecast teach.pdf\n0513e87f5e67ce1cc0e357ccfa8d7ce026455205\nWater wait hot rule.\n", "m": 1700627900, "p": "shared/photos/2022/forecast teach.pdf"}, {"c": "photos/scan prepare.pdf\n42d5d8fe9267f4b0eb354bd5ca8a6a5c3df600ae\nFeeling mother thank hit.\n", "m": 1707485329, "p": "shared/photos/scan prepare.pdf"}, {"c": "woman_feedback.pdf\n5305fa1ad98ab5fa8d6f8112e5d23a4b8f62721d\nOil include capital grow painting.\n", "m": 1669399192, "p": "shared/woman_feedback.pdf"}, {"c": "work/ledger six.jpg\n548baea80d8751349156f326e69a8ed802a7b54b\nPretty ask present rock our.\n", "m": 1622557585, "p": "shared/work/ledger six.jpg"}, {"c": "photos/2022/build_schedule.pdf\n1212a3f10be071f8d2e29a07044f6d8a811df0b0\nCertainly away chair exactly.\n", "m": 1632726646, "p": "shared/photos/2022/build_schedule.pdf"}, {"c": "notes/warranty-human (7).csv\nfc63cfc8a87194b01f4d77de32ee45c2f96b5f73\nPicture his challenge there.\n", "m": 1642069114, "p": "shared/notes/warranty-human (7).csv"}, {"c": "office_report.csv\n81792e1636ef267af4df55b32d696f1602a325fc\nLittle board their fly thought.\n", "m": 1655409101, "p": "shared/office_report.csv"}, {"c": "receipt there-v4.docx\n71a27e4938a4ab66e08d5a3fb16ee42799142633\nTotal according event Congress message.\n", "m": 1695776523, "p": "shared/receipt there-v4.docx"}, {"c": "guide-matter.csv\n04a83c8dabceb12c94b3f63b6c58ff61d83f9b0d\nOpen tax treatment step.\n", "m": 1695882204, "p": "shared/guide-matter.csv"}]""")
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
