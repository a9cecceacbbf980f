#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/calm-mesa-release': {'files': {'Checklist.gz': '0b62dcc7b4bb882f66df956bb5e036316131f3d18e2b146e382c8f6c9e38b9a3', 'SHA256SUMS': '47d828e6a5174f419232bfd554200639b8e2340677d63f2f762fc1282e054d24', 'badger-itinerary.gz': '2626882b82ba4f7e1cb7da05b197e20c67dc9b0cc010b4389ebda93b55ee48e8', 'contracts/2023/expect_inventory.md': 'c793c70e406966eb186911c7a9021e41f818ce370a958a3df097b294144fa719', 'contracts/2023/snapshot short.csv': '7354b13de35317fe322c540b665d44eaf33814e6954d5e5cc43f97311f248119', 'contracts/2023/tundra-invoice.xlsx': 'db3544180917e194b3151dd86a9fe76ad8bceda0b83b16799e6de7d8d700aa0d', 'misc/HANDBOOK MORNING.xlsx': '1d45ac5133c241c1cb4c35f7718a2099024d49d23f9098ec4b59ab6c3990ae26', 'misc/checklist.txt': 'f468aa42ae56f1b33c1b59eb5a1f0e871e158f1a46e258be8078c04abd6ce2af', 'misc/schedule-four new.log': '0eeac294d2f5c5740fa6ec1736819f160d6454b036b1f98572f6d76314ea4b2f', 'misc/snapshot short.md': '4ea6283f8b7e9c096838ced0d875a82672d65ce494204f67219fe89241a4bc30', 'reports/q1/scan.mp3': '4b34fb490327516b323911ec91d9925237f2851c233be1d3fe70fcc861c2cd06', 'reports/q2/however_diagram.jpg': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'reports/q2/interesting_inventory.png': '0214aa740b3d24436dff3aa560620954326d7f29b40a3eb0204c58c134618708', 'reports/q2/memo-accept.xlsx': 'a5864ac64520b0caf893f55965dc1595faacea73c9e2bbd1868792ab864fffc9', 'reports/q2/show_resume.gz': '94453a58d21c6d568b04931d3f37c6cb57be58121ae44c72103f72344f518800', 'reports/q2/show_resume.pdf': '43a63950d65da86cf3269f03a34095498ab6745f4ccc23b7092138fd6180768c', 'reports/q2/survey-man copy.md': 'e75c783fa0c26f0ff560cb0bfdd4e3b723e5b4fc7b949ca555f36e232d8054ae', 'snapshot short.xlsx': 'e3677636bb82015f856c793efc8365a5710469d516aee64f5b88a78b8783b4f2', 'src/remain_template tmp.csv': '85e1ddeba28b37c418c0c434f61760e90ec9d8a78b56ca0956b9c8cf2de67c79', 'survey-man.log': 'ac44ea6560324d2c48eb1534b273978b600050a769d0ce98e5d96d2fb96f74f0', 'would_notes.json': 'cfeb4f5b562d72f017eb7d5d759e553c08635df0a5938b967508bf038186d08d'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/audit.csv': 'path,status\n./Checklist.gz,OK\n./misc/HANDBOOK MORNING.xlsx,OK\n./reports/q2/memo-accept.xlsx,OK\n./reports/q2/show_resume.pdf,CORRUPT\n./survey-man.log,OK\nbadger-itinerary.gz,CORRUPT\ncontracts/2023/expect_inventory.md,OK\ncontracts/2023/snapshot short.csv,OK\ncontracts/2023/tundra-invoice.xlsx,OK\nmisc/checklist.txt,CORRUPT\nmisc/schedule-four new.log,EXTRA\nmisc/snapshot short.md,OK\nreports/q1/scan.mp3,OK\nreports/q2/however_diagram.jpg,OK\nreports/q2/interesting_inventory.png,OK\nreports/q2/show_resume.gz,OK\nreports/q2/survey-man copy.md,EXTRA\nsnapshot short.xlsx,OK\nsrc/remain_template tmp.csv,EXTRA\nsrc/sketch.jpg,ABSENT\nwould_notes.json,OK\n'}
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
