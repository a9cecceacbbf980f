#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/jade-yak-archive': {'files': {'archive management copy.csv': 'd51168f011d710fbc428456f21f11344b541be3d34d3e60401c9ece83670efdb', 'contracts/2023/estimate analysis.sql': '0926fcc9a79ca2b4aff1ae752481724e586db548d447e22990e8058e4af15ee7', 'contracts/2023/tundra-invoice.mp3': '4db3a690ffd8cff6a7922e33d8d8ca8c41f0657bbc673482c804ce292f4d2127', 'data/brochure-month.md': 'b780a3d51d1ae112948e7537e2ba71168aa9d17c0b9dc8e3a05701a91a45a131', 'data/harbor-sketch.docx': '6ddd2694e1f7ed8571fa7a623f53505ff37a0ffb9c53df47aa52fba491d0e94b', 'data/notes light.sql': '2c9457a328f69740f6011ef8da141a140f6a52958f5552bfe0f52d13c6399ae7', 'docs/feedback film.sql': '6cc2136a92a85b32a8751cf924e2542be2d1acf26d1a04485fa06016f079a335', 'docs/legal/minutes.log': 'f17a784687de758bb9146e620b9b16d41ac8a52208346e65836c4b01e74e5969', 'docs/legal/otter-quote.json': '8d9bb2d8f8eccaf784f7ca60f3f6c2cb5ced046d1dc8704e1894a9b75046ee5b', 'docs/legal/receipt there.csv': '0bcef02e3b38926fbd5e89886e252a59840be430b32d80c08b80ba1c7e5acf03', 'docs/pebble-snapshot.xlsx': 'ad64824bb5a14d4b8f82aec0b4b5b67bce1e9e32fc73acce9a9686e9b7143726', 'docs/selfie-child copy.gz': 'f4cd58abdb1ca6ea19336c92de45520bb98b8dc3614f4c73e1723a444670f376', 'docs/warranty-human.sql': '0e9fead20f26bed5f8bd4f700af6a8072447fa60360abb7a18d5cb3340529a07', 'estimate analysis.json': 'b84637bec0d78c34f43fa689f71afe70501e7226cc3545c11d0d90c0e200765b', 'manifest.sha256': '0f01f61d776beb56f713a65df51bb3461065d39136226cd3d04ba47fc45ef384', 'reports/q2/Export-Sport.jpg': 'd44ef4d1e9fb68c0a96632b707fbe44ad9c997c62ae1a5f5eaa1dee34561e035', 'reports/q2/demo.log': '1ec90a8cda1219aeb8dee36168f78760c5d0a361a55936c44410ab626896a166', 'reports/q2/effect_schedule.sql': 'dbfaf305aa6958a9d57c7fec6e01d7b6cba9688078512a86947ddbea76519d2e', 'sketch new.png': '93e0e61542efc36e69876b3ae03f0604c5c1e92637c81e571f7db25378c99473', 'timeline-air.docx': '4642edc599ea13c794c39b4563213548c798fae9bdcaccf4c259d42d1ac2955d', 'warranty-people.csv': '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/check-results.csv': 'path,status\n./docs/pebble-snapshot.xlsx,OK\n./estimate analysis.json,OK\narchive management copy.csv,UNLISTED\ncontracts/2023/estimate analysis.sql,MISMATCH\ncontracts/2023/tundra-invoice.mp3,OK\ncontracts/2023/tutorial-apply.docx,ABSENT\ndata/brochure-month.md,OK\ndata/harbor-sketch.docx,OK\ndata/notes light.sql,OK\ndocs/feedback film.sql,OK\ndocs/legal/minutes.log,MISMATCH\ndocs/legal/otter-quote.json,OK\ndocs/legal/receipt there.csv,OK\ndocs/selfie-child copy.gz,UNLISTED\ndocs/warranty-human.sql,OK\nreports/q2/Export-Sport.jpg,MISMATCH\nreports/q2/demo.log,OK\nreports/q2/effect_schedule.sql,OK\nsketch new.png,UNLISTED\ntimeline-air.docx,OK\nwarranty-people.csv,MISMATCH\n'}
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
