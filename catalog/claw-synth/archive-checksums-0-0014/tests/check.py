#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/vault': {'files': {'audio/BISON-ORDER.csv': '870ecc170f022864367595ebc51c26459a53868f6aa69107b532dd2698930e7d', 'audio/EXPORT-REACH.xlsx': '47df5b3d15afcde3c26aa2011d92c4e26e244d42591577adb596e623878e1c69', 'audio/falcon-sample.jpg': '03d3ab0605a60073da488111d3a53382dc49fb52327c5c50e143ca5833c7a676', 'audio/memo-land.json': 'dc06e80d5b1b15c31781fdce6f42ff8ee78b3c76000882c02c081e83f3d156f6', 'audio/pine-mockup.mp3': 'c14d31d813baefdbf36e9371a371efd75c56dfec365c1bbf0d35b97c47866b67', 'budget.xlsx': '80789b1fbfc039c08e11a134c3448ff0c54d8ca53c8a001657f417d5a4412251', 'contracts/2023/tutorial-apply.docx': 'ec770c8fb3105ff092166ffd9843e85d7551e41025ae3b7cd3ccf9595ee1972f', 'data/Bison-Template.png': 'f566c0dc8427c66bb67ddf876544fff005bcca0f8f05fb57a3e89231362c5f9f', 'data/Budget.jpg': 'd2b50d94a8143b01975fd35680df4e24feccd0d0cd658cd7d2b171104954912f', 'data/Catalog-Allow.jpg': '6471855c960c3f1f12c8ce21f8df1bd7a7caab3a8373a778a9b68faeb644b7b1', 'data/TIMELINE-AIR.jpg': 'dda7d72d0715bb8fd1544466683c136c764d8d8b7ebf386468c4d96ca338c60f', 'data/interview probably.pdf': '22f76fc3f0f39720097450ec61de581c40e4480cee57f05f340f9250e2b7e19f', 'data/receipt there tmp.xlsx': '7f76ee3e441c97bc723f5d1a42cb03ef2f56029d56a09ab721b73989bdd4211c', 'data/survey without new.gz': '5291dafeaf9724149f3cbb70e5bc0850940f97dd1670f204013454c5812ea8c2', 'docs/WARRANTY.jpg': '386293e343a1c01a1d5e1629deedb01b31c3f8cfcee0a393fa8b06d53d206324', 'finance/invoices/badger-itinerary copy.sql': '26f6f5d378c043186fb02daf2de0d7002049dc8b58c92ddcceda81d5a3d801e1', 'manifest.sha256': '2fdab632fd83d3c4b64d783c613d29f733a649f83bab2bd8e068b42262d2e648'}, 'links': {}, 'dirs': None}, '/app/brisk-reef-quarantine': {'files': {'data/Badger-Itinerary.sql': '34f3d98e49fd0d150bbe9d1921b7699a45b3d75f792e9e629c186c2f5b971e04', 'docs/EVIDENCE_SAMPLE.docx': '697e37aacef0d0f46f1f3118b6c9f507fdf2d28b37e409cacc842fce8c6b3009', 'docs/pebble-snapshot.csv': '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', 'finance/invoices/pebble-portrait.jpg': 'b810e9f81cb5a409345836a3e27ad60231de07419366b3bad59799ebf1a87838'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/damage.txt': 'MISMATCH ./data/Badger-Itinerary.sql\nMISMATCH ./docs/EVIDENCE_SAMPLE.docx\nMISMATCH ./finance/invoices/pebble-portrait.jpg\nMISSING docs/Lantern-Panorama.sql\nMISMATCH docs/pebble-snapshot.csv\n'}
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
