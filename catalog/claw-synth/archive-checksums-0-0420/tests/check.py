#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/silver-river-release': {'files': {'MD5SUMS': 'f340700a1059b440349c27e3b906cea3f76713783df69c41c0d43afebbcb4c77', 'contracts/2023/Fjord-Sketch.png': 'ccdc9861c94b6abef34c52a058eb3cb1246b795725d019268c90b1416b563ea7', 'contracts/2023/Interesting_Inventory.sql': '86f33c4e490c3d6847464937f8340f9881211cd302c4ae85790949ba5422d6be', 'contracts/2023/condor-quote v2.md': 'c9645f7b66e986b6a6338d102f28b9d921a0daa3593c96ab4bd7f31b08b38956', 'data/condor-quote.png': '0f475a2cb5e994a2bf3fa5a2ab7bacb2db62c687ba7a05609e89842d3ccb71d2', 'data/raw/pebble-snapshot.gz': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'data/raw/receipt-long.log': 'e57a1c3e6f36627c2ed95d3c509854bb29555fc00d13f5cfff4c2c8ebbc1c796', 'design_checklist.csv': '43a6eea89418c87c5a9dc18115047e5de44d445d8db47aaa438de2394f7dd35a', 'docs/MESA-BUDGET.docx': '068823152724caadb84fea14068c163bb0366e464aecb1c94557242b6b7ce2c6', 'docs/checklist unit.md': '0656909501f0f5d448802844d4eb7cea7af03e96fb0a8385241e107d009e51f3', 'docs/kestrel-guide.log': 'd29d200380b151f832e9716f2f0845c7fae5c6b7c5db2690a695b9df5d8635e1', 'docs/slides-card.txt': 'a517dee39e7905053955dbddaedab63085c63719ced36445ed2471809a48d2cf', 'docs/would_notes.png': 'b6ccf68b42ed51e077d24084030d598d092a7ff86ed6a24d25988f279d111aac', 'guide-matter.png': '1999a897e037ed6391eb2af2c8f4317a20ee888c497101e7f968731104ec433e', 'manifest-dinner.png': '7ca692d38e458d37c2fe3599ddcd68ae9a0ba6ee29a1deb01f677e46b55f38e0', 'reports/q2/CATALOG-ALLOW.json': '80025a1b2239008eba4ff2486781f987dda79af0f144a1e316d9d20ea4db066c', 'reports/q2/archive management.sql': '42bebe091222ee110915abde4515ff7afd9f5e1edf82ec6f3c56ba579ce8186e', 'reports/q2/feedback way new.jpg': 'feed60207a878c12b49183843edd1ad532e336f1f57db50893fd00289fc63c6e', 'snapshot.pdf': '093a84762f3d9aa9fb55d65e48c697299b102b90468dd86737b0069a50fe3c87', 'summary.log': '6e34f1f3f0f31e8bf3493ac5442b42e1e842073d6d1fc0da5c0eb829add2a8fa'}, 'links': {}, 'dirs': None}, '/app/mirror': {'files': {'data/raw/receipt-long.log': 'b62d7353776472c804e6cccdac99b33edd2d909840a228853b6136a63caf938d', 'design_checklist.csv': '43a6eea89418c87c5a9dc18115047e5de44d445d8db47aaa438de2394f7dd35a', 'docs/MESA-BUDGET.docx': '068823152724caadb84fea14068c163bb0366e464aecb1c94557242b6b7ce2c6', 'docs/checklist unit.md': '0656909501f0f5d448802844d4eb7cea7af03e96fb0a8385241e107d009e51f3', 'docs/kestrel-guide.log': 'd29d200380b151f832e9716f2f0845c7fae5c6b7c5db2690a695b9df5d8635e1', 'docs/slides-card.txt': 'a517dee39e7905053955dbddaedab63085c63719ced36445ed2471809a48d2cf', 'guide-matter.png': '1999a897e037ed6391eb2af2c8f4317a20ee888c497101e7f968731104ec433e', 'reports/q2/CATALOG-ALLOW.json': '80025a1b2239008eba4ff2486781f987dda79af0f144a1e316d9d20ea4db066c', 'reports/q2/feedback way new.jpg': 'feed60207a878c12b49183843edd1ad532e336f1f57db50893fd00289fc63c6e', 'snapshot.pdf': '093a84762f3d9aa9fb55d65e48c697299b102b90468dd86737b0069a50fe3c87', 'summary.log': '6e34f1f3f0f31e8bf3493ac5442b42e1e842073d6d1fc0da5c0eb829add2a8fa'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/repair_report.txt': 'UNFIXABLE ./data/raw/receipt-long.log\nUNFIXABLE data/archive management.md\nREPAIRED docs/checklist unit.md\nREPAIRED docs/kestrel-guide.log\nREPAIRED reports/q2/CATALOG-ALLOW.json\n'}
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
