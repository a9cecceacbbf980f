#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/shared': {'files': {'guide-matter.csv': '6f283309b1b42a540ea459f0ee481ca3b5e2d46684c3574bf02bfc435c5e04d9', 'notes__warranty-human (7).csv': '4b024911f1fcfc98638379957ade5360044eb7a027b9934dc361b92baae89c8b', 'office_report.csv': 'ba2b3a18e84426c55bf156ecd82a3cd891da0a28c12ee7aba88cc135cc738a07', 'photos__2022__build_schedule.pdf': '114ce2e71869fde2460d41df957fa9784a7b54a107bb8b2374bf53bc13f57ab9', 'photos__2022__forecast teach.pdf': '68de57280e750d59d99a7ce3eb0f30007273ff05e0c3307cd6f810df6ed5cec2', 'photos__budget.mp3': '2dc9801fdaf8956d0f9a4ab6f70f372c41030b5f9c081a1321917b0cf352346c', 'photos__scan prepare.pdf': 'a059a9e91363ec9279ec43a2c9341f4b7968f196be8cb09a2d24068739d5531b', 'receipt there-v4.docx': 'd66778604413aafbffe0e4bf709e363dd9ab042512be9b9ca15605f1eccf1eb8', 'woman_feedback.pdf': '3214de0f51e24ba594eb79ec00a00596e1c58f94c43251bd3a50cc306bdad8e0', 'work__ledger six.jpg': 'd173aea082329c3a9eca2648a6463b8a731939b816a3b362040a836f8cdc7006'}, 'links': {}, 'dirs': []}}
TEXTS = {}
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
