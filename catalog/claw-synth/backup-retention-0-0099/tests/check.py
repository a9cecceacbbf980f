#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/wiki-exports': {'files': {'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'WIKI.20260215-1505.xml.gz': '7fba53ab09ea2af6c613d2495c16c2be6ed007763b65527c9745b77d02363cd8', 'archive/wiki.20260105-0000.xml.gz': '364d248bc8957788602c3ea23dd6d7410aae23949823ed62b578ed28020d2f0b', 'wiki.20260215-1505.xml.gz': '3e32a12b329e410c224787cb1eb381289a856624b29a94e5328ba52935d93140', 'wiki.20260215-1505.xml.gz.partial': 'bec3ccd7adfa7eb08e99b94c47195fb29c73080661a06a280e751a48dcdae1c0', 'wiki.20260315-0435.xml.gz': 'd9b92bbaa098e481bd4b358b70ca9458c8c432b3dccd503d4429253b635c7e47', 'wiki.20260322-1410.xml.gz': 'a55732cabf6c7e1f01f3292fd744da1be59fc724e105d152706067d0cb38d37a', 'wiki.20260324-0845.xml.gz': 'bc99a5e3a04bd2ac040d396bd6e49a43197f9768471b8626f8e13632e1fb3476', 'wiki.20260324-1555.xml.gz': 'a684e83b547ffcddb60af9473a365f2e48ad0e3cf5e60a190120c5c8da71f38a', 'wiki.20260328-0725.xml.gz': '48dfa76ed0e45f29236f5da2146e9d8feb06a454a3ec1151bc83a71df4898e3e', 'wiki.20260402-0530.xml.gz': 'c1378603b03a93605baefde90f3bbfe162f9fcf1866c0a098aec151da1cf25c1', 'wiki.20260420-1905.xml.gz': '021f5c3faa21631cc4db59eecba0ddbbe4b3e19a06bfef6320f117e7f2982318', 'wiki.20260420-2130.xml.gz': 'c3791e4e91aaf8f76e228bd5464518819e5981ab30c67f278dffa3c53134e49a', 'wiki.20260503-1550.xml.gz': 'cf932fb3177ce9ec465c503a4ddb9c750cc5644f7fc045af1f5357c1556c5c44', 'wiki.20260505-0245.xml.gz': '6329e10d5a9516cf2e89449aecc63efaedd253ae0eac202c9651f7abf1a94f94', 'wiki.20260508-0945.xml.gz': '544ff03601a03af3eb1c37b070d3714c1aa04f138a00e1ff74ad945161f5915e', 'wiki.20260508-2145.xml.gz': '2acd1cf67f10804919b84fa924b5e2e06d42e48baa2e02a078bfb3eeab2932ba', 'wiki.20260512-1735.xml.gz': 'b2866ab0296a6b96137e559ab1abece96ddf0bc6fb21d1aeca1dfac91e92aca6', 'wiki.20260517-0000.xml.gz': 'dd42a0847858029dca76c6602b25c484842a13525732dfad952977aed06e7430', 'wiki.20260517-1020.xml.gz': '10f15ae7fe035f1b2c9c33dc023705d9f83ff8288c2e6e67fb2dac6c3888700c', 'wiki.20260518-0135.xml.gz': '286ef0797b2b7c79f55ee4f4a1c5d3852cf8cfd17247382efe102858a4295f1b', 'wiki.20260522-0930.xml.gz': 'deea79c6838f1ae43161f19b623e8db1d87d0f3910739403e83d664b57cd77a1', 'wiki.20260524-0225.xml.gz': '3c8a356370e92d350014f31e9df4a17c2881e7080748c072685b5652366bf915', 'wiki.20260525-1610.xml.gz': 'f03799d8f765b193f51d1a6d0b499a6ca799aed38af396148f1b78da2aa7ee41', 'wiki.20260529-2320.xml.gz': '5780df33bdac496466c9a51b247c358e759bec612ef67c878b495685574031b3', 'wiki.20260601-0925.xml.gz': 'a992ce4de47515f0e69a9f9f3fb476a703321cf661581cb487cba78684c8ce19', 'wiki.20260601-1505.xml.gz': '7702096660d3ca80710ddf343f542006d8a1f1fe526fb5164e59d55444d0f2db', 'wiki.20260603-0340.xml.gz': '8758585ce8213d7e3dac64405d6d9038372b72e18a4b19b831e4b36ab4ae3a23', 'wiki.20260603-1410.xml.gz': '9c434c3daafd325623a15c635c5ae7b5d888a088afa7e99355178f946c324a4e', 'wiki.20260603-2210.xml.gz': '8b5fe7ebdf911d69f3b6ea38723b19cb8df044956b7d54e9bb9a94353aff56d0', 'wiki.260215-1505.xml.gz': 'd7069239583ee2eb2fc66963d49388e71ec5b3f278694b2ef26a2689dfbfe466'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/prune-plan.csv': 'name,action\nwiki.20260215-1505.xml.gz,delete\nwiki.20260315-0435.xml.gz,delete\nwiki.20260322-1410.xml.gz,delete\nwiki.20260324-0845.xml.gz,delete\nwiki.20260324-1555.xml.gz,delete\nwiki.20260328-0725.xml.gz,delete\nwiki.20260402-0530.xml.gz,delete\nwiki.20260420-1905.xml.gz,keep\nwiki.20260420-2130.xml.gz,keep\nwiki.20260503-1550.xml.gz,keep\nwiki.20260505-0245.xml.gz,keep\nwiki.20260508-0945.xml.gz,keep\nwiki.20260508-2145.xml.gz,keep\nwiki.20260512-1735.xml.gz,keep\nwiki.20260517-0000.xml.gz,keep\nwiki.20260517-1020.xml.gz,keep\nwiki.20260518-0135.xml.gz,keep\nwiki.20260522-0930.xml.gz,keep\nwiki.20260524-0225.xml.gz,keep\nwiki.20260525-1610.xml.gz,keep\nwiki.20260529-2320.xml.gz,keep\nwiki.20260601-0925.xml.gz,keep\nwiki.20260601-1505.xml.gz,keep\nwiki.20260603-0340.xml.gz,keep\nwiki.20260603-1410.xml.gz,keep\nwiki.20260603-2210.xml.gz,keep\n'}
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
