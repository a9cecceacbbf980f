#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/camera_roll': {'files': {'.directory': 'c0bf72bcebd49ccd8eabbe808af06a3f27b461c28a8b8aae922340ed71110236', '.thumbs.db': '8597f7352b8996e42bf90f03ec77f953c645c7d896c7e84f37a9e4fd70c3d572', 'archive-2019/budget (3).zip': 'fd0f4e2466d45558a68627183abf236efe3762a42194d85887f68e5945948ef1', 'archive-2019/guide-matter.css': '3e94990bc57f353850ece69d5a06baa61f918b3cd33cb65d1a64fdca6043b398', 'compressed/office_report-v2.7z': 'b04d36c1062de9dc3fda92a9392e5ea11ac07e8d9f64f2f8f86f63621f736af9', 'compressed/physical_catalog.7Z': 'e7cd85cb9c43cfca5fbe8081fc0473bdd70f06fe3514e63484192e9c2f1d511b', 'decks/demo.ppt': '1ae2e6efa25b991843f8af52f175501082719aaec30a84e408d0d92471e02597', 'decks/selfie-child.KEY': 'ae2a14b9b7541693f416588716ddcffaf0d7480658002d082ef736ff4df12f7b', 'decks/tutorial road.key': '5448bcb4fe897b2fe222feefac428b3b2856d15250398f6afa24a66c31c9fefa', 'movies/archive management (4).AVI': 'cc169e364d5cdc7dbacbfca750131a442b827c84698ca548e48e7d41e0c2785e', 'movies/away_sketch.avi': '535186b9a8c3b5583cf79b6e0f83d5be4adc34edc7c0f8b4e8dddedfd3d1875b', 'movies/design_feedback-v4.mkv': '2b3bc017accd3986043d64c553540d63c8e32144cb6cc3d5bb81f7e4e3abd251', 'movies/payroll-than.xls': 'b93a227cf0522e488f78c87b6a1dd6bdb418ff485b69e0af0a6d9d890ec3926c', 'movies/statement (6).MKV': '819d4d1c69f1cff02d250324a7a4e26477013504c274d613c0777af54df1ab8f', 'movies/survey-man.AVI': 'fa57c419970a675ae6e68c96bf7b659d43f08556ee23744e182a70ac7134cd0b', 'other/Manifest-Entire-v5.GZ': '778f5be09fe195532f1ac49b48109aa99ee7b0d5918a014942487f5f972c1e7f', 'other/README': '1ad9a495f83a293a850d776ef26760ea1ea235b97925346738e6a0b11f10e3bd', 'other/letter method.pptx': '7d3cbbbebef6ca5cefbaa135f5dd1e184cf97ec5ae60aab1edb21574198db87a', 'other/podcast police.SH': 'cfd8b8619e706448ec661c1985a139a5e76aed49b6c3a42811c80aa0d1ebf864', 'other/remain_template': 'a06bebb935f8b2a416a6a111c0cfbf78435283bb79613e9b9df482d75036ce58', 'other/tough_ticket.gif': 'b74188319ebbe317325cb0605ffb160ec22d91bc0dddce2ae45cd2abfa8eeb85', 'other/warranty doctor': 'a02d24f6f61c2082576aa5c8e6d06a9c81fbbdad83483c2c25b154948e22a27d', 'other/woman_feedback': '7629fa440e182100163a0baa916da7369c366b8dd0f1bf0354611d9c5406d9d2', 'scripts/ledger_create.go': '9460c9bad634cb9a0efc8b464f708c26a9d5461201b8ea86c3fcad7c68e65453', 'sounds/office_report.ogg': '3c87265cf1cba45ea7564fb76365bf5a5162659a53413c3107af80f91d2c3a32', 'spreadsheets/timeline-air.ods': '2b46c7fae5a6a417f33e4c788844fb80c80b9230131a8c67cd349d0a62206f6c'}, 'links': {}, 'dirs': ['archive-2019', 'compressed', 'decks', 'movies', 'other', 'scripts', 'sounds', 'spreadsheets']}}
TEXTS = {'/app/moves.tsv': 'Manifest-Entire-v5.GZ\tother/Manifest-Entire-v5.GZ\nREADME\tother/README\narchive management (4).AVI\tmovies/archive management (4).AVI\naway_sketch.avi\tmovies/away_sketch.avi\ndemo.ppt\tdecks/demo.ppt\ndesign_feedback-v4.mkv\tmovies/design_feedback-v4.mkv\nledger_create.go\tscripts/ledger_create.go\nletter method.pptx\tother/letter method.pptx\noffice_report-v2.7z\tcompressed/office_report-v2.7z\noffice_report.ogg\tsounds/office_report.ogg\nphysical_catalog.7Z\tcompressed/physical_catalog.7Z\npodcast police.SH\tother/podcast police.SH\nremain_template\tother/remain_template\nselfie-child.KEY\tdecks/selfie-child.KEY\nstatement (6).MKV\tmovies/statement (6).MKV\nsurvey-man.AVI\tmovies/survey-man.AVI\ntimeline-air.ods\tspreadsheets/timeline-air.ods\ntough_ticket.gif\tother/tough_ticket.gif\ntutorial road.key\tdecks/tutorial road.key\nwarranty doctor\tother/warranty doctor\nwoman_feedback\tother/woman_feedback\n'}
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
