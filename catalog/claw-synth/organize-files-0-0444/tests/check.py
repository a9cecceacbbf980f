#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/kathleen/Desktop': {'files': {'.git/obj0': '00bcfdf3489f936f301f06878447958badf6bcf9d420e26fc5f8347ea3d55395', '.git/obj1': '8630291e78a9c6c11af48818f40eb792b1e8e4b2518f9aac6db006d6285bf949', 'photos+brochure-month.pdf': '4ae70b9088d5028ab46133a0b64f614a8d77cb565cb44e726b7d31f35816f7c0', 'photos+export-sport.docx': '901ffed0950437f67b55e2d6c6af9c569f0be5b53aaf05e3230a2030c625aa4a', 'photos/.keep': '2676e14c76e009aab7b9e100e158c53fc03207c4214f7164e08d7b96eb286418', 'taxes+2021+itinerary.txt': '0e1c83698ba2dfb850a16fc54e4621d7286b865795e2f7966b042f360485ef13', 'taxes+2021+snapshot short.csv': '7ed6e4703698bbb83af315417c9efa3168b4d9b3ffaac37b30c331996906f400', 'taxes+2022+tundra-invoice-v3.pdf': '89798848dd77bcb3e37f3af671b03a626cc896092f5a51cd2c47b11c8b4d76d2', 'taxes+archive-against.jpg': '7da380919aea8b5f1c9cb7f0c0fa74555308ca9c8fcf59529394e6e0475e2300', 'taxes+memo-land (9).txt': '851a7013829ecac5866360139bae8e9bd2e675e088c2fc41bb421f3ffba812a8', 'taxes+otter-quote.pdf': '5cf32baaa84eb0059f802401d24b2f8fbe1334a3ed34eaec552a3d699fd0ee3b', 'work+chair_resume.mp3': '95c663ec348d9e4670e887ed062350e7a6fa368910f9b2d9f74329991cf0397a', 'work+checklist.csv': '20ff986d77479e9a998a28b78a9944aa7abdfb5110831c3687774be39334b08d', 'work+itinerary.txt': '52ac0705c50a142701c9f10e28e4df17c2bb99fbfa96988901dbb95766ad2fdd', 'work+payroll moment.txt': '7bee03d4cc571dda3d127282fe5cc3562c06c66632ed8c4c3248e1d10938d522', 'work+reports+dump paper.md': '539a79218599d51205b92c28041e61943cb063562f38bfac82d73837bb302c2a', 'work+reports+q1+fjord-sketch-v5.txt': 'e3b232ab4be8bdadfdfe5bec029e303c46a8bb2ff0fb19e4c8bc35936e47053e', 'work+reports+q1+pine-mockup (8).md': 'e97f7410967944d2665a390c6a40f1874f26fc785f3cd8607a3c76bc5fbe3e43', 'work+reports+q1+survey-man.pdf': 'cf6ac4f244f9502962a2e19e0b4861cf3edbaf7bab943d88fcf5633a32040254', 'work+reports+selfie arrive.csv': '6e9b3d508d78cf3c6d504e7718741e3599593f69b45a66974b80b41aad9011d4', 'work+warranty-human.pdf': 'a322eabc087b3511525aec1fc3d6d1ec815f3e3171b25d01a53f6e0f8c510201'}, 'links': {}, 'dirs': ['.git', 'photos']}}
TEXTS = {'/app/moves.tsv': 'photos/brochure-month.pdf\tphotos+brochure-month.pdf\nphotos/export-sport.docx\tphotos+export-sport.docx\ntaxes/2021/itinerary.txt\ttaxes+2021+itinerary.txt\ntaxes/2021/snapshot short.csv\ttaxes+2021+snapshot short.csv\ntaxes/2022/tundra-invoice-v3.pdf\ttaxes+2022+tundra-invoice-v3.pdf\ntaxes/archive-against.jpg\ttaxes+archive-against.jpg\ntaxes/memo-land (9).txt\ttaxes+memo-land (9).txt\ntaxes/otter-quote.pdf\ttaxes+otter-quote.pdf\nwork/chair_resume.mp3\twork+chair_resume.mp3\nwork/checklist.csv\twork+checklist.csv\nwork/itinerary.txt\twork+itinerary.txt\nwork/payroll moment.txt\twork+payroll moment.txt\nwork/reports/dump paper.md\twork+reports+dump paper.md\nwork/reports/q1/fjord-sketch-v5.txt\twork+reports+q1+fjord-sketch-v5.txt\nwork/reports/q1/pine-mockup (8).md\twork+reports+q1+pine-mockup (8).md\nwork/reports/q1/survey-man.pdf\twork+reports+q1+survey-man.pdf\nwork/reports/selfie arrive.csv\twork+reports+selfie arrive.csv\nwork/warranty-human.pdf\twork+warranty-human.pdf\n'}
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
