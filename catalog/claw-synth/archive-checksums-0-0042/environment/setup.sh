#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "data/lynx-template.sql\na3d98d258c4fc6737fcd4e986ba7470de9e90436\nDevelop street smile three seat. Be explain voice prevent but line. Ok fill technology.\n", "p": "handover/data/lynx-template.sql"}, {"c": "data/raw/ticket-tend.csv\n35a977182a9f7a0308789d6398d830a241281b73\nOnce fo", "p": "handover/data/raw/ticket-tend.csv"}, {"c": "data/statement-send.pdf\ne529d8a8b8dbae3ab74e19677975a130b99d58e2\nNice avoid allow suffer land. Well indicate authority education. Sea among newspaper perhaps pressure.\n", "p": "handover/data/statement-send.pdf"}, {"c": "panorama minute.sql\n9df2f5d7c3b54f4ad595965ef321b58da741658b\nOnce agreement sign say participant mother.\n", "p": "handover/panorama minute.sql"}, {"c": "src/archive-against.log\n5f38208f1334a9c55e953dd39cc5dfabb2d232ed\nGrowth into toward radio. Stand identify ah", "p": "handover/src/archive-against.log"}, {"c": "src/ledger six.xlsx\n7b594002c94f9dc108b73d63d63de9d2f1fd832e\nComputer space difference quickly box recent. Rich stop who.\n", "p": "handover/src/ledger six.xlsx"}, {"c": "src/tutorial service.log\nf1f689b3e63b445082ba3da5fea50318f8b0f6d6\nAnyone too provide plan power difference shoulder.\n", "p": "handover/src/tutorial service.log"}, {"c": "surface_quote.png\ned89f3178ef68639db3c7652a847f2f7df6ef383\nTonight me fine. Get fall third firm indicate. Enough father guy collection.\n", "p": "handover/surface_quote.png"}, {"c": "would_notes.sql\n4bd62be3ee4ae7f571457ac3a5c57ed40d9f88af\nSkin people probably. Store on history she hot piece.\n", "p": "handover/would_notes.sql"}, {"c": "data/raw/payroll-than v2.log\n3c11c485a62eca300b66440147e1acaea0c34984\n", "p": "handover/data/raw/payroll-than v2.log"}, {"c": "4e7770ac6640790b44aa45e6d3f632a45176e775aec0991db6f35a6fe46285a2  src/archive-against.log\n841883d4fa408359c745215c04f980816c67745e96e8b65ad7125ca1a2e34de4  data/raw/ticket-tend.csv\nc6d39903031f0f53f9b3e12e918c76504be60da06f08ce9d3f761c3cbcfee48f  snapshot.jpg\n058aaf92cf770b77e16dcd7e8b2efe3cf2dc51f477e4bd6dddd9cf06142b56eb  src/ledger six.xlsx\n99d4157da04d549c709dd1b1accd944c080bc3b1e66e63282b62cf4fbcdcb08a  src/tutorial service.log\n997f553bcda7e1b9dc25a18659161d8456426dbd27effcdf818fafb525c5f163  would_notes.sql\necbf88ee23c81d2ccb209c90e0b584d66a8d12af470be67704d791ee2aacbfbd  surface_quote.png\n5d5baf004e4775c93d15899fd283cf797329988fdfa815901f8c4540ab612f4a  panorama minute.sql\n082598f8ffceab3db2e58adfcf3b1f0b852bd55be877ac771c5de6a97d53b324  data/statement-send.pdf\n630d0185b1cd5ac00edf92656068d38692bec9843a7047516ea08a8bc78bbc0f  data/lynx-template.sql\n", "p": "solar-kestrel.checksums.sha256"}]""")
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
