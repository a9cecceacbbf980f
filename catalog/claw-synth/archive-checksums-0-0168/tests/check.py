#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/delivery': {'files': {'data/2024/agenda move.md': '880aa79f650efb21ae764e99e1fb7cefa37ce3b456740795dae3d98000836d82', 'data/2024/bison-order.sql': '347911a484d210558ebd60f7b2888a63ca5359bdef470a0102f299fc855dd449', 'data/2024/forecast-thing.sql': 'c171d4ac494d993461dacc2cf268d17b412d2a26f19941affbf48ae9315c1b7c', 'data/raw/MINUTES.md': 'aa500890b50418a7f235c7f4b255185b5431afb60205be35c23556c11cf1a64e', 'data/raw/memo copy.md': 'dad37c872dc7aaf57e4224a19ee080e9ab86ffaa8a4c7fed4cab7b5bafbecd31', 'data/raw/pine-mockup.gz': 'c9605a4dae74e40bad5eeee1bf57786a90101a618666924089e688899635c43c', 'data/raw/slides-card.json': '05eb30d62841a9fe03d36635fe93b9c2d3c67da9a00d71f422b0b4c6e4b159a7', 'data/raw/transcript buy.csv': '1bd77df7141f5eff53339e35425bd6e6103fa114d7228edc8d0aad46d09d3849', 'itinerary.txt': '5f16b9fdbf048aee9db0c260347fd347429e1a516557c26c668342a8d723ea8b', 'manifest.sha256': '20866baf444f4d17551b8cb598cdd9b1e99932e642f3578aa49f4dce7eaaf412', 'misc/HERON-PHOTO.mp3': '110ad2e79bccae768119fcbedcf0c847924f03e60439d6e45390817d4a934eb9', 'misc/warranty-human.xlsx': 'd55f85823d243520085c6c24b4adc46cbbad2b5af64377f657ff6e107bf2ef11', 'reports/q1/falcon-guide.log': '932fdb51c9e0e25d342f64e09660dc9ec24938917834ea4b9a491465def424a9', 'reports/q2/condor-tutorial.log': 'faba6603349cf1a1f06496df0599a9165a4ebb6bcdf4fc9ea71c07204ba8bc90', 'reports/q2/memo.mp3': 'b09d068a2ee4fb005e824e34a7fffc746778c23fedc25f32d3d323e57518a565', 'reports/q2/newspaper_receipt.pdf': 'c98d5e942d5675ae292a710b0c76a64c83dcd8e50593394cb59fd1bf04ae6359', 'reports/q2/notes light.png': '2cbb5d7047be5ab1b755ce7e06ee4b68ebaa7fcd4d231110bde75376c1e2ff80', 'reports/q2/pebble-portrait.json': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'reports/q2/proposal copy.sql': 'c9365d8c7f2631b4690c2c4722a48079deb74fba8e9ee3d30652c7074b65766b', 'ticket-tend.json': '2153d49e35d15eac12e2ce094d7d37f14f1dfdc73b631c26fb8c9a2830fa34c8'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/verify_report.json': {'ok': ['./data/2024/forecast-thing.sql', './data/raw/pine-mockup.gz', 'data/2024/agenda move.md', 'data/2024/bison-order.sql', 'data/raw/slides-card.json', 'data/raw/transcript buy.csv', 'misc/HERON-PHOTO.mp3', 'misc/warranty-human.xlsx', 'reports/q1/falcon-guide.log', 'reports/q2/memo.mp3', 'reports/q2/newspaper_receipt.pdf', 'reports/q2/pebble-portrait.json', 'ticket-tend.json'], 'mismatch': ['data/raw/MINUTES.md', 'itinerary.txt', 'reports/q2/condor-tutorial.log', 'reports/q2/notes light.png'], 'missing': ['data/2024/onto_itinerary.gz'], 'extra': ['data/raw/memo copy.md', 'reports/q2/proposal copy.sql']}}
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
