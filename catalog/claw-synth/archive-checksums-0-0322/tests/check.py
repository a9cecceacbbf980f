#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/release': {'files': {'bison-order new.gz': '57a7501e4b8573cc4f25f41fea86411b8d27e045998e4dd30e0db4ef059ae60d', 'data/2024/Statement-Send.log': '3407e94af0f6eadf13747bd9114f3b3b61149dd6cb2c1a2ce5ef314d6b3d1b6f', 'data/2024/bison-order.log': 'efe20d8a433681d5352f6d0dde4671c61155e217b5412d8887558c980c4cc2a5', 'data/2024/forecast.md': 'bcccf5a1b5a601cd3833e887b08abe95eb1698cb05fb5db669665e788618a437', 'data/2024/manifest-entire.mp3': 'f5c22f43c5fd14db03a0629681f6b1a50709d4520837a8632aa25f20d3f9af1d', 'data/2024/tough_ticket.pdf': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'data/lynx-template.sql': 'ac15100f1c205b74829b82b3318aa7f8dd20f485741479800b85695b52c51ba5', 'data/slides-card.json': '2bdc286e0527794736057465e57a9fd6bdf3207b31412b567975f0dbd8375efc', 'finance/invoices/Book_Agenda.pdf': '4502fda632ed1b0279d02cf36c2199b79e3e26a23c3b33c5dc745956c5c6580d', 'finance/invoices/archive-against.png': 'cbe6c4054ff47963d2ed184ef1c0bfdea5c8b6cf1c1a47c6697ad1c0c0c64347', 'finance/invoices/diagram.docx': 'b51d7d38545ebd1f2d3e5f9b426ea1e04d6f3dd17ffe4ef2d51c6cb3bef2d84a', 'reports/q1/believe_dump.md': '01125bab41b88337b0b885160de2652b388a81bb9fc04580bf08eb20abde240b', 'reports/q1/bison-template.md': 'c9704eb2f493dd8f1acf1a9d806c5446ebfa6923eb0b17126ebca914ef48d596', 'reports/q1/diagram example.txt': 'f6d82551bbc65b2e36bff383d85311eea7b3453f79dd0852139420785bf6445e', 'reports/q1/feedback way tmp.gz': '9b194d1236e3ca4deaa1169f22f3e00376705b95873dd35a7e12deca5f3d7d7b', 'reports/q1/panorama voice.xlsx': '3ba9968fa60ce15608150b7bc9be397b90db9be5fbbb8cf9ca04eb3f814945ab', 'tutorial-apply.sql': '06e84a1f74ccdace3218cb8807dfc62d8bc81b3ed6a09520ebdfcd3593a7a0e5', 'would_notes.md': '9184625c003b9ad5b02dbc8952dba0c0c8bd1655800b612f8aa50a12f895259e', 'checksums.sha1.old': '9ac26ab91c3ccd492293f0c2afe2f069b5c6d0728bab771831088609eecc7450'}, 'links': {}, 'dirs': None, 'skip': ['checksums.sha1']}}
TEXTS = {'/app/release/checksums.sha1': 'SHA1 (bison-order new.gz) = 2f1bda30499693f56c932972291dd91146c5176d\nSHA1 (data/2024/Statement-Send.log) = 99f14088114845a09a5f52d2f7bb05f9eaab2e25\nSHA1 (data/2024/bison-order.log) = 8c965cb273fb4b8f9e300e921cd6f78a40a5f395\nSHA1 (data/2024/forecast.md) = 05af1ec1afba5681890b929c2a0d18301772690d\nSHA1 (data/2024/manifest-entire.mp3) = 36f733d77407dace4384590994bee35b4f8b8583\nSHA1 (data/2024/tough_ticket.pdf) = da39a3ee5e6b4b0d3255bfef95601890afd80709\nSHA1 (data/lynx-template.sql) = d859b88042a90c06f9e977e40540e4df6c84a503\nSHA1 (data/slides-card.json) = e8ec948911a891de0510b8549deb570df5877154\nSHA1 (finance/invoices/Book_Agenda.pdf) = f83f030f75b2427f01c2c1c7ccacade6a9d35ffe\nSHA1 (finance/invoices/archive-against.png) = 95779e43219ad051066a69e557749e3756dfbbec\nSHA1 (finance/invoices/diagram.docx) = b997bd0baf35e95e7056d4a3b06023a92ca93137\nSHA1 (reports/q1/believe_dump.md) = f6fb4b6cd31cbf6ddb83ff08fe9f898340b93c51\nSHA1 (reports/q1/bison-template.md) = a97839e5b061da8caf46c14c16c1ae06b82ce672\nSHA1 (reports/q1/diagram example.txt) = b0ffed017fe496b0f07e5b005768cb5313f1ee67\nSHA1 (reports/q1/feedback way tmp.gz) = 4c1570d2bba99056b1bbde70233cfc73ccdca5f0\nSHA1 (reports/q1/panorama voice.xlsx) = 227c85e42b75c47b3cfbd7dd761377254fef58f4\nSHA1 (tutorial-apply.sql) = f4f08c66e30e4a3a9aa76363ad5609ba7b795b86\nSHA1 (would_notes.md) = b8b98047a39d0eb02a877d2993083ec0b705debf\n', '/app/manifest-changes.txt': 'ADDED bison-order new.gz\nCHANGED data/2024/bison-order.log\nCHANGED finance/invoices/Book_Agenda.pdf\nREMOVED finance/invoices/catalog-same.sql\nCHANGED finance/invoices/diagram.docx\nREMOVED images/quote social.jpg\nADDED reports/q1/feedback way tmp.gz\n'}
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
