#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/fast-tundra-dataset': {'files': {'audio/Payroll-Than.txt': 'aff5c77a06c6866f357e11cf7a5914de99efb6d51e05549adf05358fb64ae8f2', 'audio/survey-man.md': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'checksums.sha256': '58a270cb91b1184c738d1d4848d17724d289a0dd46af6598c31ff874a01f0b89', 'contracts/2023/LEDGER CREATE.mp3': '76b99a0d527c7bb307707cccd938363500b09423a5a9cf1084dc9a49367de08c', 'contracts/2023/Podcast Police.xlsx': 'b011994c91121ec319fd613a6841bcdb0aeafab86eb55a2449fe7162b12834ce', 'contracts/2023/expect_inventory.docx': 'ca401421790edba6ad0f127def715a53a50f3ae9201fed09d888c46610af1d21', 'contracts/2023/warranty.md': 'b9928919c103517c9455517931453bb354b3cbcbb05782590f850f31292fdef7', 'data/2024/catalog-same.mp3': '2775c4135ee2e689307843fff2ff89ccedc273339d1d2b614546ea38b0d92dfa', 'data/2024/manifest-entire.mp3': '86f1b0e6869a7ab99afd11abdfab00f9fd3d84f4534c6a884a442d19ba0090c3', 'data/2024/tutorial-apply.gz': 'd36eeee3be9711db6d95ef6e2c19189df4961deabe645839ca1974312338944a', 'data/2024/vale-portrait tmp.txt': '652aef1d7a4881687437189a6703c9a3e5be763cf7b13e63dd5d2fafe51b1ed5', 'export-reach copy.docx': '302fc965b4a606708fa28f3c0fdc9f09f79250e108d0204aaf9d84ea96d3547e', 'images/press kit/export-reach.png': 'd9d9e6b04c90e7fc392f4e286e545bad71ac9b6a8b43fb02dddbd8bf35afd11d', 'images/press kit/pine-manual.sql': '8f5353a39d9878ecc5724d3e9e02e9ce867565922a552b95b3d5b8e4a5847917', 'src/estimate threat.sql': 'ebdde745e84776a042edf46f2f209c7724f81dfb2d55094d81384d26d1a863cd', 'src/forecast-how.mp3': '72d657770585faa981da767191de4189abf0d372158974e85c394efc4e3bde04', 'src/selfie arrive.jpg': 'bd599df3ffb8ef24b9c6e883aa8f7a5c8344318fe92328545a7031e582c63035', 'timeline-air.docx': '88819121cc4c76198fa23580aa7458eae932f5283815cfb55d877be6da5a259b', 'transcript hope.md': '14ec6454c5ed8be84b4e653cbd0b55b7b73e4ce6e14d2643ff60474136956469', 'zephyr-feedback.md': 'ec18688a5c1eaad9c981faf26fd5dd726b36fafb3d70c7c1f1d6691fca243a0b'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/audit.json': {'ok': ['./audio/Payroll-Than.txt', './audio/survey-man.md', 'contracts/2023/LEDGER CREATE.mp3', 'contracts/2023/Podcast Police.xlsx', 'contracts/2023/warranty.md', 'data/2024/catalog-same.mp3', 'data/2024/manifest-entire.mp3', 'data/2024/tutorial-apply.gz', 'images/press kit/export-reach.png', 'images/press kit/pine-manual.sql', 'src/estimate threat.sql', 'src/forecast-how.mp3', 'transcript hope.md', 'zephyr-feedback.md'], 'failed': ['./timeline-air.docx', 'contracts/2023/expect_inventory.docx', 'src/selfie arrive.jpg'], 'missing': ['audio/memo-land.png'], 'extra': ['data/2024/vale-portrait tmp.txt', 'export-reach copy.docx']}}
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
