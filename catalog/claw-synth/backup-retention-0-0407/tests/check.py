#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/backups/reports': {'files': {'mysql-2024-09-25T21-25.pgdump': '175b4343fd61c8e79434cd8fa1593ddd4db3e50c20acbba985916126c114eda1', 'mysql-2024-10-29T21-45.pgdump': 'a18b92c05a6ee73b45eaa9d93270af26b1dc55cd04add528b4b8900299acf4f5', 'mysql-2024-11-28T17-35.pgdump': '9a78218e4bbd99e86ce662da0a22d97f55f58b5045130a8ddf0ecd1cac9b16ca', 'mysql-2024-12-01T02-15.pgdump': '825fa162779770dfdb6303ae9dec42a42eb3bd191da044ffab21550a3785af14', 'mysql-2024-12-05T19-55.pgdump': '2b30a5eea58bacfc8457b6f560b0123921e03ab24f1f0c7b57d3bea0f583708f', 'mysql-2024-12-19T22-15.pgdump': '5f7b93d888372dae3afad937dafb61f7c40684dca4adcfb16d26ddd4cebb5bc6', 'mysql-2025-01-07T21-05.pgdump': '47187e4ea2ec837f8e6c8505d85d61cd17eda8c037e651208ab6f98ceddce848', 'mysql-2025-02-02T11-15.pgdump': '019c3c3fb5f1f99f7fbb0221236e4355d0db22df89fa27e5ba2cfd06d121335a', 'mysql-2025-02-03T19-45.pgdump': '347eba34f64b7e536fa463234bfb9dbafb73b6ec01e82e8dba017f5b12a6569b', 'mysql-2025-02-04T20-45.pgdump': 'accdd25c2f74b8ae148c8bd2c8063ebaa8ca9179228ff187248851737237d5f3'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/pruned.txt': 'mysql-2024-03-02T08-10.pgdump\nmysql-2024-04-06T05-45.pgdump\nmysql-2024-04-06T15-55.pgdump\nmysql-2024-08-31T05-10.pgdump\nmysql-2024-08-31T07-50.pgdump\nmysql-2024-09-05T04-40.pgdump\nmysql-2024-09-06T20-40.pgdump\nmysql-2024-09-11T04-20.pgdump\nmysql-2024-09-18T10-10.pgdump\nmysql-2024-09-18T23-55.pgdump\nmysql-2024-09-25T10-00.pgdump\nmysql-2024-10-08T03-55.pgdump\nmysql-2024-10-08T21-25.pgdump\nmysql-2024-10-19T17-10.pgdump\nmysql-2024-10-23T00-40.pgdump\nmysql-2024-10-23T19-55.pgdump\nmysql-2024-11-08T03-00.pgdump\nmysql-2024-11-17T06-30.pgdump\nmysql-2024-11-24T03-10.pgdump\nmysql-2024-11-24T20-05.pgdump\nmysql-2025-01-07T19-10.pgdump\n'}
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
