#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/brisk-reef-vault': {'files': {'archive management new.gz': 'fab92ebaaf040401a5ee07a2f4538fa33ce0ba6ab82bd68909607bdc8fd7c380', 'audio/catalog-allow.csv': '064097c55c0ea912a9f902f306f586d737f6fd0a9cb43ecd96ec95e1f7f4ac7d', 'build_schedule.jpg': 'c8642cbd05f9a322045e4aaea42e9ad9d734b677bfaa70823f49fcb5fbfe57a4', 'build_schedule.xlsx': '5ff13877ba3f8d47839a6ad37ab12bc9d1a62c155dfd68a0f312230fc54514c2', 'finance/payroll/export-reach.sql': '3c058bf3b4698d7f11a7a8b97e130e7cb0779d6a4955d5695d8fe6140c3cdea0', 'finance/payroll/falcon-snapshot.png': 'ac5ff75e2eb6c898b448585f73cd3d1fc033f86a2552884906f66f0bebebee2e', 'images/fjord-sketch.mp3': 'ae25b5c3be42c59a1efefa2d04c54849dfb6b361a8631b6fe3bfc654e650ba7a', 'images/horizon-diagram tmp.jpg': 'b8d963da789806a5a5b093d6b635c96978fb092146f06ae3639db0c2c3ed39c5', 'manifest-entire.json': 'd011269ddd810944c4f679123fc27e69181a5571a3658de4c5e14abae1b1fb0e', 'quote social.png': '97de81477ef4dba964877fe9b09edc5ca4cc397e661909928182234beb29ea36', 'woman_feedback.log': '8fdba2dc3b48416a4fcff6195f650d56e819103e1bd823de4d4c57465c724a4c'}, 'links': {}, 'dirs': None}, '/app/replica': {'files': {'audio/catalog-allow.csv': '064097c55c0ea912a9f902f306f586d737f6fd0a9cb43ecd96ec95e1f7f4ac7d', 'build_schedule.xlsx': '5ff13877ba3f8d47839a6ad37ab12bc9d1a62c155dfd68a0f312230fc54514c2', 'finance/payroll/export-reach.sql': '3c058bf3b4698d7f11a7a8b97e130e7cb0779d6a4955d5695d8fe6140c3cdea0', 'finance/payroll/falcon-snapshot.png': 'ac5ff75e2eb6c898b448585f73cd3d1fc033f86a2552884906f66f0bebebee2e', 'images/horizon-diagram tmp.jpg': 'b8d963da789806a5a5b093d6b635c96978fb092146f06ae3639db0c2c3ed39c5', 'manifest-entire.json': 'd011269ddd810944c4f679123fc27e69181a5571a3658de4c5e14abae1b1fb0e', 'quote social.png': '97de81477ef4dba964877fe9b09edc5ca4cc397e661909928182234beb29ea36', 'woman_feedback.log': '8fdba2dc3b48416a4fcff6195f650d56e819103e1bd823de4d4c57465c724a4c'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/repair_report.txt': 'UNRECOVERABLE build_schedule.jpg\nREPAIRED finance/payroll/falcon-snapshot.png\nREPAIRED manifest-entire.json\nUNRECOVERABLE thousand_proposal.mp3\n'}
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
