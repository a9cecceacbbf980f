#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/Zettelkasten'
NOTES = {'projects/cedar-kestrel-architecture.md': '470516fabb91136be08b2388c6612be30cfd3b5b6e600fefa3ecb429e19b0dda', 'archive/ideas/ideas-for-golden-pebble.md': 'd32fbab0753bd7a95ffcce0d08059e13913838c80d7a80d770d672e85a8e51a7', 'projects/jade-yak-launch-plan.md': '8af6f1c5d82af5195670034ec3c47c2bef47a44d7dad1076d0a49ba3a1df896d', 'process-notes.md': '7e7f559081592208c739512d96a49eb6409f394e00b6556f04ca1bae3ddd48a0', 'reading/reading-devolved-bifurcated-extranet.md': 'c0df7a85f20a5f4794c6e48770b105005ea3108492152a20c9bb0c6e0f4fd476', 'reading/reading-face-to-face-zero-defect-groupware.md': '841a08f1d45b1336c495d17ac94c4f5bbd6dde6ccedc0b506ece10c5b654ed27', 'journal/trip-to-millerborough.md': 'a37df1ef7979063d381a53a041b0b947e5856826df79fb88a26648cb6f414e0a', 'journal/trip-to-watsonport.md': '58fd6c2e61cdfe5f5b1a68c7b7668dc4abc75579335098a0f9978d57b341ee7e'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {}
JSONS = {'/app/tag-index.json': {'ux': ['projects/cedar-kestrel-architecture.md', 'projects/jade-yak-launch-plan.md'], 'postgres': ['archive/ideas/ideas-for-golden-pebble.md', 'projects/cedar-kestrel-architecture.md'], 'data': ['journal/trip-to-millerborough.md', 'projects/cedar-kestrel-architecture.md'], 'frontend': ['projects/cedar-kestrel-architecture.md'], 'ml': ['archive/ideas/ideas-for-golden-pebble.md', 'journal/trip-to-watsonport.md'], 'search': ['archive/ideas/ideas-for-golden-pebble.md'], 'onboarding': ['archive/ideas/ideas-for-golden-pebble.md'], 'mobile': ['projects/jade-yak-launch-plan.md', 'reading/reading-face-to-face-zero-defect-groupware.md'], 'security': ['process-notes.md'], 'cooking': ['process-notes.md'], 'incidents': ['journal/trip-to-millerborough.md', 'reading/reading-face-to-face-zero-defect-groupware.md'], 'hiring': ['journal/trip-to-millerborough.md'], 'kubernetes': ['journal/trip-to-watsonport.md'], 'docs': ['journal/trip-to-watsonport.md'], 'testing': ['journal/trip-to-watsonport.md'], '(untagged)': ['reading/reading-devolved-bifurcated-extranet.md']}}
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
