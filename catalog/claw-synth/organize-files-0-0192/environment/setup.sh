#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "warranty-people.pdf\nd7360a30b6c26d2dca351e9352552b969ab7bbf2\nStock assume college loss provide part.\n", "m": 1649472071, "p": "courtney/inbox/warranty-people.pdf"}, {"c": "misc/sketch.docx\n216ddaa3681b061c835deecd6cc892622c81d27c\nTake nation product look because any.\n", "m": 1605727856, "p": "courtney/inbox/misc/sketch.docx"}, {"c": "photos/2022/comet-export-v5.pdf\n27736c39ecd7f4f52f62375e9bd83235f60ce991\nSort not apply treat hear chair heavy measure.\n", "m": 1671929025, "p": "courtney/inbox/photos/2022/comet-export-v5.pdf"}, {"c": "photos/ledger six.docx\n9700ab0d9cb3235b1464373d5748a97d2d8c6279\nEnd couple Mr push affect group.\n", "m": 1623308427, "p": "courtney/inbox/photos/ledger six.docx"}, {"c": "photos/statement-send-v2.pdf\n960206c3ed5af2b309602c9bdbc7a8f31d2bd81a\nValue interesting those local this along.\n", "m": 1640745617, "p": "courtney/inbox/photos/statement-send-v2.pdf"}, {"c": "photos/manifest-dinner.docx\nad9e0b0cd8a9955c6975c03ced00895f954aad83\nSuddenly give report.\n", "m": 1604431051, "p": "courtney/inbox/photos/manifest-dinner.docx"}, {"c": "work/reports/notes prevent.docx\n9b730fe06b81e09071f4bfdb750201353c5b1d0a\nAttention level present piece well box.\n", "m": 1665783775, "p": "courtney/inbox/work/reports/notes prevent.docx"}, {"c": "photos/2022/thousand_proposal.pdf\n10b417d9e4e0beefbde28036eb3f69305b394b33\nEach prevent hotel too.\n", "m": 1646309990, "p": "courtney/inbox/photos/2022/thousand_proposal.pdf"}, {"c": "survey without.txt\n25c4aa304e92210fa327b5dd617c191c88c64e9c\nExactly effect seat team.\n", "m": 1705536164, "p": "courtney/inbox/survey without.txt"}, {"c": "work/reports/inventory.docx\necec8c030b995338f7b7f02f0d05592aa4849d41\nContinue house campaign serious allow lay the.\n", "m": 1643909018, "p": "courtney/inbox/work/reports/inventory.docx"}]""")
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
