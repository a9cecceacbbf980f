#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/backups/ledger': {'files': {'LEDGER-DB-2024-01-02T11-40.pgdump': '1cc990c436ad0e469a87e495b836a7fa1a6c824d56d8e69f42697d727bf6115a', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'ledger-db-2024-01-02T11-40.pgdump': 'af6b96c1d4629db4d917e778d5b2ec4e6a3f7566ef5fbd0861113630f8f04ebc', 'ledger-db-2024-01-02T11-40.pgdump.tmp': '40ca02da8765a3b51e63de57a8b112ffb2e7eb6c3ba3edc277f6c6260a1da3b9', 'ledger-db-2024-01-17T03-25.pgdump': '35278e0a50e07dcd6df5bc625b2e45aa8f3c56c3df44566d6e94295fdd473d66', 'ledger-db-2024-01-17T05-45.pgdump': 'a431aa9af1f7c3afe7ba547171350ec3be3e28588a86b9af49351aa4a6a97ac4', 'ledger-db-2024-01-18T16-10.pgdump': 'e5c5953116bf7f952758c2e405c7c9b19d7951d066a1d2a097481a28b0a8432f', 'ledger-db-2024-01-18T19-45.pgdump': '6ee3f5bb1cb5a87fad787df9d28aa490a5bed711981dee46c01866d0a9579334', 'ledger-db-2024-01-31T22-40.pgdump': '35a25e2814cf8dd7b42bc40bbe4d5b8702b4c8de5b0e0a133fdfd1a08bfa8ee6', 'ledger-db-2024-02-17T21-15.pgdump': 'eb39181c37808b656834ee87e7e7279fd6ba339098976ae1e6d1a6998dbbcf3e', 'ledger-db-2024-02-19T10-40.pgdump': 'ccdf759cca36c676ad0238f8aa485289f9caa7468c855e2054fe8d2904ec8380', 'ledger-db-2024-02-20T07-35.pgdump': 'a21fd3dbe00c4b277e7691dbb31f59efb77cfea9a563f8152c91bca404d7318b', 'ledger-db-2024-03-05T10-25.pgdump': 'bcd6770e7f9415156493b1be8df88a17e6ff28c4b12e1234b3a2e8c39bc2dd00', 'ledger-db-2024-03-15T02-00.pgdump': '1412898028322dd7f5a490c16bd608dc2b90ccd07553bbc3155631255ddda606', 'ledger-db-2024-03-15T14-35.pgdump': '5cf29d8eb7c1fba83f93b98b8789b80583da44064ce9243ce2e5cb0c4b185b07', 'ledger-db-2024-03-17T01-20.pgdump': '7c708be41b7f2cd157d5ae613cc323f2dee27db830d554d3f2d5311210050765', 'ledger-db-2024-03-20T03-15.pgdump': 'a91c2f193f0bff54453e00a6316ab29a0a570e26081633a824204a02dc933512', 'ledger-db-2024-03-20T07-25.pgdump': '0cf57e8c825d7585f6ca0298239cfe242ae080e2f3ae97a8508dd7f6c8031e5d', 'ledger-db-2024-03-21T01-55.pgdump': '5d8a16741badf1796e2fa41d266050a5d1cb11e30778f94037b904260755eeb0', 'ledger-db-2024-03-21T20-00.pgdump': '2c109f733b61b23d5312358bc0d99dc64ba36764e9598634a38c08e5648c02c5', 'ledger-db-2024-03-22T05-15.pgdump': '2f8b43eb6529eb77568c3903df9af5b55cfaee5321c1ec10dd58edd5127f02d3', 'ledger-db-2024-03-26T01-45.pgdump': '7b706fd920a696e0b2de8e006d8771bba9cfde33155c5ad3486aa744dd6b9f0b', 'ledger-db-2024-03-26T21-35.pgdump': 'ccbe6854afe3d2865926c63ff76ceb3fc29cbd1fd23821336122b5ffbab610ff', 'ledger-db-2024-03-30T21-35.pgdump': '3f6c2277201089a0818fed1b91f8fbf52276c0e98d5d924cb3fad1e01744d839', 'ledger-db-2024-03-31T12-30.pgdump': '099fd05b7ce8c9677819d0996e5d7f9bc90517885a346f36b9c98e28b9b8a845', 'ledger-db-2024-04-08T02-45.pgdump': '5e7339210a94307648f71a4ce03b0526c6bb5e5b89ff739e6eee0ad95efefd3b', 'ledger-db-2024-04-08T06-20.pgdump': 'b86a220c5774bef550b0f544fea592de0e8ab504cd6ce82d1939e40237cd37df', 'ledger-db-2024-04-13T18-55.pgdump': '0d4243f804d96ee0fad8719cce562d4c475e5b295fca711124392c79f06373aa', 'ledger-db-2024-04-14T03-30.pgdump': '14adc8ea8deeb381f1f3cfe6cfc0bc222c4a309fefbc592221fe6814eb6e65e9', 'ledger-db-24-01-02T11-40.pgdump': '848d14daa34687fd9d725985d9f38f414c2c60bcd46df23c157af43be9bb31b4', 'manual/ledger-db-2023-10-18T00-00.pgdump': '0c12bf606eb38809755df26f4f42ae85e6ca4810ac1e1f4c71b295dff7e5b813'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/prune-plan.json': {'keep': ['ledger-db-2024-01-02T11-40.pgdump', 'ledger-db-2024-01-18T19-45.pgdump', 'ledger-db-2024-01-31T22-40.pgdump', 'ledger-db-2024-02-17T21-15.pgdump', 'ledger-db-2024-02-19T10-40.pgdump', 'ledger-db-2024-02-20T07-35.pgdump', 'ledger-db-2024-03-05T10-25.pgdump', 'ledger-db-2024-03-15T14-35.pgdump', 'ledger-db-2024-03-17T01-20.pgdump', 'ledger-db-2024-03-20T07-25.pgdump', 'ledger-db-2024-03-21T20-00.pgdump', 'ledger-db-2024-03-22T05-15.pgdump', 'ledger-db-2024-03-26T21-35.pgdump', 'ledger-db-2024-03-30T21-35.pgdump', 'ledger-db-2024-03-31T12-30.pgdump', 'ledger-db-2024-04-08T06-20.pgdump', 'ledger-db-2024-04-13T18-55.pgdump', 'ledger-db-2024-04-14T03-30.pgdump'], 'delete': ['ledger-db-2024-01-17T03-25.pgdump', 'ledger-db-2024-01-17T05-45.pgdump', 'ledger-db-2024-01-18T16-10.pgdump', 'ledger-db-2024-03-15T02-00.pgdump', 'ledger-db-2024-03-20T03-15.pgdump', 'ledger-db-2024-03-21T01-55.pgdump', 'ledger-db-2024-03-26T01-45.pgdump', 'ledger-db-2024-04-08T02-45.pgdump']}}
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
