#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/delivery': {'files': {'audio/Boarding-Pass.xlsx': 'f4caa831f395307de775eb08f922b9b6e2646cd2ee27cd8494c93e17dfa48c31', 'audio/build_schedule new.csv': '3489cedaceb469c02a3f5e1bcfd067436c1985697a9da7bce3fbc424bf1317bb', 'audio/minutes-across.pdf': 'c0de0de1e89223ae88e1274e14c6f3c496be5815b71274a9cd6cf96a6ba0daff', 'audio/quote social.json': 'b1499c2ef2671fd0cfcaa57cbf60402e1c57c191245b5f16671c44b882f716bc', 'data/2024/Snapshot.png': '68c503ca1e7edb7f9a4944794471bdd15e6c31372af1a3e8e373249349b34877', 'data/2024/pricelist.log': '347ce42d3d9c98bf36163682ae386bfa58e7f0d1563a3700f14ea3c1a4de92d2', 'data/2024/quite_brochure.png': '6ba40dfcf9f78ce6b49ab1c16b2c3837fef97cb411b574bfbcae70cf0bedb9e0', 'docs/legal/pebble-portrait.png': '366566177f839bcf11416c9790172c3d96262e8ea344fcee0825608f3de4594a', 'heron-photo.txt': '042ea84c7c627f79a58250d238909983d7bf0d19f1d81e57ba7b79f632131fc7', 'manifest.json': 'd7bff15289a5daab66ca153b35b5aa65cd4d99f7b0b81ec6f942c2fead95b306', 'mesa-budget.pdf': '026ed000a8f921fffc1ada9fd3fe486e6ced8c8e547748dbe16c05f36e55f38a', 'mesa-budget.xlsx': '29d0777b4d493fe49fb1b8f2b3035174e8ea5e2d470b542abd752c2d5805890f', 'reports/q1/brochure-month.png': 'cf49f0298ca9bc737c55ba55dacc362bc20327ef772660dffc7a00fe081894ec', 'reports/q1/ticket-tend.md': 'ce70f5cc0825ea69d2bf72541af9e7c367fcafb8d25d4110b98782c456b71c9d', 'selfie-child.jpg': 'e6ed3c5c1b550e5963d6c9ac2ead37828b7547a3904f639edc7e09dff4095cde', 'src/Fjord-Sketch.pdf': '53a2629320e2b5eaa157ee321101575c9d107ab4076b2cabff95bf87b7f20904', 'src/Memo-Accept.xlsx': 'aa24664e5c4620d2719063e079ce9b09e44b90826ccc68de350694bbd8c931a7', 'src/fjord-sketch.mp3': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'src/pricelist.json': '45c6fae121b1426d0ca6be280f81d64dbe3d19e000a7ec1c2a7168d6a01359db'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/check-results.txt': 'FAILED ./audio/Boarding-Pass.xlsx\nFAILED ./reports/q1/ticket-tend.md\nMISSING ./src/condor-screenshot.mp3\nUNLISTED audio/build_schedule new.csv\nFAILED data/2024/Snapshot.png\nFAILED selfie-child.jpg\n'}
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
