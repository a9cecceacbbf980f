#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/vault'
NOTES = {'projects/brisk-comet-architecture.md': 'bdf1fb80d63362fa3d91bf019fe87f43102a65c748fd4564763471b48d5c035d', 'ideas/ideas-for-cedar-heron.md': '75258ece74e68a1877b49f904ff7f05065b816aaba4aa8f92b60c4e148cd6c96', 'ideas/ideas-for-cobalt-tundra.md': 'ecc683742a13763aeeb31a457bfb9f09dd421fe11b3b423506d63a48e1c0fd49', 'ideas/ideas-for-golden-pebble.md': '07897a25c837c156755526b78a4d4d8dd83bc85ea93a08b8a7ac05323bb52b0e', 'ideas/ideas-for-rusty-bison.md': '62354ac695b7c288e435071d01babf11ba0fe0b6126bdd7615bf36489704594d', 'ops/incidents/incident-2024-09-05.md': '8a39792ec5fb1e6d4eb13525ca95e5ab6df30121b9a04e0c3167e390bb33a429', 'meetings/meeting-with-brittany.md': 'e1608e3129da1cb51c40f061dc19ca5625abac0d1d20b39a4143fc47c0b5648c', 'meetings/meeting-with-katherine.md': '8b984baada686f8cd34213afba93f09014c6255221a56649f42b9a7ad81b8501', 'reading/reading-devolved-bifurcated-extranet.md': 'ecd9c920e69fcf644e730751603dc2bd70a65d819e532c114b244016e52c20a0', 'meetings/retro-2024-10-09.md': '1bb11e2390c00e60e16e8156b10749091f29b596257a665ec363d3e0c3ca2063', 'synthesize-one-to-one-e-tailers.md': 'b01c07fca46ae1668211e62b15773e829ac8fc1193f790112de77448afa2330f', 'journal/trip-to-millerborough.md': 'a37df1ef7979063d381a53a041b0b947e5856826df79fb88a26648cb6f414e0a'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {'/app/inventory.md': '| path | folder | tags | done_tasks | open_tasks | links |\n|---|---|---|---|---|---|\n| synthesize-one-to-one-e-tailers.md |  | 2 | 0 | 0 | 4 |\n| ops/incidents/incident-2024-09-05.md | ops/incidents | 4 | 1 | 1 | 3 |\n| ideas/ideas-for-cedar-heron.md | ideas | 0 | 3 | 1 | 3 |\n| meetings/retro-2024-10-09.md | meetings | 1 | 0 | 5 | 2 |\n| ideas/ideas-for-rusty-bison.md | ideas | 0 | 1 | 3 | 3 |\n| projects/brisk-comet-architecture.md | projects | 2 | 1 | 2 | 5 |\n| reading/reading-devolved-bifurcated-extranet.md | reading | 0 | 0 | 4 | 1 |\n| journal/trip-to-millerborough.md | journal | 3 | 3 | 2 | 1 |\n| meetings/meeting-with-brittany.md | meetings | 1 | 1 | 3 | 3 |\n| ideas/ideas-for-cobalt-tundra.md | ideas | 1 | 1 | 0 | 1 |\n| meetings/meeting-with-katherine.md | meetings | 1 | 2 | 2 | 1 |\n| ideas/ideas-for-golden-pebble.md | ideas | 0 | 1 | 3 | 1 |\n'}
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
