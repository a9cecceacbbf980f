#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": ".directory\n57ed9681c3f8e931f808b91aa6fae73aa17bd141\nThird anyone same threat attorney research work.\n", "m": 1620812492, "p": "andrew/unsorted/.directory"}, {"c": ".localized\nccd41526d8df15827ef1679d4ea43da053b3d721\nTelevision there major.\n", "m": 1670256123, "p": "andrew/unsorted/.localized"}, {"fill": "payroll moment (2).dat 9b844d2964", "m": 1708130674, "p": "andrew/unsorted/payroll moment (2).dat", "size": 1917}, {"fill": "itinerary-v2.mp3 58d937eb75", "m": 1620974255, "p": "andrew/unsorted/itinerary-v2.mp3", "size": 5299}, {"fill": "Zephyr-Feedback.mp3 88fd16b088", "m": 1683800434, "p": "andrew/unsorted/Zephyr-Feedback.mp3", "size": 6487}, {"fill": "zephyr-feedback-v2.jpg cf02ee759c", "m": 1632916813, "p": "andrew/unsorted/zephyr-feedback-v2.jpg", "size": 7026}, {"fill": "dump.json 4e0d7d8892", "m": 1615694621, "p": "andrew/unsorted/dump.json", "size": 5774}, {"fill": "guide-matter.jpg 27a0088e52", "m": 1679632835, "p": "andrew/unsorted/guide-matter.jpg", "size": 5251}, {"fill": "timesheet-may.mp3 99c78b5623", "m": 1678491928, "p": "andrew/unsorted/timesheet-may.mp3", "size": 9386}, {"fill": "lynx-template.jpg 665fc73a8b", "m": 1681547105, "p": "andrew/unsorted/lynx-template.jpg", "size": 5608}, {"fill": "dump paper.dat 9ae82c7b5a", "m": 1689104511, "p": "andrew/unsorted/dump paper.dat", "size": 5249}, {"fill": "diagram.jpg 2de36aa31c", "m": 1661813885, "p": "andrew/unsorted/diagram.jpg", "size": 5301}, {"fill": "Comet-Export.mp3 809fe2a143", "m": 1679410484, "p": "andrew/unsorted/Comet-Export.mp3", "size": 7999}, {"fill": "checklist unit.csv 39e17e314f", "m": 1681180876, "p": "andrew/unsorted/checklist unit.csv", "size": 9142}, {"c": "Scan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c989574a1\nScan Forward.csv 3c", "m": 1717276732, "p": "andrew/unsorted/Scan Forward.csv"}, {"fill": "condor-tutorial (3).log f211b5c7cf", "m": 1678511341, "p": "andrew/unsorted/condor-tutorial (3).log", "size": 5250}, {"fill": "away_sketch.csv 84e2aaf874", "m": 1633012850, "p": "andrew/unsorted/away_sketch.csv", "size": 1102}, {"fill": "avoid_survey (2).jpg 55abb8d46e", "m": 1717464360, "p": "andrew/unsorted/avoid_survey (2).jpg", "size": 5300}, {"c": "catalog-same.txt\na9a55ab126696acba8167097d3f64b73010aab2b\nTown inside learn quickly without leave through.\n", "p": "andrew/unsorted/do-not-touch/catalog-same.txt"}]""")
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
