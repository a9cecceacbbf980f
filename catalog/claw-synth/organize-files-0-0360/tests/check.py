#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/dropzone': {'files': {'.cache/obj0': '1b9648f10be9ca09e03a57b75e90e60c61e09d0d683cfb0a6128b69bed4d3c09', '.cache/obj1': 'e3c7fea358210a14b7cf36db1a0cf92abe4fe5f7f64fd2a441f64b88e2a92f54', 'music/.keep': '5ab6372f60f1f60ce3918c1fc99f3d7e4b5a4486c6ff7f0a84017e24c97955f5', 'music__falcon-sample.md': '49904a26b24e0b1a6fb3ce7a5e6d273a7ebf7f5b7218080e8647db3259a98523', 'music__interview-pressure.txt': '7b0354837c6fd1373bd6b257c5dea56ce23a415a04900bc4c9b792ab56047320', 'music__memo.mp3': '0a4e9b9c218315eaff22a2985c0630b1dde13d4298475e5425efc58e271edcb7', 'music__quartz-flyer-v2.mp3': 'ba686809b7ff30ca48e08570a5219422ec6719299ebcefaacbf44cb4c5aab996', 'music__quite_brochure (1).jpg': 'b512c153bbcab385dda93a3f9aae53f3621a1a44d51e46cc67fe424af02bf0b1', 'notes__backup listen.txt': '184051e1d8063126979f899af4024488ea2d2df5ec7e83113a29976043134e27', 'photos__2022__delta-selfie.docx': '9bb6d8ff8e8a0cb10fa33b08ece208d36b48241071d5fd472959fb189cce6f4f', 'photos__2022__would_notes.pdf': 'd68b88e9bf7470132f375359d7e69cee7047f2118764d3cf577943db92c1d6c9', 'photos__badger-itinerary.pdf': '459f751608977660335f5265eb02c6036aed90b45b7d6030c641926c70e84025', 'photos__bison-order-v4.docx': '39a0c938783e52f89a23eb19b0dc59ccf415b5453a227e0c678bc38211f278a4', 'photos__interview-pressure.txt': '4fefce696d32df555f0324e7b5a7ba79711b66dc6c80c7771cecfaa58c31ea41', 'photos__office_report.csv': '02cd550b31a8832417b27dabe029313f5520b2f5d4374559bc358a82d9f09818', 'photos__portrait.mp3': '162336f5c61eb86f0f5b7bb6b19deb3c7d0afb8619675dc4d22300fb1a8f4d7f', 'scan.txt': '6cef5eae8e4819ade0ac71f780fca1f5a15ee4e0f92a6e17436675440f747197', 'taxes__2021__checklist.pdf': '3187a98e1da026d4deadc59dc89773572951d7f0bd51659b38991bdb5cfa7f1c', 'taxes__2021__forecast teach.pdf': '36e6e4d0a2b1e1e16aab40c0ff95140d01529b5b782a6344c42691ae4ef6807e', 'taxes__2021__pine-manual.jpg': '94d59f618f6bb3860d39ba1b598d6abb79afacefa4a35300c46c1f2100a5222d', 'taxes__2021__sample.txt': '7b1f00aa3334b99b97eda809deaa682d3de6a0797cc17484d5095a272a922704'}, 'links': {}, 'dirs': ['.cache', 'music']}}
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
