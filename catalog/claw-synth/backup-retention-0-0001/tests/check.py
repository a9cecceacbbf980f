#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/home/mr./backups': {'files': {'PHOTOS_20250731.zip': '407c0da1a6ba5338b3df0b5a8ae565fb7f4da981e0fa0cbc6df8ceb2a87db447', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'manual/photos_20250627.zip': '04912d4d5c76dc389f6f72dd662754b54dce32e4dc5bf84817f766a6f5b70ae6', 'photos-old_20250803.zip': 'e0cc1226fa5ddc65ad8faab8907f8f19c6882ac40b34cfb3daf20e496b3746fa', 'photos_20250230.zip': '46e3d346aadb85dbe8a8a5a3f1f4c8c68ebae38bbe5c7b5c8cae3d4580f17fe6', 'photos_20250731.zip.partial': '061b9cbc2e92ab94c0698e6ba8cca2c31f5b968230c15c7f3f479e9ba48c1842', 'photos_20250822.zip': 'eb4890f6e9d937e8e716012ec78c8c711f8d68a174576b57f5264e4bf9e49e87', 'photos_20250823.zip': 'f4eb8b32c9530d06193d43bfee55b8a82e9ec417f57d785b3ba9768fbd2dfc1e', 'photos_20250824.zip': '614943d000f00ba85f2f99868458da277e759e0b7e54915e48dbfe27cb727177', 'photos_20250825.zip': 'fd409decc20fa004cad73f01035706730f786234cbef08d32925b6d148d77a16', 'photos_20250826.zip': 'a7440f9693c3dcea70b35fe1b97e46fc7876463a5d6ab62f41c91b77584c654c', 'photos_20250827.zip': '85ad54bb614f6049141672e4a7968857b30c45fcf3fc07b275062e91744d0afd', 'photos_20250828.zip': '773e82f893de7545ddf76a4efc11a80f086e4196e190db83a690a96855bcc5a5', 'photos_20250829.zip': '4cf327e43ac09d7520ccc1b7476649fa5f91d1f92c4c9f450aaa0d1ac62ec8c0', 'photos_20250830.zip': '8b55113ac1101630fed4cec2c20ff6816fe85fa34bcc971ba2bef26c159a726b', 'photos_20250831.zip': '45fc19af3e585b4654a6f135789838c92930f9e9e7d3fb5dd7970f9443461f84', 'photos_20250901.zip': '8d1b0ebe2804e9fae5c0ab2748d58a103a292adc82a09e1d39fbfec37ab96a93', 'photos_20250902.zip': '6d39b1cc490216473d8c6d7607fca269640f4000ef921cfa303e11048e1f5ad7', 'photos_20250903.zip': '79c59c8523ae71fd2ead815559010c0706f3f1b60e603c8caa01f948dc855d1f', 'photos_20250904.zip': '7aba5664322d230d07d3e65137587b05d7bd2b2649606d2562d5182b5b5a037f', 'photos_20250905.zip': '80e48fb1d427860869d874a87c89d9fcbcc3e0c2b3c4c31a207262db348936a6', 'photos_20251331.zip': '5c6d4384a7d1ba48f4e249020a1132bf22ff9c6d0a780da8cf49814227af4f34', 'photos_250731.zip': 'e8aa096fc32835c4223c541a018e64b7975c116b53337b730263828fadd0fc0d'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/pruned.txt': 'photos_20250731.zip\nphotos_20250801.zip\nphotos_20250802.zip\nphotos_20250804.zip\nphotos_20250805.zip\nphotos_20250806.zip\nphotos_20250807.zip\nphotos_20250808.zip\nphotos_20250809.zip\nphotos_20250810.zip\nphotos_20250811.zip\nphotos_20250812.zip\nphotos_20250813.zip\nphotos_20250814.zip\nphotos_20250815.zip\nphotos_20250816.zip\nphotos_20250817.zip\nphotos_20250818.zip\nphotos_20250819.zip\nphotos_20250820.zip\nphotos_20250821.zip\n'}
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
