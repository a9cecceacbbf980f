#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/steady-comet-handover': {'files': {'SLIDES-CARD.xlsx': '6653bf6ffa3d852465594d810d5ed29c7fb24e93c3ea719627c2ba962a938c66', 'audio/CHAIR_RESUME.log': 'f5fdac8124b508a99065e1fe1149d79339bf95b2d96e4f5e99830ce097644163', 'audio/bison-template tmp.mp3': '9eac7abc3b5a830cd95ab6d1c828d7ffbb0bbe0afebdab64972ed2df6a86fc75', 'contracts/2023/dump.md': '4aa64fc839de9a3c11a66bcf67113cda9e64b21360e23242730d69efa7f65090', 'data/2024/estimate threat.gz': '019e3b4103b53f4558a966ecdb5aa32cbadb57788effd804ef8f20f1d6bd13c3', 'data/2024/estimate.txt': 'b8d41ea2fed4afa5d9f9a2e05c19ac39df10fce2871877b304a2decd062a1e93', 'data/2024/manifest tmp.sql': '7631e0152ce1f67ff44c295ac86d042aa73e1501cb6050b892cca1532d268202', 'data/2024/thousand_proposal.txt': 'be249d40ff2d3a8b537cc0250dcd537a945bbf5822cbfe071d488d07d7aa462b', 'data/QUOTE SOCIAL.pdf': '886766f6e22f5212aaceca8621d9cb8b21e48ef44b683747c6e61c9acfba0ba6', 'data/portrait-heavy.log': '65f74f8b07bddce8c6fc9cf519e39120839da99019bd31fd7d4e9b5107cbd049', 'feedback film.csv': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'finance/payroll/estimate analysis.pdf': '7409db2ce3fee21a7c82ecd9520943f504b3fbfb6f566db1e21d090ef5d9f785', 'finance/payroll/forecast-thing.gz': 'b364b19fddd6eb482c0d1c809afd0a33f81f3a6760c7a7fb7cb90a66d0e2fcb3', 'finance/payroll/portrait-heavy.json': 'be078056d009cdd85201ceda8a765e26504c47a2804a06f12b762ec348773936', 'interesting_inventory.xlsx': '0fe9cfaf2a705435559c0dcc6e2a2981bcb3acab4f8d560b568cfff2d47051ae', 'manifest.sha256': '00fbdfc05d3626ff3e519ef0115b881ac0b65fdd2f63ce7df81a65d28c6e6560'}, 'links': {}, 'dirs': None}, '/app/quarantine': {'files': {'audio/catalog-same.png': 'f0a288730948cfecbca40439834aaa9102a1beb6ec2611686e61440de18f3c99', 'data/export-reach.png': '9c280dc76dc767e6190662d9dfa7e9d05b808e6e5c77006679e8f94c59ba8c2d', 'data/tough_ticket.jpg': '3cc408b14496d307b72b430ad99efbfea275d2daffb07c50a29088a47d3daf64'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/verify_report.txt': 'BAD ./data/export-reach.png\nABSENT ARCHIVE MANAGEMENT.pdf\nBAD audio/catalog-same.png\nBAD data/tough_ticket.jpg\nABSENT finance/payroll/expect_inventory.txt\n'}
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
