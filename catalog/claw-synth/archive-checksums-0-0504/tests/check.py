#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/archives/hidden-yak': {'files': {'contracts/2023/book_agenda.xlsx': '5bde28d8bd8cd0d70e349eb90a51480605f4578dfa6f80d532559aeb8f761121', 'contracts/2023/guide.gz': 'cd04423e003ba9d03f1d30cc19a70093a47a5f3263fade2426829448550fd191', 'contracts/2023/ledger create.log': 'd74a6ba281c9cb12e915a9356cd3a071e0eab6384dbc991900b2ebe87de73054', 'contracts/2023/panorama voice.mp3': '0f0a650c75d5f41b14b6d230ddc4f1037db88e1b00781e8134196c21e20012f9', 'contracts/2023/quote social.log': '463f6af84e238e8c952e0c10e5bda4a2714f0ae430be3dec1a5df2c067883402', 'images/press kit/interesting_inventory.txt': '87ba7a2d69479d7d00345afadb6bc51e495f44e89eccb3144b9be076a2b2f165', 'images/press kit/kestrel-guide tmp.csv': '6eb3f42b4c1d5e3c825ba4fad2053657331918682021e9d5dc920529c4ab286d', 'physical_catalog.pdf': '5b73cbe675ce6ab1a658c4820be7f030758a8a0bd4ccf049c54b546f709f5eee', 'reports/q2/forecast-how.png': '2eeb250b6c45aa41e166b31bd5049e7f17fd9cf1c041e15cd3e252fecf96720c', 'schedule-four.sql': 'f3d7b664c6bc74ee0d92107727bd070cd1338f2786cd9b101bfdaf499700891e'}, 'links': {}, 'dirs': None, 'skip': ['md5sums.txt']}}
TEXTS = {'/app/archives/hidden-yak/md5sums.txt': 'MD5 (contracts/2023/book_agenda.xlsx) = c42a453162bf9a2044379a02b2c0a76f\nMD5 (contracts/2023/guide.gz) = d5388d2d58aa9ae8c51a73bf157e2867\nMD5 (contracts/2023/ledger create.log) = 1534bb63846cd333e5781411fb8a47e2\nMD5 (contracts/2023/panorama voice.mp3) = 55d8755e4674264be2b6d6554f9f24ca\nMD5 (contracts/2023/quote social.log) = d20292edd7f48ea230337dcb12b9386a\nMD5 (images/press kit/interesting_inventory.txt) = 057a730b1b572c85bc7443a1e0531203\nMD5 (images/press kit/kestrel-guide tmp.csv) = 041dd23cf860e9ea27b7dfc2ee73ca6c\nMD5 (physical_catalog.pdf) = 382fc193aea6c8c348d33121c64eee17\nMD5 (reports/q2/forecast-how.png) = fe4ab48ffafc77eb4366601d40b3abcf\nMD5 (schedule-four.sql) = 612d9575b7e49061127d114632880724\n', '/app/manifest-changes.txt': 'CHANGED contracts/2023/book_agenda.xlsx\nCHANGED contracts/2023/ledger create.log\nREMOVED contracts/2023/pebble-portrait.json\nADDED images/press kit/kestrel-guide tmp.csv\n'}
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
