#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/datasets/quiet-island': {'files': {'assume_interview.xlsx': 'c29b82a25b78c196b9b68df06a46dbb76d65449b57d668577e7318c636c53850', 'contracts/2023/falcon-panorama.csv': '4700da2496400a3f6501b92132387c15c7e4bfbb9505f1f79efdba5a12642615', 'contracts/2023/horizon-diagram.docx': '6baa6d004cc6a7fc64f2cab5938c0eaf2a05ffaff41885b6ad766a10f5a3223d', 'contracts/2023/schedule-four v2.gz': '374c3814c8b36a13a1c7123763601cad730009e80ae05250b8157ef7ece9f6f1', 'contracts/2023/tutorial-apply.xlsx': 'f2aa444e04b541f4b46fee20dae73c7fc6039ffb1e828be9aa4b37ea6925cf5c', 'data/2024/Estimate Analysis.jpg': '546ff80cf90a7640bbfe58bd29012be3515d80ffcb042cc3ec621a5dd2dfda77', 'data/2024/bison-template.md': '1a1178c6effc078ca18a8862d6bd822c875b7018d61ee9b286f3e2d6adf9ce0f', 'data/2024/expect_inventory.csv': 'd29b5239f7fc59e1fff64d3ec53d46d12a2f44fe136ad7e6f34f01301da536a3', 'data/2024/falcon-panorama.json': 'e02159d2625eeb39b47bde305383932d0c1b92bf6ebd907651f2a7538c9b3e62', 'data/2024/interesting_inventory.log': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'data/2024/timeline-air.jpg': '5c79b60ecdf605de1a586e79b20f5454c23eb83000effa1d857aa223f630c349', 'docs/and_warranty.csv': 'b12b7d6d1badee393a83db52cfdc69e5d063d9a100b61df4f788e488290604b4', 'feedback way new.gz': '9610f7c62c7ecfc9cd058f1118a4ee3fb93652129cf8092483320fdba02a7eb4', 'manifest.sha256': 'f62ac3639a8c109a08827a62839bc2fd9788938ccd5c1145a81037dfe6d60b46', 'pebble-portrait.docx': '56f1e1d6e158bc806d0aa9f6e2b821c365679e23054e0e4fd73b255f659e8b28', 'pricelist.docx': '4649274abd6f8d6bb2cda378233013e4650792acacd62ce1a2df438c618a11eb', 'reports/q2/memo-land.png': 'a359f6b5b63f8f492ef83f56025cb9966e5f99a92c5951890f355c73f76d6ecb', 'reports/q2/sketch.gz': 'd3e458f1681efce366be9667d4a621d2965274a2f74dc819f6403e60853ce0f8', 'reports/q2/ticket into.csv': 'dae00ea48d326eef912327f89ddf6d9fae52979f6cd0b76f4c7caf18e853b907', 'slides-card new.png': '8cd3203aa54ffbdafaac67bfb9de1b68c63da817c7722a64efd2e2c7b5235172', 'vale-portrait.png': '808c2bf50e389225bdcfa081389be2424b566da413b0db62b995deb82a7336a0'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/audit.json': {'ok': ['./contracts/2023/falcon-panorama.csv', './reports/q2/ticket into.csv', './vale-portrait.png', 'assume_interview.xlsx', 'contracts/2023/horizon-diagram.docx', 'contracts/2023/tutorial-apply.xlsx', 'data/2024/expect_inventory.csv', 'data/2024/interesting_inventory.log', 'docs/and_warranty.csv', 'pebble-portrait.docx', 'pricelist.docx', 'reports/q2/memo-land.png', 'reports/q2/sketch.gz'], 'bad': ['./data/2024/falcon-panorama.json', 'data/2024/Estimate Analysis.jpg', 'data/2024/bison-template.md', 'data/2024/timeline-air.jpg'], 'missing': ['./data/2024/manifest.md'], 'extra': ['contracts/2023/schedule-four v2.gz', 'feedback way new.gz', 'slides-card new.png']}}
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
