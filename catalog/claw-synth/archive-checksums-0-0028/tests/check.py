#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/steady-otter-dataset': {'files': {'Proposal.sql': '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', 'catalog-allow tmp.gz': '130b5ded3a8773843e0658f3dfdf6525615a22662433db72c8ebc233ae0b0cca', 'checksums.sha1': '551c7df94ed6aabba19e49a32a48534ef3585d7cdabc5a3b207f31e7e9696899', 'finance/invoices/falcon-guide.jpg': '5b9c3fdec7ed2d58add5c449360a24b693f9374281c172d7aed479cae349c4ae', 'finance/invoices/payroll-than.sql': 'd6d3975b68b9ae60132cfb5d7535d308190bc3e40f174251f72610b2f32942c5', 'finance/invoices/pine-manual new.log': '8e741de60026eacc2c8d2de91fd337878d7575af61a4945208c5a4120efa1422', 'finance/invoices/show_resume.xlsx': '974127320b658fcb8c606039c0a886e639f42b9b636fa7abafa5dfa4022a18d9', 'finance/invoices/summary.sql': '927178493966de64fa8e882139dd6dd1260ba147253a65cb739d725db8db96fe', 'finance/invoices/woman_feedback.sql': 'a1b01068f5fec164e68ba1816ad65a4d4c7119d6093bb722fda7c634a9480769', 'finance/payroll/MEMO-ACCEPT.jpg': 'ee84b9e3d47c40813e5a9f77681c4256a0b7689e989bb7f67fa602663bc8a847', 'finance/payroll/SNAPSHOT.log': '79da0d9e9504e323cdc8c72c95f1c9a734b6cde1d2b38a6ca2b94f9819be576c', 'finance/payroll/evidence_sample.mp3': '3de888a968ae66f6f2d157d1a63ee5828a6fb42b6254c81848d7b775dde3a0a3', 'finance/payroll/payroll moment.md': 'e4fde83e4022b32228d57d64d4c81a2293e2015e6443019e755f492de9d67573', 'finance/payroll/transcript-enough.xlsx': 'c3ee803f12012118507b3e78d889de3d9c28674d8701c8cf2392fd7c8f2d8ac3', 'images/press kit/Feedback Way.json': '336d2dae2286a2f21399a00d63173966e207800a17ff6c266896c47784f146f3', 'images/press kit/HOWEVER_DIAGRAM.xlsx': 'edbf6cc031f5cfe71564ec8653f4ebfbdc592f418a4e7390a34454570e3521a8', 'images/surface_quote.json': '688462af00bb47128d288b2c3277eba10708baf482f9d99698f8ff69a89553e1', 'images/timesheet-may.txt': '88ebe3328ffced17464f7e30502b11b6e1ce9c50ab098bd97a47b47a596f884b', 'snapshot short.pdf': 'c8b4f25e812b16deb744cbf2d89f0218d2a2d61f957c8473cb7af130d2c559db'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/integrity.txt': 'MISMATCH Proposal.sql\nUNLISTED catalog-allow tmp.gz\nABSENT evidence_sample.pdf\nMISMATCH finance/invoices/payroll-than.sql\nUNLISTED finance/invoices/pine-manual new.log\nMISMATCH finance/invoices/summary.sql\nABSENT finance/payroll/proposal.png\nMISMATCH finance/payroll/transcript-enough.xlsx\n'}
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
