#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/iron-river-delivery': {'files': {'audio/Manifest-Dinner.md': '414158b2a7aaae2956c5f11718432bcc27e5cb1aa47bf02e7d521b73863686aa', 'audio/interview-pressure.pdf': 'c1ed9ce04ee778982b7f83ba69ec4faedc95ded33b89eaa9811d4e4eed6d81ea', 'audio/panorama.mp3': 'f79fe8c2e4a8dd08a5309e62abf4bd04db24792a9bf49e62d5b372b777d8a608', 'estimate threat.gz': 'f6200a811a8ab089b86a1fda9247dfd7da3ccc8923a05e576622a73b0efbb8ee', 'finance/invoices/anchor-interview.txt': 'ec95a6158d0d9b61dbcd4458bf893d36e843aea2b8b12315a2d240f9f9a6621e', 'finance/invoices/proposal.sql': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'finance/payroll/manifest-dinner.pdf': 'ec4d5b29b1b4d3a5d2741b8bdbff82939b8a0da6e5656a7d824f66097f95dc7b', 'photo.png': '24246cda4f63a5d1411444b0cae7385d12dc0cc36b3a386403fb5a75ccfe51e8', 'reports/q1/Transcript Buy.gz': 'a2b166b306dc475a6aa856443eef006f4e511b04366d773d771e3e72edbebd53', 'reports/q1/demo.json': 'd24bc1dced42fd0706316b5121093779341366e899f3c2d36a35b9b8f6bc6f7d', 'reports/q1/estimate tmp.log': 'f42088928f2cc8953d3f07de2e5aa4a81cd3b8c19580899bcf914749bd815488', 'reports/q1/receipt there.txt': '17331340eef2ff400ae2d8293de873638c7691d550117623e2a0c1ec4668ce26', 'reports/q1/vale-portrait.xlsx': '07cd5554d89ae0ecb0978f8c4e2bbaa306708027608b2c9fdadc6f96c37156f3', 'reports/q2/bison-order v2.md': '64ed92bfa8858ffc40b91cb715201cf0aacf51c32921c9b7ef95de091e7f436f', 'reports/q2/estimate.json': 'f1f602c7d7c9165811423a456bbd787eec907d8348a55d55f0607f8aa5c163ee', 'reports/q2/ledger create.csv': '101e680a462861e42a157f01121c54b2791f33f980cd3071d5dfcff41de34624', 'reports/q2/schedule.docx': '826dc85e534b092e756130833aaebbfde6d875da7bd13a96091e93a58d94801e', 'reports/q2/would_notes.mp3': '5b9dfb2b0d63b26bc1f69b2c3db3bd3ebc197dce5d0d1a158b5c9dc41de3dff3'}, 'links': {}, 'dirs': None, 'skip': ['SHA256SUMS']}}
TEXTS = {'/app/iron-river-delivery/SHA256SUMS': '414158b2a7aaae2956c5f11718432bcc27e5cb1aa47bf02e7d521b73863686aa  audio/Manifest-Dinner.md\nc1ed9ce04ee778982b7f83ba69ec4faedc95ded33b89eaa9811d4e4eed6d81ea  audio/interview-pressure.pdf\nf79fe8c2e4a8dd08a5309e62abf4bd04db24792a9bf49e62d5b372b777d8a608  audio/panorama.mp3\nf6200a811a8ab089b86a1fda9247dfd7da3ccc8923a05e576622a73b0efbb8ee  estimate threat.gz\nec95a6158d0d9b61dbcd4458bf893d36e843aea2b8b12315a2d240f9f9a6621e  finance/invoices/anchor-interview.txt\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  finance/invoices/proposal.sql\nec4d5b29b1b4d3a5d2741b8bdbff82939b8a0da6e5656a7d824f66097f95dc7b  finance/payroll/manifest-dinner.pdf\n24246cda4f63a5d1411444b0cae7385d12dc0cc36b3a386403fb5a75ccfe51e8  photo.png\na2b166b306dc475a6aa856443eef006f4e511b04366d773d771e3e72edbebd53  reports/q1/Transcript Buy.gz\nd24bc1dced42fd0706316b5121093779341366e899f3c2d36a35b9b8f6bc6f7d  reports/q1/demo.json\nf42088928f2cc8953d3f07de2e5aa4a81cd3b8c19580899bcf914749bd815488  reports/q1/estimate tmp.log\n17331340eef2ff400ae2d8293de873638c7691d550117623e2a0c1ec4668ce26  reports/q1/receipt there.txt\n07cd5554d89ae0ecb0978f8c4e2bbaa306708027608b2c9fdadc6f96c37156f3  reports/q1/vale-portrait.xlsx\n64ed92bfa8858ffc40b91cb715201cf0aacf51c32921c9b7ef95de091e7f436f  reports/q2/bison-order v2.md\nf1f602c7d7c9165811423a456bbd787eec907d8348a55d55f0607f8aa5c163ee  reports/q2/estimate.json\n101e680a462861e42a157f01121c54b2791f33f980cd3071d5dfcff41de34624  reports/q2/ledger create.csv\n826dc85e534b092e756130833aaebbfde6d875da7bd13a96091e93a58d94801e  reports/q2/schedule.docx\n5b9dfb2b0d63b26bc1f69b2c3db3bd3ebc197dce5d0d1a158b5c9dc41de3dff3  reports/q2/would_notes.mp3\n', '/app/changes.txt': 'CHANGED photo.png\nCHANGED reports/q1/demo.json\nADDED reports/q1/estimate tmp.log\nCHANGED reports/q1/receipt there.txt\nREMOVED reports/q1/tutorial road.xlsx\nCHANGED reports/q1/vale-portrait.xlsx\nADDED reports/q2/bison-order v2.md\nREMOVED reports/q2/checklist unit.log\n'}
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
