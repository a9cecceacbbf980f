#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/Zettelkasten'
NOTES = {'how-we-transform-magnetic-action-items.md': '2ba2b23874b04d5ca6c8455ba06d6e9930e610ce57a522cf36201fef210e6866', 'ideas/ideas-for-maple-vale.md': 'eee43d908f18221786abf9a778d703692a809509d28d3b73edd939eabb305d65', 'archive/ideas/ideas-for-rusty-bison.md': '62354ac695b7c288e435071d01babf11ba0fe0b6126bdd7615bf36489704594d', 'ops/incidents/incident-2024-09-05.md': 'fc07685d34b8423d9be4cc678d93ac0c715fc8436efcd40363a9ffbb6dee061b', 'projects/maple-vale-architecture.md': 'e915114d7eaea42e0930039f7f33bb324af24be91b6ffbcb44c2fc0b199ed213', 'meetings/meeting-with-brittany.md': 'e1608e3129da1cb51c40f061dc19ca5625abac0d1d20b39a4143fc47c0b5648c', 'process-notes.md': 'ff4a978102e3a8aad20b73df05caf2b3ad1ddb85da2b4feb7fb441638d703965', 'meetings/retro-2023-05-25.md': '41ece901a2ee3cdaed351571c216e6633d9088f852b7aa5a60eaaf87e11655e6', 'meetings/retro-2023-12-10.md': '49c92ba55d90c883a1ada59dfa5d69c43b79ac8b036a7b2411391e5fd384d788', 'meetings/retro-2024-10-09.md': '35af4e04a4c436114329a43e89ed9dddd88cdb179d401900d9db0f16482767db', 'projects/sable-kestrel-architecture.md': '32d699be84f02a5fbb0c57e4099f49c16e658858c601d91aebff18c24ff2f89e', 'journal/trip-to-millerborough.md': '7c7e07dd8968ef9a957eef0c9a8b362231834bb156242ae6c865414607c5ffc0'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {'/app/catalog.md': '| path | title | open_tasks | links | date | done_tasks | tags |\n|---|---|---|---|---|---|---|\n| how-we-transform-magnetic-action-items.md | How we transform magnetic action-items | 0 | 3 | 2024-10-20 | 0 | 4 |\n| ideas/ideas-for-maple-vale.md | Ideas for Maple Vale | 2 | 2 | 2023-12-30 | 2 | 3 |\n| archive/ideas/ideas-for-rusty-bison.md | Ideas for Rusty Bison | 3 | 3 | 2024-05-25 | 1 | 0 |\n| ops/incidents/incident-2024-09-05.md | Incident 2024-09-05 | 1 | 3 | 2024-08-22 | 1 | 4 |\n| projects/maple-vale-architecture.md | Maple Vale architecture | 3 | 2 | 2023-06-17 | 2 | 3 |\n| meetings/meeting-with-brittany.md | Meeting with Brittany | 3 | 3 | 2023-10-30 | 1 | 1 |\n| process-notes.md | Process notes | 1 | 2 | 2024-03-03 | 0 | 2 |\n| meetings/retro-2023-05-25.md | Retro 2023-05-25 | 0 | 3 | 2024-04-17 | 0 | 0 |\n| meetings/retro-2023-12-10.md | Retro 2023-12-10 | 2 | 1 | 2023-01-05 | 0 | 1 |\n| meetings/retro-2024-10-09.md | Retro 2024-10-09 | 5 | 2 | 2024-06-13 | 0 | 1 |\n| projects/sable-kestrel-architecture.md | Sable Kestrel architecture | 5 | 2 | 2024-01-20 | 0 | 3 |\n| journal/trip-to-millerborough.md | Trip to Millerborough | 2 | 1 | 2024-02-08 | 3 | 3 |\n'}
JSONS = {}
CSVS = {}


def lines(text):
    return [line.rstrip() for line in text.replace("\r\n", "\n").rstrip("\n").split("\n")] if text.strip() else []


def read(path, fails):
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        fails.append("cannot read %s: %s" % (path, exc))
        return None


def main():
    fails = []
    for rel, want in sorted(NOTES.items()):
        path = os.path.join(VAULT, rel)
        if not os.path.isfile(path):
            fails.append("note missing: %s" % rel)
            continue
        with open(path, "rb") as fh:
            if hashlib.sha256(fh.read()).hexdigest() != want:
                fails.append("note %s is not as it should be (changed when it must not be, or changed wrongly)" % rel)
    for dirpath, _, filenames in os.walk(VAULT):
        for f in filenames:
            rel = os.path.relpath(os.path.join(dirpath, f), VAULT)
            if rel not in NOTES and rel not in EXTRA:
                fails.append("unexpected file in the vault: %s" % rel)
    for path, text in sorted(TEXTS.items()):
        got = read(path, fails)
        if got is None:
            continue
        want_l, got_l = lines(text), lines(got)
        if want_l != got_l:
            fails.append("%s is not as expected (%d lines expected, %d found)" % (path, len(want_l), len(got_l)))
            for i in range(max(len(want_l), len(got_l))):
                w = want_l[i] if i < len(want_l) else None
                g = got_l[i] if i < len(got_l) else None
                if w != g:
                    fails.append("  first difference, line %d: expected %r, got %r" % (i + 1, w, g))
                    break
    for path, want in sorted(JSONS.items()):
        got = read(path, fails)
        if got is None:
            continue
        try:
            value = json.loads(got)
        except ValueError as exc:
            fails.append("%s is not valid JSON: %s" % (path, exc))
            continue
        if value != want:
            fails.append("%s is wrong:\n  expected %s\n  got      %s" % (path, json.dumps(want), json.dumps(value)))
    for path, want in sorted(CSVS.items()):
        got = read(path, fails)
        if got is None:
            continue
        rows = [row for row in csv.reader(io.StringIO(got)) if row]
        if rows != want:
            fails.append("%s is wrong:\n  expected %r\n  got      %r" % (path, want, rows))
    for f in fails:
        print("FAIL:", f)
    print("PASS" if not fails else "FAILED (%d problems)" % len(fails))
    return 0 if not fails else 1


if __name__ == "__main__":
    sys.exit(main())
