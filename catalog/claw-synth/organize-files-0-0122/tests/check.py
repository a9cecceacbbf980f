#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/inbox': {'files': {'2023/forecast-thing-b.bin': 'dc31147703ff7151ace355df68c38269729f889996904d50747d83b80d0737bd', '2023/forecast-thing.txt': 'b10a13e76cfcb287d1852ca186d21075e62ee0952ec8811257697bcae461cf3d', '2023/harbor-sketch.mp3': '4e56154a7bfaf9c281ab1554c700f9a6bdbf1660fc0d19002572ed1483f7d7ee', '2023/thousand_proposal (6).mp3': 'c847d33b8195fff00748494af90486223c2bb9f1e62fe8fd833bdc68ea1ce31b', '2023/warranty-people copy.mp3': '1fc08f220af1367ab259d0abb7a2eee2e3d7d06338385fabf0272a7786e071a8', 'Camera/.thumbs.db': '35c7c89ebaedcd03d60e517ca7c00f848b1bf7dfbfef706887bbbedb108c6f16', 'Camera/forecast-thing-a.bin': 'd9eb13a886b0e73a18e8f5bc4c723cebb30765a08ef6e6eedab673bead38c9c5', 'Camera/forecast-thing.txt': '7d7be28525f10bf9eb9f522c55ca9b67cfe74d1ae8c762cb9a576e0ecefd0616', 'Camera/would_notes (9).csv': '4b0fc9d10122a7c0b51ada19669e89210d7825004009fea5f0dec46e61481c70', 'delta-selfie.csv': '890f02443b30c2874cfa4a53a283b113fedee796cf7f459ae262406b67aa76c8', 'mesa-budget (1).jpg': '1a850b40f75a0e9b259b1f7483579fc1f891af03417011c60dbc4c0c9a44c663', 'old/laptop/interview-pressure.csv': '892c57fb854f561fec96d68b714ef89e51f5d23c2c75a18c06406ea4faf13639', 'old/laptop/notes prevent.pdf': 'd74f03c259eec2f106c302bf5a5dd7ad7db8db0f2764e2b042fc9cb4f435d972', 'old/laptop/office_report.csv': '7f8cf380842aecd3fc7edfa478fe8962df23db09275d1781e117bd4bb55aa258', 'phone/expect_inventory.pdf': '3bb0c8c017f8d897c0cc22f24aeaa5103df284b74519fe2aeee28659807a25d0', 'phone/pricelist.jpg': '27c4586b434b45f137aa2f2522ae0474577e1dd458957340245c3f960fc46cf1', 'phone/proposal-v2.png': 'e6e46eb29c5aa0a165d2307a6bda4296194f2e1b82ea7231efdd1a81d2992286', 'phone/tutorial-apply.pdf': 'efed8c5c137cf865a2f342e5880511077f7a77986485bbc151d9f2224eaca8d1'}, 'links': {}, 'dirs': None}, '/app/dupes': {'files': {'2023/mesa-budget (2).jpg': '1a850b40f75a0e9b259b1f7483579fc1f891af03417011c60dbc4c0c9a44c663', 'Camera/Copy of delta-selfie.csv': '890f02443b30c2874cfa4a53a283b113fedee796cf7f459ae262406b67aa76c8', 'phone/delta-selfie copy.csv': '890f02443b30c2874cfa4a53a283b113fedee796cf7f459ae262406b67aa76c8', 'phone/warranty-people (1).mp3': '1fc08f220af1367ab259d0abb7a2eee2e3d7d06338385fabf0272a7786e071a8'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/dupes.json': {'2023/warranty-people copy.mp3': ['phone/warranty-people (1).mp3'], 'delta-selfie.csv': ['Camera/Copy of delta-selfie.csv', 'phone/delta-selfie copy.csv'], 'mesa-budget (1).jpg': ['2023/mesa-budget (2).jpg']}}
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
