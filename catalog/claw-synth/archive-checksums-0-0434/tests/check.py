#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/dusty-pebble-export': {'files': {'badger-itinerary.txt': '8631e3172814f575422cdc79c313af2130bd56942bebb505fd1f48dd479ca8f2', 'data/raw/assume_interview.png': '12bdd0f87fb43479f4165a8a7ed02af8827f8665ce9416b45ce98e3d4e1a1b87', 'images/press kit/agenda move.log': 'b29f6df69c987817ec7525ad216afbdf1eaacfef5631cbde6aed65020c6f9030', 'images/press kit/condor-quote.docx': '8e1533a71d4d537720b5d4d0be2026913a949575e1f85411ac3b8491b2ccba2d', 'images/press kit/demo.png': '728dccbdf520bad9bd60611fca13447a2e1b1c6884a26cf1b6b759bc5e564056', 'images/press kit/falcon-snapshot.jpg': '3897f3f8f9923824831655b6849419e590ed1d4a6dd273adacaa107620753dfe', 'images/press kit/ledger six.csv': '01219b0279bb58e016f9e006958b31e9050e42e7f42f3499c8cd459427248cd4', 'onto_itinerary.gz': 'cd1c7b621453fc580a306ea148015b4c24d6f99cb0fa6b63788c5393d2230302', 'reports/q1/catalog-same tmp.txt': '560dbaab99e2ad62092c6e855aab83b5ba118a079953a872a2476d451c6bf061', 'reports/q1/falcon-sample.sql': '1c5085582e4d1c258f30f250024fa5acd4fcfe431bc9e7353c8d3709a7d3826f'}, 'links': {}, 'dirs': None, 'skip': ['SHA256SUMS.txt']}}
TEXTS = {'/app/dusty-pebble-export/SHA256SUMS.txt': '8631e3172814f575422cdc79c313af2130bd56942bebb505fd1f48dd479ca8f2  badger-itinerary.txt\n12bdd0f87fb43479f4165a8a7ed02af8827f8665ce9416b45ce98e3d4e1a1b87  data/raw/assume_interview.png\nb29f6df69c987817ec7525ad216afbdf1eaacfef5631cbde6aed65020c6f9030  images/press kit/agenda move.log\n8e1533a71d4d537720b5d4d0be2026913a949575e1f85411ac3b8491b2ccba2d  images/press kit/condor-quote.docx\n728dccbdf520bad9bd60611fca13447a2e1b1c6884a26cf1b6b759bc5e564056  images/press kit/demo.png\n3897f3f8f9923824831655b6849419e590ed1d4a6dd273adacaa107620753dfe  images/press kit/falcon-snapshot.jpg\n01219b0279bb58e016f9e006958b31e9050e42e7f42f3499c8cd459427248cd4  images/press kit/ledger six.csv\ncd1c7b621453fc580a306ea148015b4c24d6f99cb0fa6b63788c5393d2230302  onto_itinerary.gz\n560dbaab99e2ad62092c6e855aab83b5ba118a079953a872a2476d451c6bf061  reports/q1/catalog-same tmp.txt\n1c5085582e4d1c258f30f250024fa5acd4fcfe431bc9e7353c8d3709a7d3826f  reports/q1/falcon-sample.sql\n', '/app/rebuild.txt': 'CHANGED images/press kit/agenda move.log\nREMOVED lynx-template.md\nADDED reports/q1/catalog-same tmp.txt\nCHANGED reports/q1/falcon-sample.sql\n'}
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
