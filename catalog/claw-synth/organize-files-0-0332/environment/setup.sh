#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": ".hidden-notes.txt\n63cee14a84076b50c358a32c0ae168aa69b4effb\nAhead surface finish same response star start.\n", "m": 1696355169, "p": "mr./old_laptop/.hidden-notes.txt"}, {"c": ".localized\n8ff672a11f8cc6e29a5799a598993746341256a6\nFilm candidate step interview yard ok something.\n", "m": 1629269669, "p": "mr./old_laptop/.localized"}, {"fill": "memo-land.txt 006443b473", "m": 1693668817, "p": "mr./old_laptop/memo-land.txt", "size": 1723}, {"fill": "lantern-panorama.zip aa88e3bd32", "m": 1657352002, "p": "mr./old_laptop/lantern-panorama.zip", "size": 2999}, {"fill": "book_agenda.json e179915ecf", "m": 1705750251, "p": "mr./old_laptop/book_agenda.json", "size": 5654}, {"fill": "slides-music.bin 381593396c", "m": 1678462154, "p": "mr./old_laptop/slides-music.bin", "size": 5240}, {"fill": "vale-portrait-v3.zip 548f8eed32", "m": 1658503859, "p": "mr./old_laptop/vale-portrait-v3.zip", "size": 5609}, {"fill": "comet-export (4).zip d7675ff322", "m": 1619133770, "p": "mr./old_laptop/comet-export (4).zip", "size": 999}, {"fill": "survey_without.pdf 45eea4156d", "m": 1692367589, "p": "mr./old_laptop/survey_without.pdf", "size": 5811}, {"fill": "design_feedback.json 13cffd52f5", "m": 1686962804, "p": "mr./old_laptop/design_feedback.json", "size": 3000}, {"fill": "zephyr-feedback-v2.jpg 56b7bb1084", "m": 1717765718, "p": "mr./old_laptop/zephyr-feedback-v2.jpg", "size": 1000}, {"fill": "book_agenda-v4.txt 09b3286fb7", "m": 1690728578, "p": "mr./old_laptop/book_agenda-v4.txt", "size": 1623}, {"fill": "demo.jpg 2790a91028", "m": 1691144249, "p": "mr./old_laptop/demo.jpg", "size": 3001}, {"fill": "Snapshot.txt 2ab9228cbb", "m": 1688055225, "p": "mr./old_laptop/Snapshot.txt", "size": 1001}, {"fill": "design_feedback (2).json 2a504d8e68", "m": 1676607310, "p": "mr./old_laptop/design_feedback (2).json", "size": 3689}, {"fill": "screenshot-manage (8).log 98f4564b9c", "m": 1652726151, "p": "mr./old_laptop/screenshot-manage (8).log", "size": 716}, {"fill": "onto_itinerary.json d24845e1d5", "m": 1629497057, "p": "mr./old_laptop/onto_itinerary.json", "size": 1245}, {"fill": "Estimate Analysis.dat f2f31daff9", "m": 1647006244, "p": "mr./old_laptop/Estimate Analysis.dat", "size": 5149}, {"c": "inventory.txt\nb313aa23ecfcce8a060f0c88c43ba21866cb8b4b\nMedia modern blue image talk growth authority.\n", "p": "mr./old_laptop/do-not-touch/inventory.txt"}]""")
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
