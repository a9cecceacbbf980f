#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/exports/mail': {'files': {'INBOX_20240701.mbox.gz': '46ede8395b8388f4be9f4e12f6b050d2ec2bfca1d791e77d30b822e35fe86063', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'archive/inbox_20240513.mbox.gz': '26b8cf228778a6dfc8ebe895480443a1c244ebc68978c871c0a572dd9c372577', 'inbox_20240701.mbox.gz.partial': '1233aaac9f3dd725dad8e63de91ec3382b0afaa3e8c2589bf0dd1ffaebea1e0e', 'inbox_20240731.mbox.gz': 'acbb36cd9b4913ed506c1f13cbba7c7f8826e8c51e8c316c076590cf901cd455', 'inbox_20240828.mbox.gz': '09d0b2caa174024e3f060400e8e449bb8603fbd05663b15c656d7c960104f1b4', 'inbox_20240917.mbox.gz': 'ce0905eea027b43fe5a1c416882c07dbf6f199bf954dfdd2a1c835ed915afc8c', 'inbox_20241002.mbox.gz': '55567eae88016afa7d2301c3705b0a18df95332c53f3f6bad8ce0208c773ae07', 'inbox_20241013.mbox.gz': '2f2ae2e5ebd92adf4f0f3d42f287d5a1e6bccd430ad3a3d598dea7a9ef741372', 'inbox_20241019.mbox.gz': 'b4ab7728b011e0016f7cd1e9a7d2bf0b340cdb2cb228f8f0425df2be8e432384', 'inbox_20241023.mbox.gz': '257d7bd10072f3673a2e564872db65e32accae8fd5a02e87798338fd19dcbb9e', 'inbox_20241103.mbox.gz': 'c8c83cf6b4bfce93dd763b9741521194632203a82eb85bf495fc38b7d1244608', 'inbox_20241107.mbox.gz': '51d28bb5a919425d082685c020a605a983531002ac641008a1b4180ca053b949', 'inbox_20241108.mbox.gz': 'ab49c9c4374ed924ba3a96017fbd8b95cbd2d1e1f08ebfde75d6cf51a25d9e09', 'inbox_240701.mbox.gz': '4fba7c9f52522020773f03d927ae29d1f7971757ac8e9d16b29e4168f60dc322'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/removed-backups.txt': 'inbox_20240701.mbox.gz\ninbox_20240711.mbox.gz\ninbox_20240712.mbox.gz\ninbox_20240715.mbox.gz\ninbox_20240716.mbox.gz\ninbox_20240719.mbox.gz\ninbox_20240804.mbox.gz\ninbox_20240819.mbox.gz\ninbox_20240820.mbox.gz\ninbox_20240913.mbox.gz\ninbox_20240915.mbox.gz\ninbox_20241028.mbox.gz\ninbox_20241029.mbox.gz\ninbox_20241030.mbox.gz\ninbox_20241031.mbox.gz\ninbox_20241102.mbox.gz\n'}
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
