#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/photo-backups': {'files': {'CAMERA.20230930-1755.tar': 'f6dd1e01f25f8b686d9be544276f49ba27484aa587d77df6e2847c49bbced018', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'camera.20230930-1755.tar': 'c7e0f7cc2b1cd75e4866ca880a4e6d683496788de9e8e69597ef534c086ec4fd', 'camera.20230930-1755.tar.tmp': '56c3c8ea5415b97e2fda4d4ca4591e48fa2db09f45ed72f98d4aadc8dd9fe5a7', 'camera.20231026-0425.tar': '8d86af260a4fc11ba49e31eb48d458f5fb18cb2328d38bbc77fa8f21b530135c', 'camera.20231102-0930.tar': '6176a5f31a03632bc604fa737e55fe288bcdbc479adebc42eff28b7b456b462e', 'camera.20231126-0310.tar': 'c8936315eba3abb9f3e2d10286d0fca9ec26a5e152837df8888c74ec3fb52275', 'camera.20231129-1110.tar': 'c10260c8976160c217d32bcd97f28a593fdf19fdd1165fe260a8a64efe269364', 'camera.20231209-1400.tar': 'a71e5637c9985a700eafebf96f834cf7bc4280db33ed776293c37ff209e05ef3', 'camera.20231216-1330.tar': '8a54a9cf91774603d222e32b74d1f8e90c84276c5c8264b47db88b4ba9d9e6d5', 'camera.20231217-0135.tar': '2802755f65da9863bd39c7191eba23f4f7d80f613e8f69a8e27d285d27ca0d97', 'camera.20231222-2350.tar': 'adf039cbb6ed95867479e644b8ca12f1fafb81bc2dcd9af72ac253cb673b7c02', 'camera.20240101-0625.tar': '80a8400f3d791770c33788028b7ba9ce29ffe1ef60bf5c508397d539cf27c19c', 'camera.20240108-0850.tar': '4b8532faaf3005dc669476f4b47041c3b53d1dbb915b3ba7c95a6a35f6e662f2', 'camera.20240110-2235.tar': '6c11ba59b6cf7e84bd1eeee6c8eee0101f057f51291b445f39d1177b8eb491d9', 'camera.20240116-1030.tar': '96d2d8a6920ccbe6180d275eeea5981de2fc091e87cdca24c5955428dfab0486', 'camera.20240117-0845.tar': '10162a3b29432038b38d409043d0cc5a99d975e8bd717cb38892d7f16ada0270', 'camera.20240120-1715.tar': 'ce9805611cb9f5d767d8d5a945789ee1628fa5ac506a0e9d0b7cbed20101889d', 'camera.20240122-0225.tar': '5778b03786c2158a571335da2f1206eafeed4155fd09a2b3841ae7b32354042d', 'camera.20240122-2355.tar': '08c9a9db1fdbe17e1f65d5ac4f2599f9bdc71696c862068444dc932160a6f2dd', 'camera.230930-1755.tar': '971146009656fab69f50b7d55614ad55c9c820b1d2459bee82439dcabcdfc8c5', 'manual/camera.20230727-0000.tar': '7123d449576585e47ad45a47f0af4f0c720aaf2b92d28f3cf0746522561d07eb'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/removed-backups.txt': 'camera.20231101-0600.tar\ncamera.20231126-0145.tar\ncamera.20231129-0900.tar\ncamera.20231209-0055.tar\ncamera.20231216-1155.tar\ncamera.20231217-0055.tar\ncamera.20231222-1050.tar\ncamera.20240110-0915.tar\ncamera.20240110-1325.tar\n'}
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
