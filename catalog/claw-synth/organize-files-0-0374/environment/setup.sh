#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "misc/and_warranty.pdf\n3e4908032ac96f9c8968b2be613902b8a6502127\nHowever sing option.\n", "m": 1662694562, "p": "joshua/sync/misc/and_warranty.pdf"}, {"c": "misc/feedback way-v4.md\n76726cf685ce7a12c4889f5334465c00f2e1e453\nSituation top myself election simple price here.\n", "m": 1683738165, "p": "joshua/sync/misc/feedback way-v4.md"}, {"c": "work/lantern-panorama.mp3\nfd2d2cd2ab2a22d1b34e87f26ee83849ff43f2fa\nHeart camera if piece image president.\n", "m": 1611341945, "p": "joshua/sync/work/lantern-panorama.mp3"}, {"c": "misc/sample-v4.csv\nf60881a6cf18a7cb3772d9e06c3037eec598b4d5\nTrue standard end value own.\n", "m": 1633980012, "p": "joshua/sync/misc/sample-v4.csv"}, {"c": "notes/chair_resume (6).jpg\n83390b895a0ad18b0e6a5cbfa3b946703c06a8c1\nHand risk dream.\n", "m": 1693004644, "p": "joshua/sync/notes/chair_resume (6).jpg"}, {"c": "work/woman_feedback (2).md\n7a8cfa63f3e95c63f800e711dc8fb4205fb9a691\nSeven black tell morning yet.\n", "m": 1708336250, "p": "joshua/sync/work/woman_feedback (2).md"}, {"c": "expect_inventory.docx\n3ecca8d9cd037dbdab2a855a583a5286bdce3413\nSort source though popular good during respond.\n", "m": 1670415972, "p": "joshua/sync/expect_inventory.docx"}, {"c": "misc/avoid_survey.md\n379d6e73e3e6548dc486658955173ce4a87c96f6\nHand mind than him someone part rule.\n", "m": 1704257363, "p": "joshua/sync/misc/avoid_survey.md"}, {"c": "work/comet-export.md\n36bc8313b8b7616697db0ce8c4b06ea08c62dce5\nLess threat kid project wide professor.\n", "m": 1638423453, "p": "joshua/sync/work/comet-export.md"}, {"c": "work/reports/selfie-child-v5.docx\n631c67225f8c9b3046d299b867b2ba7a7ad20391\nDemocrat debate discussion represent security whether.\n", "m": 1673443229, "p": "joshua/sync/work/reports/selfie-child-v5.docx"}]""")
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
