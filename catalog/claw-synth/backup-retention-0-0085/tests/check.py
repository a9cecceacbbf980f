#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/srv/catalog/backups': {'files': {'PG-2025-01-28T22-05.sql.gz': '4d2c976370702f0ca928091dbf8a4f67aa138263d2402d9063cab765c3f9ee0f', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'archive/pg-2024-12-23T00-00.sql.gz': '4aecb0fe689b1292b88038d15824e36f88a782dabac79343fc99a630a4d97378', 'pg-2025-01-28T22-05.sql.gz.partial': '1dbb26462d6798902e424a0069a5a0faf6d5306e80e16f4d6271590ea288e244', 'pg-2025-02-23T11-45.sql.gz': 'e29f4aea5672411c7ed297629ef8d6563636a70f1d167eaf7ad6d8e1ca000a32', 'pg-2025-02-24T04-05.sql.gz': 'f61ecd536683a35c24c54399b9be3da6314c6586a116c54c1cd0f1443c634885', 'pg-2025-02-25T00-50.sql.gz': '7eb9725e97b9aff171b4f4db164e7344d368c084efecb52f12d0eadd338bfe87', 'pg-2025-02-25T03-20.sql.gz': 'b72999ceeb98fb83657a93abdaf623a715f6d3853771f0520d78582228b19322', 'pg-2025-02-25T12-40.sql.gz': 'c6b27ee8d60cd8ff2ebd17802d033fec4ae208066d8bb07da6fde188b3b4991a', 'pg-2025-02-25T19-55.sql.gz': '4966f34b55fa8b24b5817c739937aa8f26ee7275f19fb0b9131e1002f9d088ea', 'pg-2025-02-26T20-50.sql.gz': '96e290fe5f095f8bf97405f949148029640855315b46def93667ac4ec9f940c0', 'pg-2025-02-27T23-00.sql.gz': 'c27b6642932396cb8db821e05e6d4682f5fc166742e74fca6a4cade302f7e1d0', 'pg-2025-02-28T22-45.sql.gz': '928e9ffbd6a1ed390775187310486b83a2558e5a700fc74dfec0885f0ec557d4', 'pg-2025-03-01T15-40.sql.gz': 'ecff8e71803f7bf226bf2cb2a9f0a190690f9b5c07a723b216b501a91541f2c6', 'pg-2025-03-02T09-30.sql.gz': '9d805b3d4d2216f896bdaf3b236fe19d89344d745426be523a7c599368cc1c32', 'pg-2025-03-03T21-40.sql.gz': 'f40aaae101c3adffc14508cd317ac03f456d7a735bd3991ee83311e4fdfac528', 'pg-25-01-28T22-05.sql.gz': '0443e30ce536c88efcb310995945c3bfe5d62cbb3e1fb93f605bd2c297f94cb4'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/deleted.txt': 'pg-2025-01-28T22-05.sql.gz\npg-2025-01-30T07-00.sql.gz\npg-2025-02-03T07-35.sql.gz\npg-2025-02-05T07-10.sql.gz\npg-2025-02-08T09-05.sql.gz\npg-2025-02-08T10-40.sql.gz\npg-2025-02-09T10-55.sql.gz\npg-2025-02-11T14-55.sql.gz\npg-2025-02-11T20-20.sql.gz\npg-2025-02-16T04-05.sql.gz\npg-2025-02-18T09-55.sql.gz\npg-2025-02-19T01-40.sql.gz\npg-2025-02-19T08-20.sql.gz\npg-2025-02-20T11-25.sql.gz\n'}
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
