#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/mail-archive': {'files': {'KATHLEEN-MAIL-2023-08-08T18-35.mbox.gz': 'eef1f11aaab2c85285d057790df1907644d640311a0227224da1620265827d2f', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'archive/kathleen-mail-2023-05-09T00-00.mbox.gz': '5398f7cd399fceb694649f9fd720b4571d02a78433afc3952ce903ab16554c15', 'kathleen-mail-2023-08-08T18-35.mbox.gz': '3eb25f0050db3cd8a2ddf5d2af31952b73a36e55740cbf86928f32ae133be8bd', 'kathleen-mail-2023-08-08T18-35.mbox.gz.tmp': 'ca00c3c7893395dd2e7e32a60eeeb5542df4d1048e5ecbcaaeee68af3a002a05', 'kathleen-mail-2023-10-27T22-40.mbox.gz': '4b1b7404494945a955cfc47695d94a094e57658d116537834c60d3f0641d6f67', 'kathleen-mail-2023-11-05T10-30.mbox.gz': 'cf110e32f40dad0fc4ac7394bf5c176be4e84ebeb9c10bdbad5c3f08649f9f5d', 'kathleen-mail-2023-11-24T20-30.mbox.gz': '60daf4d2e9bf80faf7165cf6dab96c7906814d8e314f93b20f5f0c667afa6be1', 'kathleen-mail-2023-11-29T05-50.mbox.gz': '472425a5a4b6a0cb2414d1513e3ca444e0c112ab310710960495452fb4429e54', 'kathleen-mail-2023-11-29T07-40.mbox.gz': 'b7e6356a52dfeecfdae265cd87af795599a738f607f696ac57c266de36b3c689', 'kathleen-mail-2023-12-11T20-05.mbox.gz': 'df82d88adc3bd4a7fd2b88847f4cdb3d0a0a87b8f3bcbcf4de649faffb60d402', 'kathleen-mail-2024-01-15T00-55.mbox.gz': '3009aea80435f1c9d6f0e9e0c5a1badc8d9b8975987901de7e7bd2b0941c36fa', 'kathleen-mail-2024-01-21T09-15.mbox.gz': 'bbc88d7118bb82b4be3e59524516ea2c600f366349262c163cf4511f73092881', 'kathleen-mail-2024-01-24T02-55.mbox.gz': '302e61ef6fd78fe368b06874de8137b7736a1b37ade2c32164b84caa2cda00df', 'kathleen-mail-2024-01-24T10-20.mbox.gz': 'f8cd4f181cb4fa6fae24d1bae6d80bb0007f0956c65c9932b1c5a8ced1febecc', 'kathleen-mail-2024-01-24T23-25.mbox.gz': '91eab7c6bf3fef3f015c86a13f8b8164a9063d559937c07b893095f91ea68ed7', 'kathleen-mail-2024-02-18T21-50.mbox.gz': 'f4351fe95b5cf3605c45b4184beef60b982aec71633ecaec25aba35d38558ea3', 'kathleen-mail-2024-02-25T23-35.mbox.gz': '07083679cd41b8581f7692753e8750b687b2e5ac3cbb95d4f809c005faca9ac1', 'kathleen-mail-2024-03-07T12-40.mbox.gz': '2ff4e9858438e64b5ee6db17911aa33aff4cce2bca1350157ab0eb05d7b0f25f', 'kathleen-mail-2024-03-13T13-40.mbox.gz': 'a677633ccc17e9af7e9e159452340349968fa8a7e667d3c12f4db75bd1d37f7e', 'kathleen-mail-2024-03-16T21-45.mbox.gz': '3494b4cf301e6ffcde88f8b2fcb7ca52f3c48f3b6b5b6acabb58a054b9e89387', 'kathleen-mail-2024-03-20T07-45.mbox.gz': 'eaf39a73061c1c923484767f009248f1f6d02d8b2c5b7b80e9af6cb0457b4547', 'kathleen-mail-2024-03-25T13-20.mbox.gz': '7244282dc1b6e6864ac9f0348cdce3f463586b655ab399bd85824368e542942a', 'kathleen-mail-2024-04-02T21-10.mbox.gz': 'd0e7b4ca678a8abae0c0cc6dc54c136102282396173e7d14b3bafef9571172d6', 'kathleen-mail-2024-04-04T21-15.mbox.gz': 'ef372de7f94f3b88f7b5aa9408432e38fa15c01b57f6ed67725dce3bbfad07ed', 'kathleen-mail-2024-04-20T20-10.mbox.gz': '3ab8e2527999df5cbca8ac2625730491e4547cfad967d0eb76d636024d4ddf24', 'kathleen-mail-2024-04-23T21-10.mbox.gz': '8c06b92b72a6ac0b349f29293e8d4e71af91ec35df6f0e00e3754f9c9abca182', 'kathleen-mail-2024-04-25T10-10.mbox.gz': 'daf8fe3053019501fbe06323db37f863a7241e7808af7ac796ef57c8123e76a6', 'kathleen-mail-2024-04-27T12-30.mbox.gz': '54cdfca4be6ebe3d1f71ee0de53ef81ca339d9d44e8f7ce47da87810ccd4d70b', 'kathleen-mail-2024-05-01T06-05.mbox.gz': '677ec7d49b146e96e6d8cd3bd0c9845a6fccc84eeaf0e7c868e87810e221e0f5', 'kathleen-mail-2024-05-03T20-05.mbox.gz': '25653a21624e306d6643321df212f9b78f09911442d87c9d9e18156e3f71266e', 'kathleen-mail-2024-05-12T08-35.mbox.gz': '83ef0207594bc39dec60ad261560bfd85ae0896edd311d7c41a4a9ce6df13e9e', 'kathleen-mail-2024-05-12T13-55.mbox.gz': '983cdbf593150857d911d6e8ee4edb96fcf5d5e8fb3cd444e02ca628dc48d153', 'kathleen-mail-2024-05-27T11-10.mbox.gz': 'dbcc59f40e84583a0a8367cd96496e1c4b2303c3bdd5235421aaafaaa9bfae40', 'kathleen-mail-2024-05-31T15-15.mbox.gz': '58729655e81211dde69f4ffdd9fafeba5ae7c6341cd12a5a506ec390094eb7b5', 'kathleen-mail-2024-06-13T05-25.mbox.gz': 'e3396d3c3f369eb4bc036347e16213a613ffc62a84a1d2280d8178798b605a42', 'kathleen-mail-2024-06-27T23-20.mbox.gz': '2cd3c02e9893ec3d037cda1cf195ab04408c5065f58025b713ebd8c5942f2e3b', 'kathleen-mail-2024-06-28T09-15.mbox.gz': '91b3901b0d28bfe8851d8e7976955459182c998fa896db0e9d1a33ebe57811b0', 'kathleen-mail-2024-07-11T07-15.mbox.gz': '54b8061fcc262680a290995b3033592a445104431d5aafbbeb3d3b05c72d1ca7', 'kathleen-mail-2024-07-22T12-25.mbox.gz': '892d156bc7dfb1e5f1d413dc344343217efa47eeec1865e130db3be57c817f29', 'kathleen-mail-2024-07-23T14-00.mbox.gz': 'fee033b1684493be935634eba322f551a7cfb771783b6fadf8ff2b6930667477', 'kathleen-mail-2024-07-26T10-05.mbox.gz': 'c0fb468fbbd966b273fb1af2a3b102469f8ddf9e95311050d794d9f14797c2dd', 'kathleen-mail-2024-07-31T15-40.mbox.gz': '1992eec0732773e87d7d1a7da0081c2767528953bdf47f496facc3e9c5c5e46e', 'kathleen-mail-2024-08-01T07-30.mbox.gz': '51f452be2aa91afd6ca216bcb7fa022b58a0fdb0c657efb9ea4e7a68ecc4e940', 'kathleen-mail-23-08-08T18-35.mbox.gz': '786cc1d6000673da59696dd250b98d0069abe576492613ea29159f665f33e4c7'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/cleanup-plan.txt': 'DELETE kathleen-mail-2023-08-08T18-35.mbox.gz\nDELETE kathleen-mail-2023-10-27T22-40.mbox.gz\nDELETE kathleen-mail-2023-11-05T10-30.mbox.gz\nDELETE kathleen-mail-2023-11-24T20-30.mbox.gz\nDELETE kathleen-mail-2023-11-29T05-50.mbox.gz\nDELETE kathleen-mail-2023-11-29T07-40.mbox.gz\nDELETE kathleen-mail-2023-12-11T20-05.mbox.gz\nDELETE kathleen-mail-2024-01-15T00-55.mbox.gz\nDELETE kathleen-mail-2024-01-21T09-15.mbox.gz\nDELETE kathleen-mail-2024-01-24T02-55.mbox.gz\nDELETE kathleen-mail-2024-01-24T10-20.mbox.gz\nDELETE kathleen-mail-2024-01-24T23-25.mbox.gz\nDELETE kathleen-mail-2024-02-18T21-50.mbox.gz\nDELETE kathleen-mail-2024-02-25T23-35.mbox.gz\nDELETE kathleen-mail-2024-03-07T12-40.mbox.gz\nDELETE kathleen-mail-2024-03-13T13-40.mbox.gz\nDELETE kathleen-mail-2024-03-16T21-45.mbox.gz\nDELETE kathleen-mail-2024-03-20T07-45.mbox.gz\nDELETE kathleen-mail-2024-03-25T13-20.mbox.gz\nDELETE kathleen-mail-2024-04-02T21-10.mbox.gz\nDELETE kathleen-mail-2024-04-04T21-15.mbox.gz\nDELETE kathleen-mail-2024-04-20T20-10.mbox.gz\nDELETE kathleen-mail-2024-04-23T21-10.mbox.gz\nDELETE kathleen-mail-2024-04-25T10-10.mbox.gz\nDELETE kathleen-mail-2024-04-27T12-30.mbox.gz\nDELETE kathleen-mail-2024-05-01T06-05.mbox.gz\nDELETE kathleen-mail-2024-05-03T20-05.mbox.gz\nDELETE kathleen-mail-2024-05-12T08-35.mbox.gz\nDELETE kathleen-mail-2024-05-12T13-55.mbox.gz\nDELETE kathleen-mail-2024-05-27T11-10.mbox.gz\nDELETE kathleen-mail-2024-05-31T15-15.mbox.gz\nDELETE kathleen-mail-2024-06-13T05-25.mbox.gz\nDELETE kathleen-mail-2024-06-27T23-20.mbox.gz\nKEEP kathleen-mail-2024-06-28T09-15.mbox.gz monthly\nKEEP kathleen-mail-2024-07-11T07-15.mbox.gz daily\nKEEP kathleen-mail-2024-07-22T12-25.mbox.gz daily\nKEEP kathleen-mail-2024-07-23T14-00.mbox.gz daily\nKEEP kathleen-mail-2024-07-26T10-05.mbox.gz daily,weekly\nKEEP kathleen-mail-2024-07-31T15-40.mbox.gz daily,monthly\nKEEP kathleen-mail-2024-08-01T07-30.mbox.gz daily,weekly,monthly\n'}
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
