#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/steady-anchor-release': {'files': {'audio/Myself_Dump.pdf': 'acdf6a72c80cfa05d1e28d35b0b9abb48e73211d90bf935e45337b4be06baacd', 'audio/snapshot short.json': '67089f343b38e9e9a3c812543be21825e938234851a651a197f8932f976ce96d', 'checksums.json': '2518e58f5e3537809961ef4337661f17ec4154435cff40db85ac45038f6e1275', 'contracts/2023/guide-matter.docx': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'contracts/2023/handbook-moment.gz': '50dbbc08a9ee9415aab38f56e47089d1c6e0b85697bd651e15428dd59bae57eb', 'contracts/2023/memo-accept.log': '5b7db81002688b939b06869d87348863a90e7eb21d129afa4a80840bd9e7b3fd', 'contracts/2023/tutorial road.sql': 'edeef2908a68001afec7a8f876fbfc8b7e06c2fb74f142cc5e4c70a2560f8bce', 'data/raw/Agenda Move.sql': '984c3fd0e3b9b5c4cb46213825f68400ca89cef3152eac61f32be3e51de826d6', 'data/raw/dump tmp.jpg': '25a9000c79637994301b9a8494433858d556e263935519325e6e7bd5914dddcb', 'data/raw/interview probably.docx': '24a2170eb78c6676827ee39f9c4b338d56355a7f502f0f508b670b10dd474721', 'docs/Interview Probably.md': '622cea78d833d7036368eac2b1342283c39c0957c961e234d077ff297127146e', 'docs/falcon-panorama.md': '26b9929baf06a8b96d4e2654133f8cf569ad5b304b7114c9e17de0aa99257e40', 'docs/falcon-snapshot tmp.pdf': 'dcfba431ef37477a1e35592956b850cacf2f093b1d3083807f976aa37766adf8', 'docs/woman_feedback.log': '0efde608c7513aa2832dad6327f45bca9ae2552dc76abd8e341b6c797e07cc0c', 'images/press kit/Portrait.docx': '2cad2f75063c4f39e9b1bc7c00ffdb887d93309b85ab7516312bde96b2b97c4e', 'images/press kit/build_schedule.gz': '4d9d87c562dae144ce3aaabf548b5e21defb715547b38680b0858874fab0e7ed', 'images/press kit/generation_warranty.mp3': '4431a0676f5ca8f144e4672a3069f298d3e73b3265b87df3dbf310ce6095aa5b', 'images/press kit/interesting_inventory.txt': '8f68178a9dcb5d69c5bd330b93a5c32d6d6f01cac16bae5d6486a4bfbada71c1', 'images/press kit/manifest-dinner tmp.gz': 'd61aa0172c55fdf430447f7317f9b69864eaf78a027d2a1dc006104a795f0ee3', 'pebble-snapshot.json': '1c62aeaa7c5fc01a0a2dea614ba32f3842aa666ce02fce1b38286056a1912c24'}, 'links': {}, 'dirs': None}, '/app/backup/steady-anchor': {'files': {'audio/Myself_Dump.pdf': 'acdf6a72c80cfa05d1e28d35b0b9abb48e73211d90bf935e45337b4be06baacd', 'contracts/2023/guide-matter.docx': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'contracts/2023/memo-accept.log': '5b7db81002688b939b06869d87348863a90e7eb21d129afa4a80840bd9e7b3fd', 'contracts/2023/tutorial road.sql': 'edeef2908a68001afec7a8f876fbfc8b7e06c2fb74f142cc5e4c70a2560f8bce', 'data/raw/interview probably.docx': '24a2170eb78c6676827ee39f9c4b338d56355a7f502f0f508b670b10dd474721', 'images/press kit/Portrait.docx': '2cad2f75063c4f39e9b1bc7c00ffdb887d93309b85ab7516312bde96b2b97c4e', 'images/press kit/build_schedule.gz': '1a88f66a7acd17c7b736fe039cd436b05f246582260474e3676dadb95d748668', 'images/press kit/generation_warranty.mp3': 'f71d7cb5edb36852e89ddb69644f1a661527e8112f371e521e913349f95ea575', 'images/press kit/manifest-dinner tmp.gz': 'd61aa0172c55fdf430447f7317f9b69864eaf78a027d2a1dc006104a795f0ee3', 'pebble-snapshot.json': '1c62aeaa7c5fc01a0a2dea614ba32f3842aa666ce02fce1b38286056a1912c24'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/restore-log.txt': 'UNRECOVERABLE ./data/raw/Agenda Move.sql\nUNRECOVERABLE ./data/raw/survey-man.mp3\nRESTORED ./images/press kit/Portrait.docx\nUNRECOVERABLE audio/Ledger Create.png\nUNRECOVERABLE images/press kit/build_schedule.gz\nUNRECOVERABLE images/press kit/generation_warranty.mp3\n'}
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
