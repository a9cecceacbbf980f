#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/golden-bison-export': {'files': {'audio/bison-template.jpg': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'audio/feedback way new.gz': '9f49f9fc4b1d3a1e99dcf7eeadc276a52377f075eb43212db066ad9c4d47d54c', 'audio/memo-accept.json': '392d1fb104720a52404547602aa8f5cff66a6ba9901949daf07be1793297bf65', 'data/raw/screenshot-manage.json': 'e4fd67c53e9e4ec03ddb6d48bbad22248b574251287db2ec8122681d127fb9fd', 'data/raw/ticket-tend.png': 'b4d818363656104a521a8366dad6a3061d7ead5333f639b67f3ffcb96479d2b6', 'images/book_agenda.pdf': 'df519bd84ed55745dcf5917d3062ee62892673855655b3c10a7f418a3c4b9dac', 'images/interesting_inventory.jpg': '1076cbedf3fff195bf45c10316d18bb93cde82a97f9232f14fd38a0da8b24a64', 'images/inventory.docx': '6e72005c952a26f9322346857761c666bc83b0fb4067d81b45e86e3c3f3d77d4', 'manifest.sha256': '1db2721602fa4d915251f4d7f6ff3f231de11b8d0c4209742b370ce30cedd04e', 'misc/TRANSCRIPT HOPE.sql': 'da9f7cbb06b6abdffcf41c1c610b748d5c519d5dc7bef3aa54ad4c1f69784ffd', 'misc/letter method.log': 'c2f9368f2f69108805ff1b0b58ebd0226d39d55893ce9be01310fbcf4a1ae872', 'portrait-heavy.md': '432ac060f6b0d83a3a0bd89531f42ba4a2bf53ca5776eb30db9a0a24eaa3d6d2', 'reports/q1/and_warranty.gz': 'd2540561d060a8c77d38a9b5639bc31f1142f0d7643382ac128020b1d5ba6688', 'reports/q1/delta-selfie.log': 'a407fa15168c6306836e0a83de56dd0b972f9a78f49fc4e0a7955bed9ce554b0'}, 'links': {}, 'dirs': None}, '/app/golden-bison-quarantine': {'files': {'audio/heron-photo.mp3': 'efbb45849cdfc24f9aaadadb7d3e9b90599440af17fbf2a2dc6e726448b54238', 'audio/quartz-flyer.gz': 'd8badf03f4f51cb591ed15aa532e0fb90fa7b4adb1fe68969096459dcaaf361c', 'audio/tundra-invoice.gz': 'ca2b70afc807e9d731c9d0e8e38eb6a6ad241ac7941134bf1cc57de30398794d', 'images/tundra-invoice.md': 'd21cdc843f6edffa9578a1d1bae0acf2047b139a108e999438127164ea0970c9'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/bad_files.txt': 'CORRUPT ./audio/heron-photo.mp3\nCORRUPT audio/quartz-flyer.gz\nCORRUPT audio/tundra-invoice.gz\nMISSING forecast.jpg\nCORRUPT images/tundra-invoice.md\nMISSING misc/Feedback Film.csv\n'}
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
