#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/misc': {'files': {'.localized': 'c8415143083404b5d23c4d39378b6eeb2375e796e251e44bc5edcd1ea5435c89', '2019-01/IMG_20190128_160248.heic': '089341346be9009ca15e5feb13e2ea309c66ed6288fce477f4d9913cf637e644', '2019-09/IMG_20190908_055205.jpg': '098ddea610ed64233347d6d212db3f7711d6b30946f5caf3bac64383220e0df2', '2019-10/IMG_20191014_170245.txt': 'db8072a4c5db0e630342f4a39e3a50a39543fa4322c3ceb5ddfd0a98065cf841', '2020-02/2020_02_13_condor-quote.mov': 'e44ba6b27dd7302f455f27d39a85409b566454d23184f3f872be433db49fcd3f', '2020-04/scan 2020-04-13.csv': '2d607be6b31b506264ee3ff17744d4c012b5dda5fffef9dd47faf999cdc090fe', '2021-07/checklist-v2 2021-07-15.mov': 'bd2a4361c948840ebbca0f4837f6daee6f37d771b9ae4025af349364c196d22c', '2022-03/2022-03-01 estimate (1).heic': 'ddfca5adea3bd869881b91fdad12ad9cb2d47d334b96d86d829971672ffbf15e', '2022-04/receipt there-20220412.txt': '6c0a9fd050cc78a84cdd267272fe99a0dcad4c6d3ac1254cd6209f413a43a0a5', '2022-09/2022-09-01 however_diagram.mov': 'd005fc9f1ba62bc3b48f55135bf7a76577e0404c5436e99f5aadb0845ab75aa3', '2022-11/IMG_20221114_004132.heic': '258eab1a50e040e2eda7efd1008b91e7f7495471c941442398035c4cc711ca0b', '2023-03/guide 2023-03-02.mov': '7792d8fb0df43c63393920a857b94941680ef6d66e869105abf0a321ce1e4ee3', '2023-03/old pine-manual-v5.txt': '65f6e48b3b458704d4731824e1641880c8cccdab9018540722d6d7b8f3dfec5c', '2024-06/woman_feedback 2024-06-07.csv': '620f36849428f9dc8e91011dd8dde8aa0e59370987156cd167d338e50c68a143'}, 'links': {}, 'dirs': ['2019-01', '2019-09', '2019-10', '2020-02', '2020-04', '2021-07', '2022-03', '2022-04', '2022-09', '2022-11', '2023-03', '2024-06']}}
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
