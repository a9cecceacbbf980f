#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/mr./unsorted': {'files': {'.DS_Store': '11bcdb66af6bf0e2b22402e1cd00f36824159bea097219d1b650ba3d4cc701c6', '.directory': '21dac88a0753d87bb1fda86642ac2187c7f55e0eee2f875f8238647e9d94f270', 'keep/chair_resume.txt': '2c22ebd3e720683f6e00c086ec542505af678aaae77efe4874b5aad207009048', 'large/Notes Light.dat': '2b1272eafb90318f54b6454a7d2b2c4fef024724b9c658d982f9d8421d754180', 'large/Tutorial Road.log': 'ef55f89d1739254274819aa54d2a4fc1e77e191e7b5feba0db9ffd4d9b0f3e6a', 'large/inventory (2).bin': 'ffc60304729efb2430da7e57ea12ce3bc511665b43ce08770cb05c7a33c9e5bd', 'large/ledger create.json': '16917162aad68f6bb2b5a3a9bec77f499dfe142f0ce4c8309df096fb5e1cfe4b', 'large/physical_catalog.json': '9f3eef0ef2947bd9064b6330f69e949e1e572de982cb94f82c54204f749a01b5', 'large/quote_social.zip': 'fed8ab58bef82938774a2e98c86edfefb6d4de647be3c9b8cb35d63961ec417c', 'large/schedule-four (8).zip': 'feb083238176e3b4a2e838ebd993e9778b5736f28a4204efc6c63fcef3e788d3', 'large/tundra-tutorial.json': 'ebc15f0c05f6bbab472d6b1f503a7311b348332278c5612858e63afbdb9a0c4e', 'medium/believe_dump.dat': 'b681dcadef081f9c4dbc0df428ea913149312286ab262391785be8efa3a84ee1', 'medium/memo-accept.pdf': '03145c1d3b72182d0d1b180ba06936d2062bf5867c8102ca6989c195ad4b824d', 'medium/show_resume (7).zip': '94565b325afbd925810ca11fbaba40df0075b1b35f5ae4779a1ce9a9ab56fd13', 'small/Tutorial Service.csv': '524574c35d8df58fa1659301ef91635dbe22e99b40e8a389141660447940dc35', 'small/boarding-pass.bin': '333d143dceda399eaa47fe77410c4a4bd771bb57293a97932f7b104310e4e202', 'small/kestrel-guide (8).bin': '77138d82ba4468aa5926127e7824450ff81dbf139fc87e3728c6d7c35fb2daa3', 'small/photo (8).dat': 'f1d893eea6a9e51684e8c0a6b5b7b9d8b1e95cb6bc2d4dcfd156a7a05c5259ca', 'small/portrait.dat': '3f9be049979435961dac86d0ce15464eeb73ad2d4005d5c4ad0f9f93d9cda459'}, 'links': {}, 'dirs': ['keep', 'large', 'medium', 'small']}}
TEXTS = {'/app/sizes.csv': 'bucket,files,bytes\nsmall,5,5429\nmedium,3,7136\nlarge,8,27475\n'}
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
