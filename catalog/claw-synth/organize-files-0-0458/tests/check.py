#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/andrew/unsorted': {'files': {'.directory': '5392ce15bfe4fb1b3e964c35807057d42f5fcb40b5875325e1c6b3cdfec52068', '.localized': 'cb4f9a978f5bd4e1984d6c190eed05542b7c5f98225d65b767a9e7c3b348aea1', 'big/Comet-Export.mp3': '5a460e57f84734cbabc0273b303ece94aaf3f46396d6aefa86849b1400701730', 'big/Zephyr-Feedback.mp3': '1e54a03296cb1840095b255c0beefcd3e3e0178573e42d5bcf38c9212e03e5ec', 'big/avoid_survey (2).jpg': '54cc917e41fee2c5860c26d49f8e8e462aa8164f375a06178e2c2c6e0e72a1c5', 'big/checklist unit.csv': '47339771e330ee82f0975afc588bddfc281cb6e0ba62bc2c759118a92705cf23', 'big/diagram.jpg': '2ab370ede59e6cff3c23f9a015919e84327cc5fdfaefb712f409876de0eedd6a', 'big/dump.json': 'fcb79c4da2c8e2f21810903665797ed8114eeb6d9b724926720d585b84065abf', 'big/lynx-template.jpg': '9225cba88135fb3caac980de0211e6b287cd1376395417c96743863b0481ca60', 'big/timesheet-may.mp3': 'a28075672d88323c123c221d571891f76fe2a1b3586a338e35f6ac19b47023fd', 'big/zephyr-feedback-v2.jpg': '4efbb97715fb538020411d14e9e589e0f6cf9ed2554b3f3eea2ebcb40dd0319a', 'do-not-touch/catalog-same.txt': '95e5ee1132fee2a1981cf138ebc4e0e2fb483c09f285764a22fb4d56dab47569', 'small/condor-tutorial (3).log': '8a6cea847b6e474196e00a5bd3363ddca366c6b83593c3e21364d50ddbc51d77', 'small/guide-matter.jpg': '89aa28c818038f8d6d607e9fb6d771932016fa2614682b1133ef6e14e9e97851', 'small/itinerary-v2.mp3': '149d9b81d3351e1a36c27ac6ac331b9cd9b249855fffff8ed138be519268f15a', 'tiny/Scan Forward.csv': '14dd5222532c26b1dcb33ff19c87307b8544f922485806c10afdd0419259cf98', 'tiny/away_sketch.csv': '1dd503062f26702dbf47e0dbbc570211fa8c5138147be51b9a18c07b1fd9ed26', 'tiny/dump paper.dat': 'beccbad2c9e8b008c47c21ebbe43e7304ed525d42e185f03cceed594b4cc6a66', 'tiny/payroll moment (2).dat': 'b48411f5f9185d598d09bc45b310e4fada5bcf1896119f135fd04ec1269dede9'}, 'links': {}, 'dirs': ['big', 'do-not-touch', 'small', 'tiny']}}
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
