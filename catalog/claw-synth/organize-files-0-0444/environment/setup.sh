#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "work/chair_resume.mp3\n34fb50c53d1faa569d343310c90a49e897e24118\nSeveral industry team support order reveal activity.\n", "m": 1705095915, "p": "kathleen/Desktop/work/chair_resume.mp3"}, {"c": "work/reports/dump paper.md\n140d5dc3e7872307889769460021d10c25cc8933\nPolitical art agent size their.\n", "m": 1626507390, "p": "kathleen/Desktop/work/reports/dump paper.md"}, {"c": "photos/export-sport.docx\n82a777ee15264d9a29f1e420910ad6f905c028f4\nUp knowledge discuss together fire must bad.\n", "m": 1632385806, "p": "kathleen/Desktop/photos/export-sport.docx"}, {"c": "work/reports/q1/pine-mockup (8).md\n73f0e4324a717fff62d2677154fafa99618982bd\nCatch similar day issue tax store good.\n", "m": 1670548957, "p": "kathleen/Desktop/work/reports/q1/pine-mockup (8).md"}, {"c": "work/payroll moment.txt\n8d9dab87fc1ce0cd7534225a85fb96157e7a20b3\nMovie author word time.\n", "m": 1688106783, "p": "kathleen/Desktop/work/payroll moment.txt"}, {"c": "taxes/archive-against.jpg\n80240f699bd0ddc1ae8b62054b8d3167723368a5\nRate several major land sort measure that.\n", "m": 1682164392, "p": "kathleen/Desktop/taxes/archive-against.jpg"}, {"c": "photos/brochure-month.pdf\n670606b85245bdf7c1bfa96ea1effb31c911e0da\nBoard past individual represent suffer firm well.\n", "m": 1604176373, "p": "kathleen/Desktop/photos/brochure-month.pdf"}, {"c": "work/checklist.csv\nfc25b7d1f9456e04c84e3e9d56c1fd35b3f2afdb\nPolice likely picture lawyer.\n", "m": 1712734864, "p": "kathleen/Desktop/work/checklist.csv"}, {"c": "work/reports/q1/fjord-sketch-v5.txt\n0265a896fdb703f0d08edb6972e73fd7a7a7b711\nLeast feeling management any politics.\n", "m": 1628195503, "p": "kathleen/Desktop/work/reports/q1/fjord-sketch-v5.txt"}, {"c": "work/reports/selfie arrive.csv\n91f56694955f5c78ea6d1bb10ad45fd9a26994c8\nOnly action interview first attorney letter red always.\n", "m": 1683373563, "p": "kathleen/Desktop/work/reports/selfie arrive.csv"}, {"c": "taxes/memo-land (9).txt\ne66be7b0eea65b955732919768a4d05a292bb118\nThis machine he trial.\n", "m": 1652292536, "p": "kathleen/Desktop/taxes/memo-land (9).txt"}, {"c": "work/warranty-human.pdf\ne9a66a8fffc760636b735b74a3f1cba173cb8d37\nEntire hand despite.\n", "m": 1618506196, "p": "kathleen/Desktop/work/warranty-human.pdf"}, {"c": "taxes/2021/snapshot short.csv\n3a67f567fc5a55db8ceeeb7cfb7c3e03e5254be5\nRespond central bank.\n", "m": 1683514274, "p": "kathleen/Desktop/taxes/2021/snapshot short.csv"}, {"c": "work/reports/q1/survey-man.pdf\n8880f066bc34563f901f9e3ceb417211d97184fa\nIdentify push especially.\n", "m": 1617969306, "p": "kathleen/Desktop/work/reports/q1/survey-man.pdf"}, {"c": "taxes/2022/tundra-invoice-v3.pdf\n94a271745390834551a9a116cb8f746ae3c646af\nDrug one usually win.\n", "m": 1679116601, "p": "kathleen/Desktop/taxes/2022/tundra-invoice-v3.pdf"}, {"c": "taxes/otter-quote.pdf\n72322c7913bc909a63714b38c9a8a2f0fddec9be\nAccording budget anything air several.\n", "m": 1674762134, "p": "kathleen/Desktop/taxes/otter-quote.pdf"}, {"c": "workitinerary.txt\n8f01488b0d420a5cbb2cdd1ee4134ab245488a52\nCultural thus indicate establish bar.\n", "m": 1620240742, "p": "kathleen/Desktop/work/itinerary.txt"}, {"c": "taxes/2021itinerary.txt\n668545053b192df15f252a99ef70c629a15d914a\nUnit resource join.\n", "m": 1652922319, "p": "kathleen/Desktop/taxes/2021/itinerary.txt"}, {"c": ".git0\n794d7bc5bad4458dc85ec7c50ca9fb8147781ebd\nOr glass him difference head rather better.\n", "m": 1680858605, "p": "kathleen/Desktop/.git/obj0"}, {"c": ".git1\ncc4fe9c5728012e7d429487298a0959cd47f5341\nSection simple event simple suddenly drug.\n", "m": 1704251843, "p": "kathleen/Desktop/.git/obj1"}, {"c": ".keep\na62d02d6046adaa032bc01647b9b51d7fbfc55e9\nSpace crime Congress course air worker.\n", "m": 1673922555, "p": "kathleen/Desktop/photos/.keep"}]""")
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
