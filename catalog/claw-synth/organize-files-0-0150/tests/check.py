#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/intake': {'files': {'2023/estimate (8).txt': '0039664e4de8c105fa03e60fb1c0c36e5afab4c1d7aaa94db1cf6fe348e75dbb', '2023/handbook-moment.txt': '8d7971574133734e9c704f898eb4595e62719ff796e84fac9ea95c0a547093d6', '2023/onto_itinerary copy.csv': 'ae152b4b7d2db2e10fde497179c4b6531ef865b79b4eff1e69a2d0124eb48d9b', 'comet-export.txt': '210607602b8a3294e44954beab2589c48e6fa21fae9aa764c57798d6a4ffaff6', 'expect_inventory.mp3': '36299c33872d4cc6329adbfcfe742cd69ec108bb575cefb6739467d0f22f6f66', 'exports/condor-quote-v2.png': '6f30c28546cdf9a64c812f48ab7f2b122c959352d71679b3eb3bee5630d39969', 'exports/empty-1.txt': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'exports/estimate (8)-a.bin': 'c8e89f1707c61b57db214f50d4820c7f3cee29fc28f388ba593c2ed873239233', 'exports/estimate (8)-b.bin': '07e0fe3e7bdbae05c2f57bdac348d9f6d213bc4d26da2153a2f266b3fa394c03', 'exports/feedback film.csv': 'b2a0f79e8073c4a4f7f7b7241e0378c89c963598bfa570e34351d20b26e22511', 'exports/newspaper_receipt.jpg': 'f80b1f79c344f1938035a949f9d365d765b0efe3b62a0b252b123c6dc8315096', 'exports/warranty doctor copy.csv': 'd4efa9e44ad7f01ccfa8f56a2f95d1b9f36bae9ae84fa8b4a4d3cf7c8107b9a0', 'exports/warranty-people.png': '034f5b5b0ea7b34a22ffd70c8606f522bb04c72de25a7f6a56a817d713844f16', 'heron-photo.mp3': '98131a688cdb9c2ffd4ab7907d6f27dd79d4426ed70ba729f4d4701e369ee217', 'mesa-budget (1).png': '3668cd5a47e22248ea1e913b7ba3195ab9b96bf5a052fec478f7819d0e4655bd', 'misc/tmp/.thumbs.db': 'eec3ea521a8eb3796a7fe88a7cce6e18d776a837bd5cdf96006db36c1e55e53b', 'misc/tmp/anchor-interview.mp3': '9fd523e6c0d830facf8bbae742bc61605cf724200803aafeb9782b0893e60d03', 'misc/tmp/draft.pdf': 'ba31ade5916c45917571c425db8f7882b23c3350acede4b86e3610a01381b231', 'misc/tmp/empty-2.txt': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'old/laptop/estimate (8).txt': '4c5a67578bff8ff0c9bfbbe5d58575e31521a1d1b7b215a06f6c0693899b1c0b', 'phone/agenda move.jpg': 'beba049ca15f9affc9dae60257293e1a5a550a08e0536ad2800c175e4067b2f5', 'phone/catalog-same.docx': '49bcf26a424cf4ef6754667f6c09e3ffd8256cdea6afa956f6aa17a335b567a4', 'phone/estimate analysis.txt': '532390b0be834b97f1025d865466b27bf2f6cd6871045490fb7acd90f36052c9', 'phone/receipt-long.csv': '8e7bd43911661524679e5d3bab237565229a018c42554939eba41ed68b895b5e', 'phone/remain_template.mp3': 'd0fe7ab63136aad3353f11388d41664149d4f3094599dd7529b3b7b9903c71e3', 'tundra-invoice.csv': '8ec5ad9a1b7b758d6622c681994465cf65bd69649cf3c27cf42013048e8f3da6'}, 'links': {}, 'dirs': None}, '/app/dupes': {'files': {'2023/onto_itinerary.csv': 'ae152b4b7d2db2e10fde497179c4b6531ef865b79b4eff1e69a2d0124eb48d9b', 'misc/tmp/mesa-budget.png': '3668cd5a47e22248ea1e913b7ba3195ab9b96bf5a052fec478f7819d0e4655bd', 'misc/tmp/newspaper_receipt (1).jpg': 'f80b1f79c344f1938035a949f9d365d765b0efe3b62a0b252b123c6dc8315096', 'newspaper_receipt.jpg': 'f80b1f79c344f1938035a949f9d365d765b0efe3b62a0b252b123c6dc8315096', 'old/laptop/warranty-people (2).png': '034f5b5b0ea7b34a22ffd70c8606f522bb04c72de25a7f6a56a817d713844f16', 'phone/warranty doctor copy.csv': 'd4efa9e44ad7f01ccfa8f56a2f95d1b9f36bae9ae84fa8b4a4d3cf7c8107b9a0'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/duplicates.json': {'2023/onto_itinerary copy.csv': ['2023/onto_itinerary.csv'], 'exports/newspaper_receipt.jpg': ['misc/tmp/newspaper_receipt (1).jpg', 'newspaper_receipt.jpg'], 'exports/warranty doctor copy.csv': ['phone/warranty doctor copy.csv'], 'exports/warranty-people.png': ['old/laptop/warranty-people (2).png'], 'mesa-budget (1).png': ['misc/tmp/mesa-budget.png']}}
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
