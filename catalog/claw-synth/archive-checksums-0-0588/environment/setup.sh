#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "data/2024/selfie-child.md\n98dae0601e76001475435f4573\u0012e2214dc3302df\nMiss eye conference require. Mind camera nice relationship second star clear then.\n", "p": "handover/data/2024/selfie-child.md"}, {"c": "docs/summary.json\n17b2fb4e213e4ea4721c248750adb77c1067addc\nNorth never set. Perhaps late manager wonder.\n", "p": "handover/docs/summary.json"}, {"c": "docs/tundra-invoice.docx\n9bf3f2990a36b6cacd40e2a1debad563e882f2d6\nLose pay suffer suggest despite. Throughout something image far.\n", "p": "handover/docs/tundra-invoice.docx"}, {"c": "evidence_sample.md\ndacbbb9d69259eb03e8eca901dcac9af52c71740\nBenefit turn from this. Country base forward manager base. Magazine within yeah page many bar American.\n", "p": "handover/evidence_sample.md"}, {"c": "finance/invoices/minutes.csv\n448232f016269fda264b86ab25291b897fdf3cb3\nPut project everything base. Least structure need religious message character result. Age behind mouth line start culture cell here.\n", "p": "handover/finance/invoices/minutes.csv"}, {"c": "proposal.csv\nae6a7da\u0018e9c7c7816be22dde46523ec8f176a6fc\nDefense the maintain great building them key. Television institution situation goal need region its. Treat blue science music. Shoulder theory traditional local machine personal.\n", "p": "handover/proposal.csv"}, {"c": "raven-boarding-pass.log\n274a6d883c5439da50423670589cd65ce595fda0\nHouse term discussion. Hear agency member most animal.\n", "p": "handover/raven-boarding-pass.log"}, {"c": "slides-card.md\ncb26f2957b1800f15566be457c079967db6f42ae\nDrop true economy difficult. Head one ago.\n\n", "p": "handover/slides-card.md"}, {"c": "zephyr-feedback.txt\n26cd4192d9c50c7b2107ecb2a2b4629f64e1a1a4\nWe establish care language girl technology. Range investment pull way own.\n", "p": "handover/zephyr-feedback.txt"}, {"c": "docs/horizon-diagram v2.sql\n09267588c41fdd8a1ca854e7f3237a87f089da69\n", "p": "handover/docs/horizon-diagram v2.sql"}, {"c": "d7fbc0a40d7bab5d6af4f8acd8c1c948d420a380c8d913d21c62aec14ac2366a  slides-card.md\nd48aa955d9f3d5b47130b8305dacae3e3756661a90f3f32d75c3d57b8dbe5857  proposal.csv\n5aeb8407b269ce362cd3ce86ce57113b44d67270715ac9eef84b6f8b852d9dfa  data/2024/selfie-child.md\nc1b4ed1891b7521a9971f92ce79c616e617df276450aaaf1f8b577f4a74e5d91  docs/snapshot short.jpg\n001b8c366b6538cfb6f93fa3fff6ecdfff7405661cf6784e3dc11fa956c540b6  zephyr-feedback.txt\na66188bdb22d015f2b5ef8e2c2416a5be4e7fcfa987c3b9a987f5900e1b1c66e  docs/summary.json\nc1f44daa74039bb477351aed4d040a3d5273c12089f9336c7933ee8047be9cf8  docs/tundra-invoice.docx\n723b66735010fbb9c84d4fd928d85e5f5a47b26a03fa692e416926461b74feb2  finance/invoices/minutes.csv\nbb5588a9776a35678fd3d9d5c85f976c867ffcaa00c02ab8f7c9fe5a9087ceae  evidence_sample.md\n4141d97649da496b953401aa98ee74b95179d6d3308259251ba2528db24b270f  raven-boarding-pass.log\n", "p": "granite-otter.sha256sums.txt"}]""")
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
