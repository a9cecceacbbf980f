#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/handovers/onyx-lynx': {'files': {'Timeline-Air.json': 'fab8c583686a08ba3fee7371156c7f2ca405cf668095e428516e13aed01797ee', 'condor-screenshot.docx': '2bca0a8a3f9fbee16de57d60cd679fee8717c1d30c5e5dd24144a9cba02d8170', 'data/2024/PEBBLE-PORTRAIT.gz': '017b0161c161858ecf8f6e8be5066bb477b78da494d70584a0f9877448142bd9', 'data/2024/design_checklist.mp3': 'c70c3d3d3c49378a54b8771d7749dc58696e3438374950b6018ffadf41d2df03', 'data/raw/DIAGRAM.jpg': '1a71a3a3d11c282cd075c29c5e9f32be5f1ea158758d83d618693822000f7b84', 'data/raw/TOUGH_TICKET.xlsx': 'e752b531e41703d1301d7c31a6399048c51924d43173f0c9b84b0a21a70178c6', 'data/raw/export-sport.jpg': '0920747316a4349636baffbe3923c06128686c5911132d6aeaa1e277b2682850', 'data/raw/panorama.jpg': '4cb2bdbecd5e3bc33d67dc42a521aa21c34ef104616b1e15a5925fb3df97eb90', 'data/raw/sample v2.gz': '02b67ad1cf5692d7f6c25c7b9726afa3d3836ffd7c59b3e74d845a72552f20bf', 'feedback film.mp3': 'a41ab01492cdbfc361538c0765f678eead211b0fa2b71ee51ab757c87f7cb96f', 'finance/invoices/pine-mockup.md': 'ccf1c79553b52f50f3c4776ff394469b831b24494bc3f90b91fb4f36bf4a50f8', 'finance/invoices/portrait.docx': '20838bae7829f3f6390ab73820862550b57d6087b53e908cf6ee1eb02140dd1e', 'finance/invoices/survey without.txt': 'ffe454f273bcbdcf2665f586863a1a55263fa59b9b28abbad57a3619212b447f', 'images/BADGER-ITINERARY.png': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'images/EVIDENCE_SAMPLE.csv': 'c13abe04700a495784f59d3060bfc8d83ce51c61c72385320ec143fb7cce18ff', 'payroll-than.sql': '2c73bda7c1ba226979cfbf0a0366cca12b337b1725442f06f869d8ce73068b77', 'src/heron-photo.json': '68727a2ca8c09a18aa1c36758dd819b6f67c5fb3dfc69bfaa6f5df2e4e28bea5', 'src/horizon-diagram.txt': 'ead862da1941f6ae1b999b98a97b541a0091fe728ac564085b1ea8537aa27165', 'src/notes light copy.jpg': 'd32602633523199a1be184506ccebde1fc5a3fc0e024853125e5bf90dc6174b6'}, 'links': {}, 'dirs': None}, '/app/backup/onyx-lynx': {'files': {'Timeline-Air.json': 'fab8c583686a08ba3fee7371156c7f2ca405cf668095e428516e13aed01797ee', 'condor-screenshot.docx': '2bca0a8a3f9fbee16de57d60cd679fee8717c1d30c5e5dd24144a9cba02d8170', 'data/2024/PEBBLE-PORTRAIT.gz': '017b0161c161858ecf8f6e8be5066bb477b78da494d70584a0f9877448142bd9', 'data/raw/TOUGH_TICKET.xlsx': 'e752b531e41703d1301d7c31a6399048c51924d43173f0c9b84b0a21a70178c6', 'data/raw/panorama.jpg': '4cb2bdbecd5e3bc33d67dc42a521aa21c34ef104616b1e15a5925fb3df97eb90', 'data/raw/sample v2.gz': '02b67ad1cf5692d7f6c25c7b9726afa3d3836ffd7c59b3e74d845a72552f20bf', 'feedback film.mp3': 'a41ab01492cdbfc361538c0765f678eead211b0fa2b71ee51ab757c87f7cb96f', 'finance/invoices/survey without.txt': 'ffe454f273bcbdcf2665f586863a1a55263fa59b9b28abbad57a3619212b447f', 'images/BADGER-ITINERARY.png': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'src/Forecast-How.pdf': 'e741c5ad59982c5a446bc5e83ed48501de4df035ced7035da427c2be9326f52b', 'src/heron-photo.json': '68727a2ca8c09a18aa1c36758dd819b6f67c5fb3dfc69bfaa6f5df2e4e28bea5', 'src/horizon-diagram.txt': 'ead862da1941f6ae1b999b98a97b541a0091fe728ac564085b1ea8537aa27165'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/repair.txt': 'FIXED ./condor-screenshot.docx\nFIXED data/2024/PEBBLE-PORTRAIT.gz\nUNFIXABLE data/raw/export-sport.jpg\nUNFIXABLE images/EVIDENCE_SAMPLE.csv\nUNFIXABLE src/Forecast-How.pdf\nFIXED src/horizon-diagram.txt\n'}
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
