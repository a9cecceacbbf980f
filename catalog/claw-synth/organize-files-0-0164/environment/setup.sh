#!/bin/bash
# Builds the starting state at image build time (this script is deleted afterwards).
set -euo pipefail
python3 - <<'PY'
import json, os

ENTRIES = json.loads(r"""[{"c": "music/warranty-people.txt\nc98be9d568d301dc2c53f6d67237b0e28634d35f\nRight box information opportunity note leader.\n", "m": 1647426575, "p": "camera_roll/music/warranty-people.txt"}, {"c": "taxes/2021/catalog-same.csv\ncda6e0b47b7e2e6dd1f9c510666f364b158aa672\nNation number area term cold experience drop.\n", "m": 1636786968, "p": "camera_roll/taxes/2021/catalog-same.csv"}, {"c": "photos/2022/tutorial road.csv\n013fca5168c5462926ee61a9e976f14da07999b9\nHuge blue lose example.\n", "m": 1603859803, "p": "camera_roll/photos/2022/tutorial road.csv"}, {"c": "photos/2022/sketch.mp3\n1ef2dcff9c4cee70c840af97f8b3569ee42d0e16\nSpend serve help around only operation very.\n", "m": 1665234964, "p": "camera_roll/photos/2022/sketch.mp3"}, {"c": "work/reports/q1/design_feedback-v4.pdf\n0f4de72d5fc734845cf5b6e79ee44d00aa070a14\nKey nation in note down though fast.\n", "m": 1634214558, "p": "camera_roll/work/reports/q1/design_feedback-v4.pdf"}, {"c": "photos/handbook-moment.md\n66af8a6b9266fd642863c41713b663ac02267dbe\nRead cold discuss.\n", "m": 1609864594, "p": "camera_roll/photos/handbook-moment.md"}, {"c": "photos/2022/onto_itinerary-v3.pdf\nbc743c744e5e4b2750dbd9507832778f669191d0\nUpon live describe style laugh new position.\n", "m": 1664171250, "p": "camera_roll/photos/2022/onto_itinerary-v3.pdf"}, {"c": "taxes/ledger six.txt\n1fb35808cb6d673267501bd90b3ca66df78fb790\nMrs fact thousand major future father.\n", "m": 1702103878, "p": "camera_roll/taxes/ledger six.txt"}, {"c": "taxes/2022/inventory.mp3\nc0039d84f9aeb246eb8bb80ba9f91062701b702d\nNecessary understand might age yes.\n", "m": 1705312050, "p": "camera_roll/taxes/2022/inventory.mp3"}, {"c": "photos/2022/archive management (5).mp3\n487638d31d8a353f4d86b6bbf59cf7ea286b61dc\nMessage participant since chance all sea until.\n", "m": 1626324607, "p": "camera_roll/photos/2022/archive management (5).mp3"}, {"c": "taxes/tutorial service (5).md\n05d0bf10a448ba4aaf7faf9c26e9a5ff09541278\nRisk leave bad sit bank foreign born yes.\n", "m": 1681211153, "p": "camera_roll/taxes/tutorial service (5).md"}, {"c": "taxes/2022/warranty-people (1).csv\n9adf1b0d862e10becef3755eabb3c6c0d8be8095\nWhatever although black try election.\n", "m": 1645930137, "p": "camera_roll/taxes/2022/warranty-people (1).csv"}, {"c": "photos/myself_dump.mp3\ncfc4fe7af1af21f7f45f1735be361ee5a3d20a32\nRun law total Republican try avoid against.\n", "m": 1701747485, "p": "camera_roll/photos/myself_dump.mp3"}, {"c": "quite_brochure.txt\nc791a1fe63b5cddd985d0cf530fed3c28e1a25c0\nCell suggest bag provide subject.\n", "m": 1669726675, "p": "camera_roll/quite_brochure.txt"}, {"c": "music/minutes.mp3\nff890a425f1c94b9a602fe114b4e31a105d3c6a4\nScore old mean window.\n", "m": 1617623963, "p": "camera_roll/music/minutes.mp3"}, {"c": "photos/2022/selfie arrive.pdf\n785353271569b18077195c3fa65e737694a77015\nNothing east city.\n", "m": 1669519404, "p": "camera_roll/photos/2022/selfie arrive.pdf"}, {"c": "work/reports/q1bison-template.txt\n11843cc563b1756a03bf0de1d0b794ec4bc5fdc1\nManage others once religious big.\n", "m": 1645553455, "p": "camera_roll/work/reports/q1/bison-template.txt"}, {"c": "photosbison-template.txt\nf55cfd34587cdd999cb48fb48f9ade1fabb735f6\nCapital floor capital seek.\n", "m": 1701935766, "p": "camera_roll/photos/bison-template.txt"}, {"c": ".git0\n01ee0070f7b35a146a80812919798b56b007d442\nFind parent professional.\n", "m": 1688102735, "p": "camera_roll/.git/obj0"}, {"c": ".git1\ndf9d372ec5bf59b95c8afdaf4f296a4a178986eb\nPlant partner office long can yes outside.\n", "m": 1621996050, "p": "camera_roll/.git/obj1"}, {"c": ".keep\n668a04c027113e34fccd3ce5041141662f14c9b9\nAction all international eight.\n", "m": 1640305201, "p": "camera_roll/misc/.keep"}]""")
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
