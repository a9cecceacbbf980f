#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/phone_dump': {'files': {'chair_resume.csv': '7a1477fcd8f22c1dfa0e4d9774dcc7566c1bba8f89d34f7d3e320e1f38ee211b', 'condor-screenshot.docx': 'b9eff3146d0f87c08f3f2a3df058b2b63883559d9da7c536c4b1c87ac76aad20', 'ledger six.csv': '62dcd2ca55626413991c9c007dfae1ec6137bfd05ddd5ac51a842579722f5f67', 'misc/tmp/believe_dump.csv': 'dbeb37854f60fd923983a15add450c419a258d2c9daefa6315767f47878e8981', 'misc/tmp/receipt there-b.bin': 'acf072e843362d1636e50bd28dbe106882fcd9f0e7aa9a06b37f689c4d259617', 'notes prevent.txt': '3f5eca74bbf4f109c1288451ddb87f35a9fbea7c4593807dadd56b675dde82ea', 'old/laptop/.thumbs.db': 'dbdaa956aa713a923890b6ea98ce5504563996b949f614a050065cde3e592578', 'old/laptop/budget-v3 copy.mp3': '190cdc5309987d39166830e418ae652f8635bae9786d1b03e23af35a21c6aa87', 'old/laptop/export-sport.pdf': '1f8b1a45bedc1727af90b0a9e4fe7f063869e3a07b1d9d42b39f174683023da3', 'old/laptop/receipt there-a.bin': '5b1e28966912f8835901bf716285b994767e420f423a5af9ac527da359210760', 'old/laptop/sketch.mp3': '9279ce2de96d8360c5d5ec813b0bf9e03e7f90cede194352a6b82b6f7bb3c9e8', 'old/laptop/slides-card.docx': '662fc6cf41570775ec6afe551c3b3c78283eb593c6792a6730d2257b6997c427', 'phone/design_checklist.docx': '13f547dd81eebf3c6bf7bdf43a08a81866b1c965cc6a19e5f851a43b1c5535bb', 'phone/estimate copy.csv': '49fedde1ed327bb0ad7caabee9d345055619caf26a950439548267b879108565', 'phone/receipt there.txt': '3912a2af3da8379f3013c51f65730f5eb057e335b49d21734bdf4e954c6eda05', 'phone/schedule-four-v5.csv': 'e7edd62f3c93e9e397043680fbff917567f1b76906d10b9e025918f2dd66a476', 'work/q3/forecast-thing-v3.docx': 'ff1b050a5b4e13d7c4f79352e08c3adb08fb84a460f33438457c8a6e457fde61', 'work/q3/receipt there.txt': '2700e9a3da95d3f21101e3fc484473e63947ec1289cca86cf43a3730d44ac671'}, 'links': {'misc/tmp/design_checklist copy.docx': '/app/phone_dump/phone/design_checklist.docx', 'misc/tmp/estimate copy.csv': '/app/phone_dump/phone/estimate copy.csv', 'old/laptop/design_checklist.docx': '/app/phone_dump/phone/design_checklist.docx', 'old/laptop/estimate copy.csv': '/app/phone_dump/phone/estimate copy.csv', 'work/q3/budget-v3.mp3': '/app/phone_dump/old/laptop/budget-v3 copy.mp3'}, 'dirs': None}}
TEXTS = {'/app/dupes.csv': 'duplicate,kept\nmisc/tmp/design_checklist copy.docx,phone/design_checklist.docx\nmisc/tmp/estimate copy.csv,phone/estimate copy.csv\nold/laptop/design_checklist.docx,phone/design_checklist.docx\nold/laptop/estimate copy.csv,phone/estimate copy.csv\nwork/q3/budget-v3.mp3,old/laptop/budget-v3 copy.mp3\n'}
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
