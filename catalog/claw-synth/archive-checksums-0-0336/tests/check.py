#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/cedar-kestrel-dataset': {'files': {'data/bison-order.docx': '07dac44ef8b589f8c2298493f15625a1a2a594f3a5c66f0e730e7423f8cabe85', 'data/sample whom copy.docx': 'ef782b745b86ce13f07f3fa5d3590ac1fe152f844ad7a899c41baa2a6de7ff5e', 'data/snapshot short.md': 'b05c178442494bcda7601808b681bfa06a3149ae3822de5009ac0a439b47898e', 'docs/legal/PROPOSAL.docx': '430ac3ee8dd385a97ec360dabfc4fa7405c9abdef024ab820125e03c7ff81c72', 'docs/legal/effect_schedule.mp3': '66823939bc798375ad312e18774b76fd356cfe1d73af432c2b56305823933d8b', 'docs/legal/receipt-long.png': 'aa3efbca34e78450eb54e95ba39539d95c5e9732f703f839127a5632865b05c3', 'finance/payroll/interview-pressure copy.docx': 'b22072039da385c6c052d7d429a7eb30018820dfd1e5ae065c39a286dc582cea', 'finance/payroll/newspaper_receipt.csv': '81dfd6986ea4426de022224e663247ad978e1c02dcecbc0c463440a6654d4f78', 'finance/payroll/scan.docx': '8cb12e7031ec9c5ca41ec8b55f178e260143c2ac21573ab610f4c833582a6859', 'images/press kit/handbook morning.jpg': '791d3387230f34783ae79f773e6ff91b10ffcdd34f0fe5769dce6228beff126f', 'images/press kit/otter-quote.mp3': '35c2528b5bb713b3dbb49cef79af1ee732e50ebc5c459818926297253ea2c3ae', 'manifest.sha1': 'fe83ee8fb3006ee198b068df7e210de815afdcd06c61935cf8fdd50dfdeb93f6', 'misc/Surface_Quote.json': 'c09ab2216eb9194f312e3b88127b4712aa76ccf18ca464708cbe3610ef11c762', 'misc/estimate analysis.sql': '1afbf7c891a59880f8cd63df8725b5a372dc75cf6dbaff1e0f9952201db83ab0', 'photo tmp.json': 'd7d90facd79a200c649b278c2a11d77955bc4d1e571f9152eaee5f788376ade5', 'photo.xlsx': 'd8c0a43ca266f859da3fe45b9c0393eb6b5a7914c32c10d9185ec576f6ee8770', 'transcript hope.mp3': 'a48de7bd8864d369957e3f17548d855a99a7af0fa79417f0a0c95836f81f9cae'}, 'links': {}, 'dirs': None}, '/app/quarantine': {'files': {'data/demo.sql': '6aacaaaeeeaec62c3d38bdf0e34f318ad60e61f910c1e0213f0ecfa9cf53c83d', 'finance/payroll/Tutorial-Apply.xlsx': 'a107983484bc7c99cac701700295db7a7b5b147e49df6d0bd0bc93a19df8b902', 'finance/payroll/statement-send.txt': 'c70cc39f93659490e91605d9a0cf79bad4c18e58a8c50ccdd83c25f149dca545', 'misc/forecast.jpg': 'f989f692dd5853b3f1f2cea6c69b78c7460ab1a53d2fc33b7294b411f2d4ed9e'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/verify_report.txt': 'MISMATCH ./data/demo.sql\nMISMATCH finance/payroll/Tutorial-Apply.xlsx\nMISMATCH finance/payroll/statement-send.txt\nMISSING ledger six.txt\nMISMATCH misc/forecast.jpg\n'}
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
