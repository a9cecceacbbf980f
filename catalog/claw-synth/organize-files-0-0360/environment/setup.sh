#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "photos/2022/delta-selfie.docx\ne077cb2a6406492931782e18328828edab3994b4\nCouple we us.\n", "m": 1652254754, "p": "dropzone/photos/2022/delta-selfie.docx"}, {"c": "notes/backup listen.txt\nad6dc713d0f5efb985c5b0d021be72b80f148733\nSometimes believe land network.\n", "m": 1611091464, "p": "dropzone/notes/backup listen.txt"}, {"c": "music/quartz-flyer-v2.mp3\n30477569965d9912449bfaa082a80db1bf601183\nWithin recognize soldier remain month lot act.\n", "m": 1699943351, "p": "dropzone/music/quartz-flyer-v2.mp3"}, {"c": "taxes/2021/checklist.pdf\nb777a21a0bc79bb2319ee810e205876e3e844b51\nFine Republican here certain politics.\n", "m": 1629774410, "p": "dropzone/taxes/2021/checklist.pdf"}, {"c": "taxes/2021/sample.txt\n647366a708d6aca6a28161ad72a5fec0bc66590b\nDaughter most station work lot actually discussion feeling.\n", "m": 1633181426, "p": "dropzone/taxes/2021/sample.txt"}, {"c": "taxes/2021/pine-manual.jpg\ndf7ea93fcb7a425381db58e098969cd9061b245f\nAudience require answer maintain drive respond.\n", "m": 1693957952, "p": "dropzone/taxes/2021/pine-manual.jpg"}, {"c": "music/quite_brochure (1).jpg\ne43d160c671e3c1e5ba861ee9d17d9f2482eb481\nRealize soldier meeting three.\n", "m": 1603933383, "p": "dropzone/music/quite_brochure (1).jpg"}, {"c": "photos/portrait.mp3\n41e7949d266ffbd50f7ca5eabd16542978ea903d\nBoth wall enough clear he.\n", "m": 1703387779, "p": "dropzone/photos/portrait.mp3"}, {"c": "scan.txt\n300ff46ae86b7be2f9171228696dee1aef9d05d5\nStyle employee not body more.\n", "m": 1715921787, "p": "dropzone/scan.txt"}, {"c": "photos/bison-order-v4.docx\n79a3857fc1ba75e14b286f7cf60213d197ec4d4f\nThousand soon continue.\n", "m": 1612878145, "p": "dropzone/photos/bison-order-v4.docx"}, {"c": "photos/office_report.csv\n3c6317402387bec64afa314f00d48a4c31954b7a\nMust must surface enough cost case big.\n", "m": 1627798480, "p": "dropzone/photos/office_report.csv"}, {"c": "photos/2022/would_notes.pdf\naeb18afa514a0d6c18c21d14bfabff51d2321408\nScore require might because whose.\n", "m": 1609324194, "p": "dropzone/photos/2022/would_notes.pdf"}, {"c": "taxes/2021/forecast teach.pdf\n288565055d2957bdbb27469c9f1c444631cff53b\nA statement vote four president.\n", "m": 1650487621, "p": "dropzone/taxes/2021/forecast teach.pdf"}, {"c": "music/falcon-sample.md\n4e61c78f3308f890205d6096571f527d4bd8f5f4\nAnd cup hit onto senior nature environment.\n", "m": 1612644697, "p": "dropzone/music/falcon-sample.md"}, {"c": "photos/badger-itinerary.pdf\n291d7f7e16377bf35c0d5c31de4322faccd412a5\nHospital heart think medical strong.\n", "m": 1702821109, "p": "dropzone/photos/badger-itinerary.pdf"}, {"c": "music/memo.mp3\nc68d0ffc3e70e98d5ec4a350fd04bc4353ff84c0\nStar decide church hair recognize investment again.\n", "m": 1644072082, "p": "dropzone/music/memo.mp3"}, {"c": "photosinterview-pressure.txt\n5614579031f126818d65b77c369320320d6ff0c3\nGreat artist choose defense story.\n", "m": 1628550375, "p": "dropzone/photos/interview-pressure.txt"}, {"c": "musicinterview-pressure.txt\n1abb0f7873383c0326e8340ac45cfd8e52734b45\nType yes peace American music condition.\n", "m": 1639935134, "p": "dropzone/music/interview-pressure.txt"}, {"c": ".cache0\n6f7c0b056876a3d1b9d4a8313cfd82ed3ab00c20\nRaise notice not this spend condition interesting.\n", "m": 1712757249, "p": "dropzone/.cache/obj0"}, {"c": ".cache1\n9cfab67811433d5cbc28d942a78d791ae2f6d04c\nFloor not manager question culture health coach enough.\n", "m": 1673654263, "p": "dropzone/.cache/obj1"}, {"c": ".keep\n76ff7dbf703733b60178f9f54acfd3a3a762a4f1\nLose gas just early energy war quite on.\n", "m": 1675462693, "p": "dropzone/music/.keep"}]""")
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
