#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/notes'
NOTES = {'projects/brisk-comet-architecture.md': 'd38b194e3e429c65bbebcedfe24b0ef800baa384e86e6788d21daa60da2b763d', 'projects/cedar-kestrel-architecture.md': 'b9bedfe48213ad3c4a8aa9db29243f84f971f331cf4be149491c7bb9ee135449', 'projects/granite-anchor-architecture.md': 'f84b9c3fb79ea1560d6efc7c545d08406f6a5086ac882d75a15c6a28c8f56330', 'how-we-transform-magnetic-action-items.md': 'feb69af674ceef26e55d1276160ccf94e41d81eddd977b09ba7008d31a0f3cbf', 'archive/ideas/ideas-for-cedar-heron.md': '4c591621b2ec82d00443c089645575529ca45374d61137e9cd45910251308759', 'ideas/ideas-for-maple-vale.md': '9d76cbc687760651e15e14e99c2afc9dd8117a078ba7de8eec78cbd447dbbf93', 'ideas/ideas-for-rusty-bison.md': '2d6d30b831814159ef6672731ee040b7b1ac4bedfc86bd1c2f94a530848eb2b9', 'ops/incidents/incident-2024-09-05.md': 'd154cb98570786606ee04af777b01d62a7ddb61a377d599c5f500942eb9af33b', 'projects/jade-yak-launch-plan.md': '760abaaa0199b6e4bfe2edfd9ead9e16036c0cea1fc8e0b6c26125d783ba8604', 'projects/maple-vale-architecture.md': '94f5f9f2a8806def602867e3053d37d2a44e3bfce70dc9c64e8f8867912b038c', 'meetings/meeting-with-brittany.md': '1906c4b15504279f652971684dd49f13b52e57d74193688ae57eaa9e067edb72', 'meetings/meeting-with-katherine.md': '096d5f1d447ffed02993fc1813bb311e3e6c31a050b1967e64a92fbed79d7f36', 'process-notes.md': 'ff4a978102e3a8aad20b73df05caf2b3ad1ddb85da2b4feb7fb441638d703965', 'reading/reading-devolved-bifurcated-extranet.md': '9ada433326a11d5c4439e8af4d9304f1928bd6ce0c14490b80ebe8abc25d4080', 'projects/sable-kestrel-architecture.md': '84e175db9287781e988e9f2cd86a3e329725947371255830403511f8c83c4a1f', 'journal/trip-to-millerborough.md': 'f9efc5fdbcf6a1794714865f46ea1c049747e8f48846711492df8d0569f44887'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {}
JSONS = {'/app/link-graph.json': {'projects/brisk-comet-architecture.md': 0, 'projects/cedar-kestrel-architecture.md': 1, 'projects/granite-anchor-architecture.md': 1, 'how-we-transform-magnetic-action-items.md': 2, 'archive/ideas/ideas-for-cedar-heron.md': 0, 'ideas/ideas-for-maple-vale.md': 0, 'ideas/ideas-for-rusty-bison.md': 2, 'ops/incidents/incident-2024-09-05.md': 2, 'projects/jade-yak-launch-plan.md': 0, 'projects/maple-vale-architecture.md': 2, 'meetings/meeting-with-brittany.md': 3, 'meetings/meeting-with-katherine.md': 3, 'process-notes.md': 0, 'reading/reading-devolved-bifurcated-extranet.md': 3, 'projects/sable-kestrel-architecture.md': 0, 'journal/trip-to-millerborough.md': 0}}
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
