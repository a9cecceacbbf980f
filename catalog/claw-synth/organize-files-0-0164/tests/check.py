#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/camera_roll': {'files': {'.git/obj0': '3fd76ec44fb5ee6ec08411527fd058f21c64781d18027730cb52bef746916f29', '.git/obj1': '9511160851b588354b501565511548ae18332fbcc34f10511c9d3528d88ae8a3', 'misc/.keep': 'a7511d92220e18b7ea2a0f7e672e0af584f867b456733ef4883f034880eb06f9', 'music__minutes.mp3': 'f72838f1d795ead4a5fcd77dfe4c3ba5f3a5c424a572cac9f14f1f6e8b1882f2', 'music__warranty-people.txt': '83f49cf905dddcb96fdbc79121c03490b8acabbcc4b08ad6f6ff23a35e29a38a', 'photos__2022__archive management (5).mp3': '2b7147571d02babc46ccea8a7b8cce8a0b0915ddfa64c21eeaffd9c34a6f4978', 'photos__2022__onto_itinerary-v3.pdf': '88069e7d99edc7ba58e97ebcae052fabcd10a6a171fa3907d643399d433def52', 'photos__2022__selfie arrive.pdf': 'fcbf3535baa4d820bfab19c5c9fdd2ecc4dbc2d10b9e095a540d78f7b9930792', 'photos__2022__sketch.mp3': 'e3ee1f33e82806a10b0c4d4cf3aa4ac3ddaad8302953f84c55518e3431dbfb53', 'photos__2022__tutorial road.csv': '3330c9f2d36aeb2c159a18a2c13da5d4fa4b259f1af835f32b5365c596f261e0', 'photos__bison-template.txt': 'bbe05fa39d55c6584a859dc3c6e198546671e9fae7c34d21af74b88a8fde75bb', 'photos__handbook-moment.md': '7f58f48497f258a6ecd0508a960eca26d55691990f925edbfc0b2e2d12aac06a', 'photos__myself_dump.mp3': '2f755fce2cdd3b2eeeffb28807cf9f97610ecdb33ee9b7ced3af1dccbd8e7beb', 'quite_brochure.txt': '3d8f8dafb85e46fcc4a0097c9e5f6d7e84a8a4e06b939a09b7d701200a690726', 'taxes__2021__catalog-same.csv': 'cdf4b1648a34fe34fdf49b7afcb384e99642c09a9b306bab522c2864caf6aa58', 'taxes__2022__inventory.mp3': 'b9488de8146a6f8f13518c93cfb6b326944139ddafdb838ab60c6f1ae5c3ec64', 'taxes__2022__warranty-people (1).csv': '7d5de868724411ad6145778ff7e323af4fe06894f39d37a4d627ee5a3e5e564c', 'taxes__ledger six.txt': 'd300bffe2a8259dc64a12080a1bd3b8c683abbaf63842e266196e5d782f91ca6', 'taxes__tutorial service (5).md': '0e76bcd7213722ccbd093d3d1dc554244dd34574d4cc7067a76900f5f242f324', 'work__reports__q1__bison-template.txt': '548302795a4a80132bd482d0511df832a2935c4530804b2519f8ed22c601650d', 'work__reports__q1__design_feedback-v4.pdf': 'b49ea34785e0a2c2e3ced8308adec07c1868a78ce9724d96962a34aba0699daa'}, 'links': {}, 'dirs': ['.git', 'misc']}}
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
