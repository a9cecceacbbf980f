#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/mr./old_laptop': {'files': {'.hidden-notes.txt': '34cc727dc67f7f32ea330cff2ce51ad60db835d27bb88da0ec408d99d92d305b', '.localized': '42ecb0c7db45ee3d182d1026bab3a36ff6c4111f8a29041d79e5d36f3cf2fc47', 'do-not-touch/inventory.txt': '08489f90fb2ca1a66c48fe56fe6c7b6272e9d62c2450a2fbad6e4ff16b407bad', 'large/Estimate Analysis.dat': 'c8a7f22b529e5664a40e01c1e2a8feef36861495ff005b6378fdf733a816041d', 'large/book_agenda.json': '5e7f3953057f77a0c50e3766c1a553f246448a57d2ca975e466e01e42fb78784', 'large/demo.jpg': '7f432aa8f039150fe5ef7ef71ee37aa9ca10049e9040f655e5daf242fa09861b', 'large/design_feedback (2).json': 'bf04946c6fc7e6675fe5ae9d72401150cc956918cf5b18d5bd9970f48d7115d3', 'large/design_feedback.json': 'a060fb275c298ca8fe543cabd33136b586cbfee93334b5de929194e8791b1c6c', 'large/slides-music.bin': '227169ba7a90ceae454cae546e6449158fc0276a83c5b4efe16cb6a9bee3e5c9', 'large/survey_without.pdf': 'ad570c421b7f046a45ff358064b3b07fe4badc72d4a9ef8451971b9cd1c041fa', 'large/vale-portrait-v3.zip': '2e5ad288bf9301685c217c36c8f7f5288bb0184e5ecde79b23ba28e94167187f', 'medium/Snapshot.txt': '6fe2df0c4495eb6ca5bdb81f2ef038188c3367aa11fa31e812c013b0975413aa', 'medium/book_agenda-v4.txt': 'de85feb832891c9842d2ff6dab59634ee2bcc5ebb6921aa36e28b1fee088a1a5', 'medium/lantern-panorama.zip': '0faf17d1538abab97fd2419bb1a90cdde0db5f21010c14401e6fc8bf3831782f', 'medium/memo-land.txt': 'fa1b109ebe2c658527e94b27b06d4776ac7ddda7865feffbe1cd5e534414e47b', 'medium/onto_itinerary.json': '29078751d958a62c50430b86fde2bfd0581973ed9f185de7c57ca794ae4a5c96', 'medium/zephyr-feedback-v2.jpg': '212a907c6eb903a62661215068d4bc7b6d31c90d2c881d15fa63c3e8fa2c61c2', 'small/comet-export (4).zip': 'ab80db4da17937855dbde1124a5bfbb27b5399172e657282aeb05e2ff2619d4a', 'small/screenshot-manage (8).log': '3473824aeec75288c967e517164ae69c1ef2743f7897be57dce1d7fc7046dc0c'}, 'links': {}, 'dirs': ['do-not-touch', 'large', 'medium', 'small']}}
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
