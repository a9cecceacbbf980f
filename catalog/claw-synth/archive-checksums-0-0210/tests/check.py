#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/hidden-vale-handover': {'files': {'export-sport.json': 'bb5ae39ad6773227409680c0ee33cd576b29420eb9d54252677b8d56129c3647', 'finance/payroll/falcon-panorama v2.xlsx': '26f4e2c68c6e9f898de09c1b381040b5675bcb9c77d1949e6fd76a7fde181b73', 'finance/payroll/fjord-sketch tmp.sql': '9b3179c899d8bce43d545b5f94ef973863ee9838055324736e48d3417c9cf563', 'hidden-vale.manifest.json': '125f246e3c76d6bab3b9ddbeffc23017420b3178716b16fe952ad8e18abba271', 'images/effect_schedule.txt': 'fcbe25547c23bd5f13b44e3ee1bb71cfa3bd33e02b287f871b1ffc1e735631fe', 'images/expect_inventory.csv': '4df4e7c58269fe3313568ecbb9f300507ef731a9cdc4240860672edcde258223', 'images/falcon-panorama.json': '6f8022cddc98de9477d3e095707d754979540a689d8132c53e64ba6041dfb787', 'images/receipt there.pdf': '326fb002e65e5581ea2528b1949577336462eda1f68a4a62c6a2fea837e91404', 'images/statement-send.xlsx': '0d96496370727ddcffe4976737548ef30bcaeb0514940c2f6fe33cefab8f7473', 'misc/brochure-month.md': '6e0124187a9120c04941e9a6a50bbd387943b2e87abfa79b0a99a8fe24ad22ce', 'misc/catalog-same.png': 'e81bdc73a3d8f4ed9c930e7d2f2d97ccfcf045101822ef27c91c98058532c695', 'remain_template.txt': 'a9cd79e415552bee2df2d22c75bf7582881bb4a2b8777e8d63fd202bf6abf43f', 'woman_feedback.docx': '4c33f9421177e8c38d33ce058506b8aaeec9adb7a1d9af2eece32e9717caf6ff'}, 'links': {}, 'dirs': None}, '/app/mirror': {'files': {'export-sport.json': 'bb5ae39ad6773227409680c0ee33cd576b29420eb9d54252677b8d56129c3647', 'finance/payroll/fjord-sketch tmp.sql': '9b3179c899d8bce43d545b5f94ef973863ee9838055324736e48d3417c9cf563', 'images/effect_schedule.txt': 'fcbe25547c23bd5f13b44e3ee1bb71cfa3bd33e02b287f871b1ffc1e735631fe', 'images/receipt there.pdf': '326fb002e65e5581ea2528b1949577336462eda1f68a4a62c6a2fea837e91404', 'images/statement-send.xlsx': '0d96496370727ddcffe4976737548ef30bcaeb0514940c2f6fe33cefab8f7473', 'misc/catalog-same.png': 'e81bdc73a3d8f4ed9c930e7d2f2d97ccfcf045101822ef27c91c98058532c695', 'remain_template.txt': 'a9cd79e415552bee2df2d22c75bf7582881bb4a2b8777e8d63fd202bf6abf43f', 'woman_feedback.docx': '4c33f9421177e8c38d33ce058506b8aaeec9adb7a1d9af2eece32e9717caf6ff'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/restore-log.txt': 'FIXED images/effect_schedule.txt\nLOST images/expect_inventory.csv\nFIXED images/statement-send.xlsx\nFIXED remain_template.txt\n'}
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
