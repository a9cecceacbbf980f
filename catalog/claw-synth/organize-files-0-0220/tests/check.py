#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/beverly/old_laptop': {'files': {'2023/.thumbs.db': 'ad4ba4862535d4b796975323b93529fa22b05ed87f864a39b0990674bfe3fb49', '2023/Copy of avoid_survey.pdf': 'ef7e6ee3421cf163883c22c1b912c6234a30d1b5a8ef04b6eb40fe85e9157404', '2023/Copy of office_report-v3.pdf': 'baaa323c3a3158edac70d3aba70dc0c5295d0df7f41cbf27ff3785372d3404c3', '2023/Copy of office_report.txt': 'd7f2fc6a0955af6d989d792fc4f5950aae392745c4ddcc104ed236bdd70e24ef', '2023/and_warranty-v3.docx': 'c27905f393ca917ef40562535738eb7db23456e22b52ed99b6d3625e81126ff8', '2023/catalog-same (1).pdf': 'b2ae2ccc3cdaac359534e7eba9b8bd7e47e43e53257141b986fa099fc816fdc9', '2023/dump paper (6)-a.bin': '13cc80f1d53b0be4c2e8bbe61fd5a993844f9e1b4622ebeefb3001de92fb7268', '2023/dump paper (6).txt': '48a13025c2d7bc5d7ddcc11bcc988665ba3abc99b2d1489b3a244643d03614a8', '2023/effect_schedule.mp3': 'e0b30502400e08ceab45e40cd6f07e199823ebfe3d1ae2f5bf6ce18cbcd44b2e', '2023/guide-matter.txt': '47f4b07902f0aa57c89596ef3690bce8cd3658a80f6cb3a5f27c52a2975272c9', '2023/quite_brochure.pdf': 'c383f396a87b1cdaf0d242c5d1931258d4a93abedd9061a29f9a4c03632698ad', 'Camera/dump paper (6)-b.bin': '567cac0516ef3e584be89a4556c2294cebccae284d1a6032c5b5edb21a5c18a4', 'Camera/dump paper (6).txt': '0bfcb0c6874076331efd45ddaa6e609dbe6475538a5d9f8a1e08a3f0d61022e2', 'exports/notes light (4).pdf': 'c7c790e05748d976b9f5a2c54fd59150e8fdb6eff244eb8435f319043d860cb0', 'exports/selfie arrive.csv': '4f7e264ca34925c7c207e94845d88bd5088280e9dc9d8dc8ac5b3e7b68089df6', 'misc/tmp/mesa-budget.pdf': 'f2522114a69790d1cdd065478af17e13a62bcb4054247464f99f3c36c70a99ac', 'remain_template.csv': 'c654e19525603e242f95e0892845ab27e7b39989ba8c601fef02fbcd6658481a', 'sample whom.mp3': 'd9d4bf6e804a25f8d266f184856b54c6d6542823578336f2bd13eafa77599fd9'}, 'links': {}, 'dirs': None}, '/app/duplicates': {'files': {'2023/avoid_survey copy.pdf': 'ef7e6ee3421cf163883c22c1b912c6234a30d1b5a8ef04b6eb40fe85e9157404', 'Camera/Copy of office_report.txt': 'd7f2fc6a0955af6d989d792fc4f5950aae392745c4ddcc104ed236bdd70e24ef', 'Camera/office_report.txt': 'd7f2fc6a0955af6d989d792fc4f5950aae392745c4ddcc104ed236bdd70e24ef', 'Copy of office_report-v3.pdf': 'baaa323c3a3158edac70d3aba70dc0c5295d0df7f41cbf27ff3785372d3404c3', 'office_report-v3 copy.pdf': 'baaa323c3a3158edac70d3aba70dc0c5295d0df7f41cbf27ff3785372d3404c3'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/dupes.tsv': '2023/avoid_survey copy.pdf\t2023/Copy of avoid_survey.pdf\nCamera/Copy of office_report.txt\t2023/Copy of office_report.txt\nCamera/office_report.txt\t2023/Copy of office_report.txt\nCopy of office_report-v3.pdf\t2023/Copy of office_report-v3.pdf\noffice_report-v3 copy.pdf\t2023/Copy of office_report-v3.pdf\n'}
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
