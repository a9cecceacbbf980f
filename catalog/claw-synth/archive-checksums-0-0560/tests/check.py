#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/vault': {'files': {'PAYROLL-THAN.mp3': '145ba88525c7d58c5da40d7981a49623f6fe81c65100bdf3479c26fd94bbe51f', 'audio/and_warranty.sql': '192de0aeba3101a56ac615f637a8ba2353b5a965e6e318cebdbbc55eaf255aef', 'audio/evidence_sample v2.gz': 'bbca8dff69a9d57d7e9ce3fe74e23ca61e89c4842fb2f4a0ab27a205d3a1eefb', 'checksums.json': 'b83508e0587d2ebe195d0044ce8be4b145adbed27cc727dcca736b4b9344fb4b', 'data/2024/RECEIPT-LONG.xlsx': '36bd8dbe1029ad9d24c2d6cfb8f58697077a7096dbfe32e5283267b92faa2339', 'data/2024/assume_interview.gz': '93888c5b2f223149e1970e0ade86e679f064f997b8547ec1db8f7870ef3e3ab6', 'data/2024/feedback way.csv': 'e3eb90157fcb1e9360deb26658627a7ced5abaf7c96533ee5e524ce9b2bb36e4', 'data/2024/pine-manual.csv': 'e12da0dce33c8a0dab5ec30e39bdc8b2c5a625c1aefe58b8d96f337522478a6b', 'data/Woman_Feedback.md': '30aca7a2ece8aec6858c94314c9838e4286e22e7b8c381c59d73aaf881123804', 'data/podcast police.csv': 'a9427f1af9f525b4ce33a3b1ac2014de64fde9bd36c25a50d7ca503e974279e8', 'data/survey without.xlsx': '62af55ff947ceb9dc12134fe1bed60f0ab458a05b41445218fdb8496da76f8a2', 'design_feedback.sql': '4bf3a151797d509af0806dd7d074c924a17027096a4448e535e5451da29bbef4', 'docs/estimate.sql': '06914d1ba0cb98d42759a67ecbea7c9e4fcbb381ee02c4bfa840330ad03fdb4d', 'images/Pine-Manual.jpg': '2ebcc8eba29becebc81dd20a5b5f65622a89dceeb2b30be7980774ff8074dc40', 'images/SCREENSHOT-MANAGE.jpg': '5d4b0516abdeda7ccc413e5a216e81c5acbe307dcbdd3dc3d54f36235996ba9e', 'images/diagram example.jpg': '006853750b3a82f7244572b7becc8e51f9ca8340a4782901dc9d158d87d8b1b2', 'images/forecast.png': '666cb5b18cc1f35594bc531c8cde31701818e1ae3c61411b83ac3b554bce6d67', 'images/timesheet-may.jpg': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/check-results.csv': 'path,status\n./data/survey without.xlsx,OK\n./design_feedback.sql,OK\n./docs/estimate.sql,OK\nPAYROLL-THAN.mp3,OK\naudio/and_warranty.sql,FAILED\naudio/evidence_sample v2.gz,UNTRACKED\ndata/2024/RECEIPT-LONG.xlsx,FAILED\ndata/2024/Transcript Buy.log,ABSENT\ndata/2024/assume_interview.gz,OK\ndata/2024/feedback way.csv,OK\ndata/2024/pine-manual.csv,OK\ndata/Woman_Feedback.md,OK\ndata/podcast police.csv,FAILED\ndocs/KESTREL-GUIDE.png,ABSENT\nimages/Pine-Manual.jpg,OK\nimages/SCREENSHOT-MANAGE.jpg,FAILED\nimages/diagram example.jpg,OK\nimages/forecast.png,OK\nimages/timesheet-may.jpg,OK\n'}
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
