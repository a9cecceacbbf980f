#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/Zettelkasten'
NOTES = {'archive/ideas/ideas-for-cedar-heron.md': 'f442b92d18cfdb07fd6b342fc293c7e232cd5bb9b2741fdc93d9859ea721fe52', 'ops/incidents/incident-2024-09-05.md': 'bed9c68d6409b794bbec63a12f781b77c202f7a7ba3d90409b621b6d144efbae', 'meetings/meeting-with-brittany.md': '6a558234bd6f1046f7ea03027de26609f1593609e5af95d0644f04e6aab878f9', 'meetings/meeting-with-george.md': 'c28249333d3f742fa5e32d6d242f79aa305d4931ed15e165dffec0ccbf77c7b9', 'meetings/retro-2023-12-10.md': '0dbfdf1b7a9a4e4b06558f68fbb1bc5893b96d58763661200123f28799d39f35', 'meetings/retro-2024-03-02.md': 'bf0991ec3cf8f6b1f8d32fd2b8c211e81697f36079bac2feeb7df28731c3dc28', 'projects/sable-kestrel-architecture.md': 'ab59a8af5b8cfb1dacbba7de2115f65e60ecb3b07f86972c03e5034d8e22c80e', 'journal/trip-to-watsonport.md': '58fd6c2e61cdfe5f5b1a68c7b7668dc4abc75579335098a0f9978d57b341ee7e'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {'/app/changed-notes.txt': 'meetings/meeting-with-george.md\nprojects/sable-kestrel-architecture.md\n'}
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
