#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "checklist-v2 2021-07-15.mov\n9308d1abc1746a84c32ec42f71bf4d1168eb35de\nGrowth bar which identify.\n", "m": 1647374133, "p": "misc/checklist-v2 2021-07-15.mov"}, {"c": "guide 2023-03-02.mov\n6a101017f26ce48c749afebe22d9afe6eaf8c6b5\nInto process action detail play.\n", "m": 1623156837, "p": "misc/guide 2023-03-02.mov"}, {"c": "2022-09-01 however_diagram.mov\naa9fbc9a32e2c4b269ed80ed6050d7f27470a1ad\nBit TV under game turn necessary.\n", "m": 1682956121, "p": "misc/2022-09-01 however_diagram.mov"}, {"c": "IMG_20191014_170245.txt\nd461c0dfbe7e0ad6456699631c96c4732b05d616\nPartner guy audience few car fire.\n", "m": 1603331748, "p": "misc/IMG_20191014_170245.txt"}, {"c": "IMG_20190908_055205.jpg\nf28895ded3b362e0c71fa747af969b4d323e0cb6\nWork movie impact however along model.\n", "m": 1644824309, "p": "misc/IMG_20190908_055205.jpg"}, {"c": "2022-03-01 estimate (1).heic\n58323e81ea261315fc4e793b585f3845a4db4e83\nLearn we car.\n", "m": 1618958350, "p": "misc/2022-03-01 estimate (1).heic"}, {"c": "receipt there-20220412.txt\nb5a0dbefeb734aaf7d869ba23bb3295c5687f2ec\nSpeak describe low kid.\n", "m": 1704582278, "p": "misc/receipt there-20220412.txt"}, {"c": "2020_02_13_condor-quote.mov\n56d871e795e2af8ae083da3426a48522e9674880\nSeven smile building one tough inside.\n", "m": 1668152805, "p": "misc/2020_02_13_condor-quote.mov"}, {"c": "IMG_20190128_160248.heic\n4830fb42280b327b3a3943232218aa4b179de85c\nLet ready call fight simply stop result.\n", "m": 1677369565, "p": "misc/IMG_20190128_160248.heic"}, {"c": "woman_feedback 2024-06-07.csv\n65f8114cf75850bb8b9aeee1caf48d749713bd68\nForce black which he.\n", "m": 1669428150, "p": "misc/woman_feedback 2024-06-07.csv"}, {"c": "scan 2020-04-13.csv\n7ad99ce3229eb075734280103bd36dbd14042c6e\nSimple article image almost would.\n", "m": 1646764932, "p": "misc/scan 2020-04-13.csv"}, {"c": "IMG_20221114_004132.heic\nbf6fc94e363a6ea6b2f11e5a052a357e1b8770c3\nPolitics able art by.\n", "m": 1607437580, "p": "misc/IMG_20221114_004132.heic"}, {"c": ".localized\n063e7a0d34e6030ed04c1add39fb857d7ac7f46d\nTv from shoulder relate.\n", "m": 1602651682, "p": "misc/.localized"}, {"c": "old pine-manual-v5.txt\n2c442287b2eedcf5e65da2a2f52d4a0b0420cd6e\nScience debate require rich car energy.\n", "p": "misc/2023-03/old pine-manual-v5.txt"}]""")
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
