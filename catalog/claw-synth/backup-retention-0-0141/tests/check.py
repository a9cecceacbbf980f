#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/db-dumps': {'files': {'pg.20250717-0555.sql.gz': '05948ef6c2604dd5017d898cc81e2b082cb5aad251d38e03a55292e0df58ec0e', 'pg.20250719-0300.sql.gz': '8b3bcf185ebfd8867a88c469e52a7c12b812feb230c7a6523cb6a8d5984f0da5', 'pg.20250801-2215.sql.gz': 'a4004e33b03e92f154dfd007fbe62ecc5fec16524d480858f0f16e1f3793d46f', 'pg.20250809-0725.sql.gz': 'ce2cea98e4ac27f67a76c95393ab501f9cd4fb415665f20ec16fad221ee9ec5e', 'pg.20250811-0645.sql.gz': '53a98ca8de5a2c3645a477d8d10544e50cfd0596bce8daa19983221905146180', 'pg.20250829-1815.sql.gz': '0725af1495e7393106fdf059b73a72371fd2c546c645b9195ee43dcb764cc2cb', 'pg.20250906-2210.sql.gz': '60cace4b616ec9e438315bc6814e061e0142ec1827856f4509b6fd0783f141e3', 'pg.20250915-0430.sql.gz': '8e3d0ecf20f04bf29b52ca812b2b507cf8c7b6582f1d408a98d528df2bd18498', 'pg.20250915-0530.sql.gz': 'd746e89af6224aff0802f79390df1f35cf090792deb71c3d50c373f2dc8e1cea', 'pg.20250917-1905.sql.gz': '5a083416569b24b433a1c93510cee3a698e76377e04590fa11a1215fce9e99c6', 'pg.20250918-2150.sql.gz': 'f8fd4bc56a34341fd4d818127f78d3a2cf3649f2f729f194b3f4210e4763a4b7', 'pg.20250925-1000.sql.gz': '6f658dda256581fe3849083986aa4634e2b0f5223539e86d5107f966b9cc3936', 'pg.20251008-0255.sql.gz': '27ea66f7de179730784f5c5c7356b5c831b87599ac4f621d10732c68c2982d51', 'pg.20251013-0300.sql.gz': '41a324c607bea5fb56211da76cf509744fdb04bb6aeeeada55dda405aee85eb5', 'pg.20251013-0450.sql.gz': '07853f4e96e7d8c1c740eb69c88614321359f9015cf0879d77be8a4367de974c', 'pg.20251015-2200.sql.gz': '976d1e5c30044575f4e9480280adec885d41f109fb0bf897ee14942426c7ce2e'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/prune-plan.json': {'keep': ['pg.20251008-0255.sql.gz', 'pg.20251013-0300.sql.gz', 'pg.20251013-0450.sql.gz', 'pg.20251015-2200.sql.gz'], 'delete': ['pg.20250717-0555.sql.gz', 'pg.20250719-0300.sql.gz', 'pg.20250801-2215.sql.gz', 'pg.20250809-0725.sql.gz', 'pg.20250811-0645.sql.gz', 'pg.20250829-1815.sql.gz', 'pg.20250906-2210.sql.gz', 'pg.20250915-0430.sql.gz', 'pg.20250915-0530.sql.gz', 'pg.20250917-1905.sql.gz', 'pg.20250918-2150.sql.gz', 'pg.20250925-1000.sql.gz']}}
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
