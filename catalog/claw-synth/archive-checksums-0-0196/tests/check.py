#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/vaults/cobalt-beacon': {'files': {'audio/BISON-ORDER.gz': '1f354b61ba298f5ecc7cfdd79a00258ba06ddb6f28e01c97f611b5475d9e6adf', 'audio/DESIGN_CHECKLIST.pdf': '68acf24fdbb7994904df03aab5245577e76daec9e197f5c752249674b9db6779', 'audio/FORECAST-THING.sql': '1a8651459f0e3aa0b378d16bf1bbee1d53893ea6c2a2ea27ebd011879fb9dd63', 'audio/Handbook-Moment.jpg': '6083bb07d548dc474d65e9d314981718158a4b8a7298cde20b6f88c996446ead', 'audio/harbor-sketch.xlsx': '068d4e96c31f26dfc3e6506cb1c5dbf1bd375ebba9975d655b8d3ed454605e8a', 'data/raw/Schedule-Four.pdf': '06c56e21aafa6f0c0d3418c1db4da36dd4079181603aedce8ae9833ad287f99c', 'data/raw/catalog-allow.txt': 'ac6844ef9e370909c7b965008d56b8d709e202eab96266edb8b6550ab936345b', 'data/raw/condor-tutorial.txt': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'data/raw/forecast.log': '0b680652c1d799e7ffb685037d61eb5b2c53cc7730d4d77236a13dda79887582', 'data/raw/office_report.log': '5fa18599846d5f1b16b7cd656c3ca09018f5ef84729815f3b9887ce053bc8197', 'docs/FALCON-PANORAMA.jpg': '87cd6e8c0f4f76beb5d5b9beb277e8ec8648c60a35d6273dfbf1a06e267cb6ff', 'docs/archive-against.jpg': '9ae4f5e14a1eb13592e30f991c1071da40a73a197977e74ee97030b75320c489', 'docs/diagram.json': '52abf0627ff4399a32c4174ad408bf280f1dd7984bae0b288df24610540766f4', 'docs/manifest-entire.png': 'fe2ccfac598121c153d36d1c7a40878406542b49fe431c029d8aa6e424a44458', 'finance/invoices/Warranty.gz': '51daa30fd79eb16e1e460c5e789fae846be8c50f507c1228f91e3b92fcddf366', 'finance/payroll/dump paper.mp3': '632ddb9056abec3720591448cc866acd331082184370a3abbc8aad179664485c', 'finance/payroll/forecast teach v2.sql': 'cedeb3dc5264972dc96c027c5e90c74ef643be765f785b7f135bd6f3f7838ade', 'images/handbook-moment.md': '3642cef347412441c7bbdb2c1919618959a97242442ad9937dd416a670d69baf', 'images/press kit/Portrait.sql': '6cfc5f6a2eaff3ed3a19a5d43d9d48c35d3a3cb93c481da2323ee70b705c9f7b', 'images/press kit/Warranty-Human.xlsx': '4d7aeb2d34f7eeca1a70c8db36f2bffe5b1cb5e7f4291133dc6183b1242730a0', 'images/press kit/effect_schedule.sql': 'c970730bd96790b74d0474ebe7d692da7bd09925fb396c6d698129c5bf815595', 'images/press kit/falcon-panorama.sql': 'd9d5b836e67b471d7e31704efaea88cadf2a5eff682d4c4d20dadaa640ce0948', 'images/press kit/scan prepare.docx': '4920ebd0a236c32735d0ca403c4f870d75fee217be5b94469d1d5f49bf0a5ba1', 'images/transcript-enough.txt': '885dac0b50dc79ba7850eebadf370788d5a7e2cda8244824f472a3125144be28', 'md5sums.txt': 'c219399c278d6f580ff76329e82b31a7ea74eed7e499711146ab11067ea62039', 'memo.gz': '67113821041ba74ed533b92551c017ad7d75a2109aa4ba92ffba6766455cd04f'}, 'links': {}, 'dirs': None}, '/app/backup/cobalt-beacon': {'files': {'audio/BISON-ORDER.gz': '0edb035156e1e6e8d389c866492238a26ad42b020172bf46d9297b31f87697e3', 'audio/FORECAST-THING.sql': '1a8651459f0e3aa0b378d16bf1bbee1d53893ea6c2a2ea27ebd011879fb9dd63', 'audio/Handbook-Moment.jpg': '6083bb07d548dc474d65e9d314981718158a4b8a7298cde20b6f88c996446ead', 'audio/harbor-sketch.xlsx': '068d4e96c31f26dfc3e6506cb1c5dbf1bd375ebba9975d655b8d3ed454605e8a', 'data/raw/Schedule-Four.pdf': '06c56e21aafa6f0c0d3418c1db4da36dd4079181603aedce8ae9833ad287f99c', 'data/raw/condor-tutorial.txt': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'data/raw/forecast.log': '0b680652c1d799e7ffb685037d61eb5b2c53cc7730d4d77236a13dda79887582', 'docs/FALCON-PANORAMA.jpg': '87cd6e8c0f4f76beb5d5b9beb277e8ec8648c60a35d6273dfbf1a06e267cb6ff', 'docs/archive-against.jpg': '9ae4f5e14a1eb13592e30f991c1071da40a73a197977e74ee97030b75320c489', 'finance/invoices/Warranty.gz': '51daa30fd79eb16e1e460c5e789fae846be8c50f507c1228f91e3b92fcddf366', 'finance/payroll/dump paper.mp3': '632ddb9056abec3720591448cc866acd331082184370a3abbc8aad179664485c', 'finance/payroll/forecast teach v2.sql': 'cedeb3dc5264972dc96c027c5e90c74ef643be765f785b7f135bd6f3f7838ade', 'images/handbook-moment.md': '3642cef347412441c7bbdb2c1919618959a97242442ad9937dd416a670d69baf', 'images/press kit/Portrait.sql': '6cfc5f6a2eaff3ed3a19a5d43d9d48c35d3a3cb93c481da2323ee70b705c9f7b', 'images/press kit/Warranty-Human.xlsx': '4d7aeb2d34f7eeca1a70c8db36f2bffe5b1cb5e7f4291133dc6183b1242730a0', 'images/press kit/effect_schedule.sql': 'c970730bd96790b74d0474ebe7d692da7bd09925fb396c6d698129c5bf815595', 'images/press kit/falcon-panorama.sql': 'd9d5b836e67b471d7e31704efaea88cadf2a5eff682d4c4d20dadaa640ce0948', 'images/press kit/scan prepare.docx': '4920ebd0a236c32735d0ca403c4f870d75fee217be5b94469d1d5f49bf0a5ba1', 'images/transcript-enough.txt': '885dac0b50dc79ba7850eebadf370788d5a7e2cda8244824f472a3125144be28', 'thousand_proposal.log': 'f9144472fd85918c7d3008db0163ee55609a927d2bbbd12198fc7fe46e6fb44b'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/repair.txt': 'UNFIXABLE audio/BISON-ORDER.gz\nUNFIXABLE audio/DESIGN_CHECKLIST.pdf\nREPAIRED data/raw/Schedule-Four.pdf\nUNFIXABLE data/raw/significant_scan.sql\nREPAIRED images/press kit/scan prepare.docx\nUNFIXABLE thousand_proposal.log\n'}
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
