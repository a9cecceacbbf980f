#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "badger-itinerary.txt\nf749a98ddd8733821a22cfd14340848a0d401cce\nStage item just throughout. Fear energy analysis debate opportunity center story.\n", "p": "dusty-pebble-export/badger-itinerary.txt"}, {"c": "data/raw/assume_interview.png\n2dbda9158e2e9781118d0a659c37492563e674aa\nThe common entire seek game. Response interesting adult become maintain sea.\n", "p": "dusty-pebble-export/data/raw/assume_interview.png"}, {"c": "images/press kit/agenda move.log\n023d6712eec180a436e1ec436ff9d45012935fe8\nFloor degree move various star. Minute garden analys", "p": "dusty-pebble-export/images/press kit/agenda move.log"}, {"c": "images/press kit/condor-quote.docx\n0d5ca1f1d58cf9f96109d76316f583ebffe9727f\nActually American heart lead same record offer. Air business evidence feel. Present return allow memory.\n", "p": "dusty-pebble-export/images/press kit/condor-quote.docx"}, {"c": "images/press kit/demo.png\n1e5c05cff8b597cb2cbc1f512e313a4402863834\nClearly pay herself control order up. Billion line compare organization decide born fill court.\n", "p": "dusty-pebble-export/images/press kit/demo.png"}, {"c": "images/press kit/falcon-snapshot.jpg\nfe9751b9b2cfba6cb79bf3b7f43423a37698031b\nCentral claim unit sea. Tv will tax particularly account million relationship use.\n", "p": "dusty-pebble-export/images/press kit/falcon-snapshot.jpg"}, {"c": "images/press kit/ledger six.csv\n61039c0d8daa93c25343a89f0c3defbb8e441a2a\nFinish save town thank matter personal. Total usually green nearly. Nearly room career some. Population difference campaign on.\n", "p": "dusty-pebble-export/images/press kit/ledger six.csv"}, {"c": "onto_itinerary.gz\n35c3bb6166939c53fcdd436f7bc795a157ba58e2\nStudent direction control.\n", "p": "dusty-pebble-export/onto_itinerary.gz"}, {"c": "reports/q1/falcon-sample.sql\n1e37ddc6eb647d66cc2d05f2a806a48a8b022a44\nBuy could work deep. Not need buy fly bill. Simply age eye other\u0000include here yeah.\n", "p": "dusty-pebble-export/reports/q1/falcon-sample.sql"}, {"c": "reports/q1/catalog-same tmp.txt\nfd88ac903c107797841993e0e4a58f2e29b58519\n", "p": "dusty-pebble-export/reports/q1/catalog-same tmp.txt"}, {"c": "f7af029f7f3ca940fe6fd593451a16c83918eda9b9d5ec9fbd18cc54282eb9d3  images/press kit/agenda move.log\n47fa44948574cf9e1e0599c7014fa227ea8dd72652f37b477a8b655747b7f316  reports/q1/falcon-sample.sql\nfcbfdab9ae4a7c161e7688bd9dd7800203dc39fa0cd2b612367cb25d411e7fbb  lynx-template.md\ncd1c7b621453fc580a306ea148015b4c24d6f99cb0fa6b63788c5393d2230302  onto_itinerary.gz\n12bdd0f87fb43479f4165a8a7ed02af8827f8665ce9416b45ce98e3d4e1a1b87  data/raw/assume_interview.png\n8e1533a71d4d537720b5d4d0be2026913a949575e1f85411ac3b8491b2ccba2d  images/press kit/condor-quote.docx\n728dccbdf520bad9bd60611fca13447a2e1b1c6884a26cf1b6b759bc5e564056  images/press kit/demo.png\n01219b0279bb58e016f9e006958b31e9050e42e7f42f3499c8cd459427248cd4  images/press kit/ledger six.csv\n8631e3172814f575422cdc79c313af2130bd56942bebb505fd1f48dd479ca8f2  badger-itinerary.txt\n3897f3f8f9923824831655b6849419e590ed1d4a6dd273adacaa107620753dfe  images/press kit/falcon-snapshot.jpg\n", "p": "dusty-pebble-export/SHA256SUMS.txt"}]""")
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
