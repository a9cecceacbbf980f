#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/camera_roll': {'files': {'.DS_Store': 'c72db31c31195f1fa2bf298339b308b162f275bd8b1d6b4e8125fb33d7cae347', '.directory': '6a50952c60dab33601845a0065c0291f6481872534fb2424c30496037decc9f6', '2019-02/2019-02-21 condor-screenshot.docx': 'cc3f49fb692b0d9b021bbafb475a5b6b729cbef4f63f24759dcdd5d415f91ba0', '2019-03/old thousand_proposal-v3.txt': '5be761ae6739a1364d24d7c417a544c63142c4e3b3734f98b3ba1aae0aac8400', '2019-12/2019-12-07 export-reach.jpg': '9259a6c01abc457ed0b28444f4e191a36f7630eafaf8ccb9accf0be1e398b731', '2020-03/2020_03_30_scan_forward.jpg': 'a295b015c3888345c5e4d9232c1420e83c8160584baf46c3e6e00414152d10b8', '2021-10/IMG_20211018_074652.jpg': '9cefddfb9741489004b0a8d0b68bbe30621f0c32378b7c7225f4c127f9de200f', '2021-10/letter method-20211005.mp4': '7928cfd0c0ca7eca82d9536e4b58642298def0a710b7f63538fd7ebe1fd2ddfe', '2022-03/estimate analysis (5) 2022-03-22.mp4': '3faa71b07fce702ae14ed8c1fee69668e62d1d3e7fdc8deefa530d33a330e46e', '2022-05/panorama voice (4) 2022-05-28.heic': '73542c1d964a3bdbbf066abff1de8e29cf824956373e972c51006e5bff104889', '2022-10/2022_10_19_handbook-moment.csv': 'dc8e9097775372ea2f9852a16b137c16ee2ca89b844dc71c6aeebfb3d4f60b67', '2022-12/dump 2022-12-12.heic': '2e74e3929c093ec3e3a02ec4ffbede6d04633ef03a1255a2f9765f15cedf3f05', '2023-02/IMG_20230228_154634.pdf': '8832e0a54c479efd616efef1250e4db5199efdaae29fd02aeca7e7cfc25c28e8', '2023-03/2023_03_18_manifest-entire.txt': '2d04e0c00dcf6ac9e02904b1fabbf5c332ef9fe6e6530a0b2a32dcb21cc6e8e3', '2023-04/2023-04-07 dump paper (7).png': 'a00f7d99f89ae0f03f3dee51eb2723cc311a550980d4aeefa7d2dc212173ffe1', '2023-09/IMG_20230908_151631.txt': 'd42d9380673232a4fe929377231baa9c6b92cba8d57d772c04e07ef1bf9bab22', '2023-12/receipt-long-v5-20231227.mp4': '884cabaf1dc5413b70f39c4b226b8dce7d541a73e1bc038a9f876c6337731ae2', '2024-01/2024-01-29 statement (8).csv': 'b0661861d84a0cf8038b8b9024b2d0c0241af9b9fd4db3b7237316b0695884cd', 'undated/20191701-sample whom-v4.xlsx': 'bcd34e209738435011719b33c808f27652778a203d46de10f3b276d647b8bb50', 'undated/20231301-snapshot short.csv': '9d57e45c0763f963fd78481a0b9961b04aa1cc9ff5939f38ef0ecafead420924', 'undated/estimate.pdf': 'eea4f42db5172c4c3ed3eb0b70ad223285792b87e1f87af28ad77351dafbf778', 'undated/schedule (6).jpg': '64c3465990625e66f1e4b7242e419d4373ac2340434bb637db035c1b670898ef', 'undated/survey-man.mp4': 'd783cfb4086824d584e0cfddcbbb64f5952b71880031d9ddf30076b90c51a0a6'}, 'links': {}, 'dirs': ['2019-02', '2019-03', '2019-12', '2020-03', '2021-10', '2022-03', '2022-05', '2022-10', '2022-12', '2023-02', '2023-03', '2023-04', '2023-09', '2023-12', '2024-01', 'undated']}}
TEXTS = {}
JSONS = {}
ABSENT = []


def digest(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def walk(top):
    files, links, dirs = {}, {}, set()
    for dirpath, dirnames, filenames in os.walk(top):
        rel_dir = os.path.relpath(dirpath, top)
        for d in list(dirnames):
            rel = os.path.normpath(os.path.join(rel_dir, d))
            if os.path.islink(os.path.join(dirpath, d)):
                links[rel] = os.readlink(os.path.join(dirpath, d))
                dirnames.remove(d)
            else:
                dirs.add(rel)
        for f in filenames:
            full = os.path.join(dirpath, f)
            rel = os.path.normpath(os.path.join(rel_dir, f))
            if os.path.islink(full):
                links[rel] = os.readlink(full)
            elif os.path.isfile(full):
                files[rel] = digest(full)
            else:
                files[rel] = "(not a regular file)"
    return files, links, dirs


def lines(text):
    return [line.rstrip() for line in text.replace("\r\n", "\n").rstrip("\n").split("\n")] if text.strip() else []


def check_tree(top, want, fails):
    if not os.path.isdir(top):
        if want["files"] or want["links"]:
            fails.append("%s is missing (or not a folder)" % top)
        return
    files, links, dirs = walk(top)
    skip = set(want.get("skip", []))
    for rel in sorted(skip - set(files)):
        fails.append("missing file: %s/%s" % (top, rel))
    files = {rel: h for rel, h in files.items() if rel not in skip}
    for rel in sorted(set(want["files"]) - set(files)):
        fails.append("missing (or misplaced) file: %s/%s" % (top, rel))
    for rel in sorted(set(files) - set(want["files"])):
        fails.append("unexpected file: %s/%s" % (top, rel))
    for rel in sorted(set(want["files"]) & set(files)):
        if files[rel] != want["files"][rel]:
            fails.append("wrong content: %s/%s" % (top, rel))
    for rel, target in sorted(want["links"].items()):
        if rel not in links:
            fails.append("expected a symlink at %s/%s (pointing to %s)" % (top, rel, target))
        elif links[rel] != target:
            fails.append("symlink %s/%s points to %r, expected %r" % (top, rel, links[rel], target))
    for rel in sorted(set(links) - set(want["links"])):
        fails.append("unexpected symlink: %s/%s" % (top, rel))
    if want.get("dirs") is not None:
        for rel in sorted(dirs - set(want["dirs"])):
            fails.append("unexpected folder: %s/%s" % (top, rel))
        for rel in sorted(set(want["dirs"]) - dirs):
            fails.append("missing folder: %s/%s" % (top, rel))


def main():
    fails = []
    for top, want in sorted(TREES.items()):
        check_tree(top, want, fails)
    for path in ABSENT:
        if os.path.lexists(path):
            fails.append("%s should not exist" % path)
    for path, text in sorted(TEXTS.items()):
        try:
            with open(path, encoding="utf-8") as fh:
                got_text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            fails.append("cannot read %s: %s" % (path, exc))
            continue
        want_l, got_l = lines(text), lines(got_text)
        if want_l != got_l:
            fails.append("%s is not as expected (%d lines expected, %d found)" % (path, len(want_l), len(got_l)))
            for i in range(max(len(want_l), len(got_l))):
                w = want_l[i] if i < len(want_l) else None
                g = got_l[i] if i < len(got_l) else None
                if w != g:
                    fails.append("  first difference, line %d: expected %r, got %r" % (i + 1, w, g))
                    break
    for path, want in sorted(JSONS.items()):
        try:
            with open(path, encoding="utf-8") as fh:
                got_json = json.load(fh)
        except (OSError, ValueError) as exc:
            fails.append("cannot read %s as JSON: %s" % (path, exc))
            continue
        if got_json != want:
            fails.append("%s is wrong:\n  expected %s\n  got      %s" % (path, json.dumps(want), json.dumps(got_json)))
    for f in fails:
        print("FAIL:", f)
    print("PASS" if not fails else "FAILED (%d problems)" % len(fails))
    return 0 if not fails else 1


if __name__ == "__main__":
    sys.exit(main())
