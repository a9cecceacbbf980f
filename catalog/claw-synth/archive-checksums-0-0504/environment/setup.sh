#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "contracts/2023/book_agenda.xlsx\nb443c192a8f7bc12367abb8d78a7820d2445bceb\nExist ", "p": "archives/hidden-yak/contracts/2023/book_agenda.xlsx"}, {"c": "contracts/2023/guide.gz\nda7a212c252da4927937d0c12ed13a609161a829\nPlan goal with. Us really federal include sell describe paper customer.\n", "p": "archives/hidden-yak/contracts/2023/guide.gz"}, {"c": "contracts/2023/ledger create.log\nac51159c4fcb7a7a64ae8863f9f77a17D8bbde4c\nFigure voice name herself stage health central ready.\n", "p": "archives/hidden-yak/contracts/2023/ledger create.log"}, {"c": "contracts/2023/panorama voice.mp3\n060c76359f5c91ab52d5a5ad50cf0f7706c2be6f\nAbility couple issue Congress lead employee. Environmental after happen magazine where traditional discuss cut. Anything beautiful instead force. Building understand value can alone accept though approach.\n", "p": "archives/hidden-yak/contracts/2023/panorama voice.mp3"}, {"c": "contracts/2023/quote social.log\n575ce038ec8307a46ad465a063d788f5f6288790\nBack how myself gas who condition. Heart side whether what not firm successful.\n", "p": "archives/hidden-yak/contracts/2023/quote social.log"}, {"c": "images/press kit/interesting_inventory.txt\ndd15564830ab699df4ffdd6431b953ea18c79708\nBeyond newspaper party pass compare. Company interview born face respond. Strong fund provide evidence southern other.\n", "p": "archives/hidden-yak/images/press kit/interesting_inventory.txt"}, {"c": "physical_catalog.pdf\nb55ddaea12337e26409772330e3936c687739f96\nThing relate tonight real action. Democrat machine question even describe involve since.\n", "p": "archives/hidden-yak/physical_catalog.pdf"}, {"c": "reports/q2/forecast-how.png\n4bbf936edd79771ed1f85b5f4755bccff3ddb3e7\nNumber space continue experience dark. President dark industry our wind. Beyond reflect her nature Congress vote her. Particular voice majority follow consider west.\n", "p": "archives/hidden-yak/reports/q2/forecast-how.png"}, {"c": "schedule-four.sql\n4f6ab30a0ad378c6e2f787a3f7557408021dd435\nEducation Mrs hard view option. Chair agency him concern stock several wife. Minute dinner trip interesting treatment history grow. Sometimes leg can respond tonight reveal.\n", "p": "archives/hidden-yak/schedule-four.sql"}, {"c": "images/press kit/kestrel-guide tmp.csv\n492170c021583d72cdc7fbe9e9dfb78b569c36c6\n", "p": "archives/hidden-yak/images/press kit/kestrel-guide tmp.csv"}, {"c": "MD5 (contracts/2023/book_agenda.xlsx) = a8382ce555895abe04207d3be9b20203\nMD5 (contracts/2023/ledger create.log) = 037665f51d7e3a99a034a79e1b673d7b\nMD5 (contracts/2023/pebble-portrait.json) = deed42340fff3cdd0ed4ef77c33f2325\nMD5 (images/press kit/interesting_inventory.txt) = 057a730b1b572c85bc7443a1e0531203\nMD5 (contracts/2023/panorama voice.mp3) = 55d8755e4674264be2b6d6554f9f24ca\nMD5 (contracts/2023/quote social.log) = d20292edd7f48ea230337dcb12b9386a\nMD5 (contracts/2023/guide.gz) = d5388d2d58aa9ae8c51a73bf157e2867\nMD5 (schedule-four.sql) = 612d9575b7e49061127d114632880724\nMD5 (physical_catalog.pdf) = 382fc193aea6c8c348d33121c64eee17\nMD5 (reports/q2/forecast-how.png) = fe4ab48ffafc77eb4366601d40b3abcf\n", "p": "archives/hidden-yak/md5sums.txt"}]""")
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
