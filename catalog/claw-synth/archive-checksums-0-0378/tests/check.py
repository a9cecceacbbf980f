#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/vaults/misty-river': {'files': {'checksums.sha256': '0a1c6e17d60395b920a1c1d7a3d0e9f7fd5da23ec6bf92fbf6a3b18a0f5989aa', 'data/2024/onto_itinerary.json': 'e8f7eba84e3b635bdc8bd2c110d5f5370857bc752b614b6a4d5e3c80650d1713', 'data/2024/scan.md': '91dd35980446fc4fb17a4c688534575d72b41b640d18e31d171037a150783ad4', 'data/2024/survey without.csv': '993b2b73392e84c5fbf727a5893db76ec0da67650d2382b7ddda9750efb11db8', 'data/anchor-interview.log': '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', 'data/feedback film.jpg': 'd05ee08dfca29dbaa181654d1f4ad7cf54228cfb41fa6e8e133711c554acfacd', 'docs/legal/forecast teach.csv': 'b3eeea98c9962e26b317e58f09a45fe8addaab1c122a91c27d25c18664a647d0', 'docs/legal/interview probably.png': 'e526442df14f4e18e107f7bac0d198ef9b440065b8baf221eca7c1b62829d90f', 'docs/legal/sketch.log': '810d21f29bcd8e57956c687a1ebedf8c4181f1ea874fea89bea0a3b01948fc6c', 'finance/payroll/Build_Schedule.csv': '5b393fd08927e78012264025d1c130a01b080a23ba2d263f31eb1f9f4334f1be', 'finance/payroll/notes prevent.sql': '377254c1cdd22187728d65d1164a5515622fcfddf4168994b1add26ce720eb7b', 'finance/payroll/receipt there.xlsx': '2f26aef46cf4b36d75b446117713363231db6f95931beb0875c050837c5613de', 'finance/payroll/transcript-enough.txt': 'dc936d681f729e29376a0dd197ca9ece3178cada0920a0f7e4ee0a98ddbf286d', 'finance/payroll/tundra-tutorial tmp.png': '9f51caad423e5efb44011fafb9edb92c0eb2ca34a31c04c130b470174f13cf22', 'images/press kit/However_Diagram.mp3': '554be6120567f4241013235476c6a0f65efa441679bb99107da2701dc1536729', 'images/press kit/chair_resume.txt': '6f9e0baeaf12bfd842af976dea70bdd8b87d95c4e9335b59b96e13c1e379c0c6', 'ledger six.docx': 'ec4f014916692dabf2f95c4a3aeeef4da9ce2948bd7fc3ec4803d3685bb5bf34', 'lynx-template.json': '9db5a1d6c5449c9593be6e7bd7d52d5842b03f5d27879afdd4b1ee21d6c33b30', 'pine-mockup.csv': '8be895ae735557cde87425da306f8d7e77c7d727f15327a07bc7776eab26ee16'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/integrity.json': {'ok': ['./data/2024/survey without.csv', './finance/payroll/Build_Schedule.csv', './images/press kit/chair_resume.txt', './ledger six.docx', 'data/2024/scan.md', 'data/feedback film.jpg', 'docs/legal/interview probably.png', 'docs/legal/sketch.log', 'finance/payroll/notes prevent.sql', 'finance/payroll/receipt there.xlsx', 'finance/payroll/transcript-enough.txt', 'images/press kit/However_Diagram.mp3', 'lynx-template.json', 'pine-mockup.csv'], 'failed': ['data/2024/onto_itinerary.json', 'data/anchor-interview.log', 'docs/legal/forecast teach.csv'], 'missing': ['./Portrait-Heavy.docx'], 'extra': ['finance/payroll/tundra-tutorial tmp.png']}}
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
