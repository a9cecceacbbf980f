#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/vaults/onyx-anchor': {'files': {'DIAGRAM.sql': 'dd9fa3e53fbd459e67fbaecb39458ff463a551470b7c3a5fceb7da09a9192f60', 'diagram.txt': '1e72f837c6229465cfb47acc91548254c035de129e5050f83a3898d01715805d', 'docs/legal/forecast-thing.sql': '41771db6c3eee1357c8c3b797cf8d8bf532963c28845a49b692c0c6980fb9340', 'docs/legal/quite_brochure.sql': '3ea856e513d1e89a453da7dcf7930ed018d74b7d32285699fdf4beee345ffbfe', 'docs/legal/receipt-long.md': 'bf3dc1c64e5ae3608d59c23ca87908e1eedfcbe516e61ea160f2f6a9183db59f', 'finance/invoices/notes prevent.png': 'bf5cad093c1525e4be7da990016e4b29b85839cae36c7d9f50f43d5ff828c0a9', 'images/SAMPLE WHOM.csv': '88df9f1383f66b2cca4176f34da741ba6c0b990e811c431b070b18baaa081eb5', 'images/itinerary.csv': 'fa850a8626ed0919c13403749e5da21341d520e1434959662847ae1d77b48516', 'images/slides-music.gz': 'de7599393768cbf1ae88eed12c4582de9297e692c2e250fa388e2e469d4f76ef', 'memo evening copy.png': '24e7c4a899bada6c0d408de7fae34a303f2b8b8f7f676d4388f5fb64a0a45d56', 'misc/payroll-than.txt': 'a6a5048cbbc078c1caa7cca2fd694553d355ed328ff47e76bf1366b14f62b4ff', 'schedule-four tmp.csv': '5c190a7aab5df73054610498b85c44cc294a25f886709cbcd598eb1a394eb4a5', 'src/Mesa-Budget.xlsx': '85a07714779377364b4dbe80383933878958df7e480ae122230fb8ebe55c87bb', 'src/brochure-month.jpg': '2285f2a557c4b6672e502f4400bf0d2f1bf793be1d6a903caba4952ce79a1c80', 'src/diagram example.pdf': 'e0d94b55a64c4de830e60ce5fdc38415ae9626e00da9b4633311ee78728db3a7', 'src/export-reach.gz': 'd25b1bbd9553aac515659010e02094400780d91346496dbb5376ee408c780912', 'src/tough_ticket.log': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'vale-portrait.csv': '26d82d98c7627adf7fb0997ef99245edb6406894cc01a31b02b42336ca236080'}, 'links': {}, 'dirs': None, 'skip': ['checksums.json']}}
TEXTS = {'/app/changes.txt': 'CHANGED diagram.txt\nCHANGED docs/legal/forecast-thing.sql\nREMOVED images/podcast police.docx\nREMOVED images/warranty doctor.docx\nADDED memo evening copy.png\nADDED schedule-four tmp.csv\nCHANGED src/Mesa-Budget.xlsx\nCHANGED src/diagram example.pdf\n'}
JSONS = {'/app/vaults/onyx-anchor/checksums.json': {'algorithm': 'sha256', 'files': [{'path': 'DIAGRAM.sql', 'size': 151, 'digest': 'dd9fa3e53fbd459e67fbaecb39458ff463a551470b7c3a5fceb7da09a9192f60'}, {'path': 'diagram.txt', 'size': 47, 'digest': '1e72f837c6229465cfb47acc91548254c035de129e5050f83a3898d01715805d'}, {'path': 'docs/legal/forecast-thing.sql', 'size': 183, 'digest': '41771db6c3eee1357c8c3b797cf8d8bf532963c28845a49b692c0c6980fb9340'}, {'path': 'docs/legal/quite_brochure.sql', 'size': 151, 'digest': '3ea856e513d1e89a453da7dcf7930ed018d74b7d32285699fdf4beee345ffbfe'}, {'path': 'docs/legal/receipt-long.md', 'size': 245, 'digest': 'bf3dc1c64e5ae3608d59c23ca87908e1eedfcbe516e61ea160f2f6a9183db59f'}, {'path': 'finance/invoices/notes prevent.png', 'size': 216, 'digest': 'bf5cad093c1525e4be7da990016e4b29b85839cae36c7d9f50f43d5ff828c0a9'}, {'path': 'images/SAMPLE WHOM.csv', 'size': 139, 'digest': '88df9f1383f66b2cca4176f34da741ba6c0b990e811c431b070b18baaa081eb5'}, {'path': 'images/itinerary.csv', 'size': 168, 'digest': 'fa850a8626ed0919c13403749e5da21341d520e1434959662847ae1d77b48516'}, {'path': 'images/slides-music.gz', 'size': 162, 'digest': 'de7599393768cbf1ae88eed12c4582de9297e692c2e250fa388e2e469d4f76ef'}, {'path': 'memo evening copy.png', 'size': 63, 'digest': '24e7c4a899bada6c0d408de7fae34a303f2b8b8f7f676d4388f5fb64a0a45d56'}, {'path': 'misc/payroll-than.txt', 'size': 127, 'digest': 'a6a5048cbbc078c1caa7cca2fd694553d355ed328ff47e76bf1366b14f62b4ff'}, {'path': 'schedule-four tmp.csv', 'size': 63, 'digest': '5c190a7aab5df73054610498b85c44cc294a25f886709cbcd598eb1a394eb4a5'}, {'path': 'src/Mesa-Budget.xlsx', 'size': 60, 'digest': '85a07714779377364b4dbe80383933878958df7e480ae122230fb8ebe55c87bb'}, {'path': 'src/brochure-month.jpg', 'size': 187, 'digest': '2285f2a557c4b6672e502f4400bf0d2f1bf793be1d6a903caba4952ce79a1c80'}, {'path': 'src/diagram example.pdf', 'size': 172, 'digest': 'e0d94b55a64c4de830e60ce5fdc38415ae9626e00da9b4633311ee78728db3a7'}, {'path': 'src/export-reach.gz', 'size': 162, 'digest': 'd25b1bbd9553aac515659010e02094400780d91346496dbb5376ee408c780912'}, {'path': 'src/tough_ticket.log', 'size': 0, 'digest': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'}, {'path': 'vale-portrait.csv', 'size': 83, 'digest': '26d82d98c7627adf7fb0997ef99245edb6406894cc01a31b02b42336ca236080'}]}}
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
