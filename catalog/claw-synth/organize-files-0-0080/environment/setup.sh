#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "diagram \u00e9xample.jpg\nf302a6ebe2e38a4ff526c86fdc17f49919199263\nThing throughout share pattern street another.\n", "m": 1624352339, "p": "deborah/shared/diagram \u00e9xample.jpg"}, {"c": "interview-pressure\n0a394b82b846f3c5d60009a96fb91381658d673f\nGirl nice by.\n", "m": 1699876680, "p": "deborah/shared/interview-pressure"}, {"c": "RECEIPT_THERE\ndd7d63402c289f2de46dbc24ae10d77dc76d8652\nBudget standard trial health and whatever.\n", "m": 1669254658, "p": "deborah/shared/RECEIPT_THERE"}, {"c": "PORTRAIT.MP3\n997922ec9748766c40d0f8d9acfff4e9c3b8cc4e\nSeason wide sort later.\n", "m": 1643051220, "p": "deborah/shared/PORTRAIT.MP3"}, {"c": "CONDOR-TUTORIAL (2).xlsx\ndee60e025721cc84d272df84b83bba3552085dcd\nNatural present anything.\n", "m": 1712145602, "p": "deborah/shared/CONDOR-TUTORIAL (2).xlsx"}, {"c": "away_sk\u00f8tch\n4ac1b5afd46adb3af474fb935ff558958618e082\nExpert reach learn address.\n", "m": 1683907575, "p": "deborah/shared/away_sk\u00f8tch"}, {"c": "Scan Prepare.jpg\n02fde0344c58c097f22fd43ff33b646b33550bac\nAgent game contain.\n", "m": 1650711631, "p": "deborah/shared/Scan Prepare.jpg"}, {"c": "DEMO-V3.jpg\nfc229d496d9a260f29d2d6d9afbdca5d483679df\nExample trade push drive.\n", "m": 1687049720, "p": "deborah/shared/DEMO-V3.jpg"}, {"c": "  Warranty-Human .JPG\n02711959de43130d5ecb2ade71448f6a6f49a997\nThought hit finally first walk wide.\n", "m": 1630151921, "p": "deborah/shared/  Warranty-Human .JPG"}, {"c": "checklist unit.txt\nf402658e995a855dc596510076d5bf9d83b6b642\nSpeech add cover bad bank stay teach.\n", "m": 1681806693, "p": "deborah/shared/checklist unit.txt"}, {"c": "build_schedule.txt\nb2ecce098fec48ce7400463bb90164c5f33185a4\nHim information nearly purpose story chance.\n", "m": 1674042244, "p": "deborah/shared/build_schedule.txt"}, {"c": "Handbook Morning ! side.PDF\nda0d0bc004e917e39f693cb4a3cefcb9d3f77eec\nAvoid page red day surface while deal.\n", "m": 1676508817, "p": "deborah/shared/Handbook Morning ! side.PDF"}, {"c": "Checklist.PDF\n0fbe7c2d7263eb50c3d6f220b4fd057cc35a1e63\nLand find lot someone over foreign order.\n", "m": 1639186852, "p": "deborah/shared/Checklist.PDF"}, {"c": "SKETCH.JPG\n6944ffabd211d190475ba54dffde37227af0c62c\nDuring year whose lay white me imagine.\n", "m": 1687374173, "p": "deborah/shared/SKETCH.JPG"}, {"c": "PINE-MOCKUP.docx\n4dc4da0cff46140da4236169adde3ebc063dd800\nQuestion others nature stuff building activity.\n", "m": 1706962615, "p": "deborah/shared/PINE-MOCKUP.docx"}, {"c": "Forecast-Thing.csv\n13f189e571717bca5cb106621929e19266a12ce0\nIf improve over several PM chair.\n", "m": 1714186534, "p": "deborah/shared/Forecast-Thing.csv"}, {"c": "!!!.txt\n43a9f21319fcc8806952989637425afc0a382489\nRecent response mean thousand final suggest very remember.\n", "m": 1611836253, "p": "deborah/shared/!!!.txt"}, {"c": "tutorial road-v3.pdf\na758249534f526457cb4909a7eeebcb4d7bb873d\nEvidence statement pretty in interview on.\n", "m": 1638731510, "p": "deborah/shared/tutorial road-v3.pdf"}, {"c": "TUTORIAL ROAD-V3.PDF\n41203add1cbdc971cf5bc53a000f004b21aec90a\nCut attack able.\n", "m": 1702546349, "p": "deborah/shared/TUTORIAL ROAD-V3.PDF"}, {"c": "catalog-same.txt\nf6ae79d58c523e08f86ee13db5cdc31cc9824d49\nRepublican dream program return offer against financial.\n", "m": 1602316592, "p": "deborah/shared/catalog-same.txt"}, {"c": ".DS_Store\nc033f1117e5893ff405561bfeca13174365d93ec\nLeave evening program degree toward.\n", "m": 1642924482, "p": "deborah/shared/.DS_Store"}, {"c": "memo evening FINAL.txt\nf2941d4fe0037d6a7c5aa59d4d28f0d4519c1d08\nNone fire huge.\n", "p": "deborah/shared/Keep Me/memo evening FINAL.txt"}]""")
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
