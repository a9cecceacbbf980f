#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/staging': {'files': {'2023/falcon-guide-v2.png': 'd051652d998e59ac2d6a1ea87aeb5f302a270159f9c6cea5489c0264f848cb73', '2023/scan.txt': 'dd1d47b6137e4dfbff8156b28649249c8c89897017b41fafc7457f035b01738d', '2023/warranty-human.csv': '87ea068d904253619d02b4e0afd4fa63fd908cab6ffe842942a970950e3310c1', '2023/warranty-people.csv': '89aa955eea7ae4f55fd14c1a07f8c45f460939628d5613ec69fc3959eebf1727', 'backup/.localized': '41ba619906959a88fb776f8ff3c39ddff83c5507824e6239f9567661d993d537', 'backup/handbook morning-v5 copy.mp3': '566690884d72d5985a604bf86f1c1c0fb2636d7e5806d9ef107ea83af517328d', 'backup/ledger create-v4.csv': 'a54ac364dc939e190cec401e4327de33fe4d1b042c7d5e524594ed2775e57907', 'backup/scan-b.bin': '52ce0de5d9ceb8a889a038326c0433fddc09fca19a091c8667c90dff8178f62c', 'backup/scan.txt': '32df279b973b691893b93869177c3d633cd6edbf5f1c9ac0037163a5d2501d87', 'backup/warranty.mp3': 'a03bf67245886929737a980301001909b3f910f30ab98044d820b204e095b897', 'exports/falcon-sample (9).png': '89885ee5c7c2424d4d7d25d2764ba0e7a00b92f5b1131b33260976854f4212dd', 'exports/survey without.csv': '02a2054a0e3523a047920e16b3f5e1e2866dd43d7588b7b1d86e13055d706694', 'exports/tutorial service.txt': '9029f997003b523084691cb20e54cd708a0335da47950dddc278dc72e8e2764e', 'phone/minutes.txt': '7526848df9b10c4fbce34a5e8c9ebb0a085b051baa5a518713c436984c7d366a', 'phone/proposal.pdf': 'e487d92e0ff56aef38b9a4c508c2d1bbad9a01102b3a9c386cdb8729eb91e464', 'phone/transcript buy.csv': '3cd0e71aa0533991596696dab8ec5458ddf336324ddde2eda69c99ea913c458f', 'phone/transcript hope (6).mp3': '62702e2f8ae7c940d37df1af7bbfb5a988ab475f41852e771dc8123e42d12da2', 'scan-a.bin': '7689fdf85a61fb4a51989211671b2e1a67f92b57f6f0bcd660b4fd212c93b1da'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/duplicates.json': {'2023/warranty-human.csv': ['exports/warranty-human.csv'], '2023/warranty-people.csv': ['exports/warranty-people copy.csv', 'phone/warranty-people.csv'], 'backup/handbook morning-v5 copy.mp3': ['backup/handbook morning-v5.mp3']}}
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
