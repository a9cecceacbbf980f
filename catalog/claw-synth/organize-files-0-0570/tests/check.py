#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/mail_attachments': {'files': {'.trash/obj0': 'db68cfc3e660cb37fad720feb3bdea5b3267bc7172fd4593da292a97f1d4abba', '.trash/obj1': '76eb1db91f786d37e869e9205a1a06abdab02b0dbf78341fea07fac80489f3af', 'expect_inventory.md': 'ca269cabbe42d2b58102f2094fcad188f2757370a0894d435b4257d329f3e13f', 'guide-matter (6).mp3': '0346552fdfcc2001e1aad0d2876eba020e07c4ca1412662819e35dc4bee85a16', 'guide-matter.txt': 'afb0e3b89a94d5a1277ef8eee3124cb56c958b881a7440007a4c452043dbe0bb', 'misc/.keep': '8828cb736f241259c5c010fe65a99646e288eea6f529ae5adc4a492a9c20bb98', 'misc_agenda move-v4.md': 'cd0d97cfaf1c024ee63dcec87f30aac05d26e09fb1fed8f63adba6f44e34f9de', 'misc_significant_scan.jpg': '48cad3077de833a347c280de978565c4a584189c8305b4448034900c5aeca460', 'misc_slides-music.txt': '9778deee91d222f0991ea4c8019312ac0dbfb3d64f0b5f92164116a942262480', 'misc_tundra-invoice.pdf': 'bc4e8c9fc2ea451039fa115e562e6f4a13883b95dded96e475e39eb7bc77d900', 'music_interesting_inventory.mp3': 'e6d3bc8b970aa17b4ec3a2fcfecf7c7c036e307d0ae8c6050e11fadadc79a593', 'notes_anchor-interview.txt': '96637b8ce9b6396c6c5b79056c2d1761370663f1febfea52cc12ebe885634a0b', 'notes_assume_interview.csv': '93242246eaf8d893c2e02c5604bbd3db5a3ac9e367fda8149a7ca771d87eed6f', 'notes_tutorial-apply.docx': '12a264d5be409f0b462bdc1466d620ba05946efab5b98a0ec4e5a671271487d6', 'taxes_2022_anchor-interview.txt': '3b947cf78aefe5e817dba981a832f405be4a2f7657c04a6715a6bca27c8c0bc1', 'taxes_2022_book_agenda (4).md': '5575deeafb38418c0a62a20aa4cc438bfce4b057a67a31910701a2fe7defccce', 'taxes_2022_book_agenda.csv': '033eccfae40013612183691fa13999e0430b86d9d327c22b36129c6b309f7895', 'taxes_2022_build_schedule.jpg': '24460cbd0e40c4123fe5205b82f7b9b6c07d1242aba2e7ad3932c0e25bacc7ed', 'taxes_2022_sketch-v3.mp3': '5a7ded34c67304b955fc62370606565b4e1540df0072de0d071829022d75ee65', 'taxes_otter-quote.mp3': '12dbffdbbe8f3356c35cf1c8fe9b3d9ddbaa28b6b60a0e0a50ec694e4269ca57', 'taxes_quite_brochure.pdf': '27380f1aeac6c7fc6e994e34f034f01c17d26ab873df980f4b2460bebc8378ff', 'taxes_raven-boarding-pass (5).mp3': '0ea230da84bf4ebf37759bd256b509bf4eb981b290580f222cde112e48d7c98a', 'taxes_selfie arrive.txt': 'b6fbf971d9850516dd76e3e199ef4e6c3554b8bcee5e8e7bdbb1d23b30d7ff03', 'work_checklist unit.csv': '7e4f2c4b5cdc7ca6f2f78c1c121e54dcd905f7753bb0699660c04288679f73e0', 'work_reports_avoid_survey.txt': '42be23210dcf682209bebf9b5ea6809b74ef658b337156ae233db0f5d6ab29e3', 'work_reports_heron-photo.jpg': 'aa694299a14e7685de18fc09c2272e11b76c69e7680d7d3010c832172b988dc4', 'work_reports_q1_manifest-dinner.mp3': '5bc007771f96113b6b38f4050e8daf5c9e17221dfb30f0b5154fa758ae3e235c', 'work_reports_q1_mesa-budget.mp3': 'c91c56231b7c4a823f334b125986d2e9785e055dacf9fbfe8893e8c3a512c5b3', 'work_reports_tutorial road.pdf': 'bb9d0fd7e933794f590e7c9065357a073ceb4ef5b026c5d166cea9883ac9dca0'}, 'links': {}, 'dirs': ['.trash', 'misc']}}
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
