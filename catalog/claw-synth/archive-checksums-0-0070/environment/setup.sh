#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "book_agenda.log\n7d56836fa10c83d7fdd80c8d6f8786d2e2f3e0e8\nWide decide economy similar goal. Stay this prevent occur simple.\n", "p": "releases/steady-falcon/book_agenda.log"}, {"c": "docs/legal/avoid_survey.mp3\nbf26d5f831a557421b70b4403a57db0be57bd8e8\nThough can push from occur.\n", "p": "releases/steady-falcon/docs/legal/avoid_survey.mp3"}, {"c": "docs/legal/kestrel-guide.xlsx\nefb857c9156792b9daada93f29dbb117658875b2\nTelevision three read for our form. AVoid pull indicate sit. Address practice wear something success.\n", "p": "releases/steady-falcon/docs/legal/kestrel-guide.xlsx"}, {"c": "docs/legal/manifest.mp3\nd713e52ef8310dcac2c85ef989417bf9ac2702ff\nWestern now girl oil.\n", "p": "releases/steady-falcon/docs/legal/manifest.mp3"}, {"c": "docs/legal/summary.mp3\n197ac9ab93c7119ec506a5950d37346643a54c3c\nSeek color himself development believe. Be describe generation tax. Party include rise federal.\n", "p": "releases/steady-falcon/docs/legal/summary.mp3"}, {"c": "finance/invoices/selfie arrive.gz\nefe01bfcde335e9c81882ca0b16e5e6224077433\nProve front degree guess child walk approach. Hot this woman expect through identify. ChaRge job significant.\n", "p": "releases/steady-falcon/finance/invoices/selfie arrive.gz"}, {"c": "finance/invoices/warranty-human.gz\n3e151b80fac51a87232fdc434de3d222ea3550d9\nSure suddenly bank only trade at agree suddenly. Result begin nation trip they down. Card debate chance agency claim despite large two.\n", "p": "releases/steady-falcon/finance/invoices/warranty-human.gz"}, {"c": "finance/payroll/catalog-allow.log\n44b6c8ebc8e3c23e774ee98ae029c9c4ca1c4836\nWalk painting various chair source. Majority dark company often see body. Need international final tree through since single.\n", "p": "releases/steady-falcon/finance/payroll/catalog-allow.log"}, {"c": "finance/payroll/interview-pressure.mp3\n96177aeb82f2c0b0cebcada022a7906224d67a55\nHope control poor realize day fine whom. Image last dog. Toward she what tree fire week. Much treat girl.\n", "p": "releases/steady-falcon/finance/payroll/interview-pressure.mp3"}, {"c": "docs/legal/away_sketch copy.jpg\n49ab28f3ad882df35dd22d8abe14f4cc76566514\n", "p": "releases/steady-falcon/docs/legal/away_sketch copy.jpg"}, {"c": "MD5 (finance/invoices/selfie arrive.gz) = 148fae449c722ab9759ead6cf79da02a\nMD5 (docs/legal/kestrel-guide.xlsx) = 2afb72ea7fdb6dd7ec772d495074df3f\nMD5 (finance/invoices/timesheet-may.mp3) = 487f1af833a1170b0c49da6fec0c5cbf\nMD5 (book_agenda.log) = a7b6052e21ab7e60df7d016622c24a77\nMD5 (docs/legal/summary.mp3) = 371f0f412c0d1572c088bdd6c6dee05c\nMD5 (finance/invoices/warranty-human.gz) = 876028bb7226b05060e559b1942cd7f5\nMD5 (finance/payroll/catalog-allow.log) = 88926adf2ba8248b19e52d7d1863201d\nMD5 (docs/legal/avoid_survey.mp3) = 1ba5626e6d8e489f70bf50534a9eb961\nMD5 (docs/legal/manifest.mp3) = d185624f417447b93ccf12169b6a9127\nMD5 (finance/payroll/interview-pressure.mp3) = 47512d4e7964cac4a92f000fe166b05a\n", "p": "releases/steady-falcon/MD5SUMS"}]""")
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
