#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/dawn/workspace': {'files': {'Camera/.sync-state.json': 'fc1cefebcd9a30ae7a37d8642346e65a7f9b9df10e5008b83c60d160af3919c2', 'Camera/minutes-b.bin': '3a77126acf772c52a7fc724d27902f2eea2be8d8233da693a03556d85d2c4237', 'Camera/minutes.txt': '64aafea1fd2cd88d6c26c151b4064d7dd47f4d0609e6a455d83a6e88590585c8', 'Camera/newspaper_receipt.jpg': 'bc92729b12d70da5e02eda34f4f560c70b7155cd39b8e81f3b7a6732f2814ee5', 'Camera/photo (8).png': '1a4f2e8e4757d1058a5cb82d19e59074eb246ba958b3ed31276a0c5952c113fa', 'Camera/snapshot short.mp3': 'df1c6e52cff4e8b12d1a674c8aa39c16d0bcca2b9fa6071d8aa2b16c21507199', 'backup/Copy of surface_quote (8).png': 'e4cb742ac12cc06697bf880513ed479548006d87d4570f095d2d6e6e8c1918c6', 'backup/dump paper.txt': '270a014a6576acaa7a9c0aa63e5bb6293f8f4bdcf5b26a94297d016e01816e5f', 'backup/falcon-panorama (7).mp3': '88bd34f3559875b62a6bb6bb7986ca8bf17f982398a0a24b16a2436739861788', 'backup/minutes-a.bin': '6e37f7cf2968ef454914e7e26708fc352a608fe245290f9fa06886c60af899e6', 'exports/export-reach (1).pdf': '16e9a2734391229353edeaf985f71d14fa0391dae3d48be1a3673af1ef44d7a0', 'exports/falcon-panorama.pdf': '7b4abd8cba5526a45b6d6b9dfea8f61273a788f33d6528236f00a82c462d0055', 'exports/minutes.txt': '6dc623cfbf178833824a7397ea9bdce34ea9fad75b96aeb9fdbfd01c50f5757b', 'exports/physical_catalog.png': 'e5ab5d3174f53eb37f9180dd2f75700523c2faa923e6e95a5974cc337bb35a92', 'exports/podcast police.mp3': '9e30d0d29b09a89d5146992995baa0bb3a54432a6e6c6dcfe8ccbe23e1803e40', 'exports/zephyr-feedback (2).png': '0ed48b7908d2e047759aa0ebd1c02547f8d04270fcfb6de695accdb78b6e9387', 'summary.pdf': '9fcfc1a84dce976cd0e6333262f85a16585cb314077a748f65ef0dfb4b359622', 'work/q3/itinerary.jpg': '1320bcebd1463a88ffd4121325602df6dc93861118cbb9ec89010f6562c90a3d'}, 'links': {'backup/snapshot short copy.mp3': '/app/dawn/workspace/Camera/snapshot short.mp3', 'exports/surface_quote (8) (1).png': '/app/dawn/workspace/backup/Copy of surface_quote (8).png', 'falcon-panorama (1).pdf': '/app/dawn/workspace/exports/falcon-panorama.pdf', 'snapshot short copy.mp3': '/app/dawn/workspace/Camera/snapshot short.mp3', 'work/q3/falcon-panorama copy.pdf': '/app/dawn/workspace/exports/falcon-panorama.pdf'}, 'dirs': None}}
TEXTS = {'/app/duplicates.tsv': 'backup/snapshot short copy.mp3\tCamera/snapshot short.mp3\nexports/surface_quote (8) (1).png\tbackup/Copy of surface_quote (8).png\nfalcon-panorama (1).pdf\texports/falcon-panorama.pdf\nsnapshot short copy.mp3\tCamera/snapshot short.mp3\nwork/q3/falcon-panorama copy.pdf\texports/falcon-panorama.pdf\n'}
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
