#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/wiki'
NOTES = {'ideas/ideas-for-cedar-heron.md': 'f442b92d18cfdb07fd6b342fc293c7e232cd5bb9b2741fdc93d9859ea721fe52', 'ideas/ideas-for-golden-pebble.md': '47d1a21ed8367548c45a4d7099579454eb5c77c3373a546747c960a3351655fe', 'ideas/ideas-for-rusty-bison.md': '62354ac695b7c288e435071d01babf11ba0fe0b6126bdd7615bf36489704594d', 'ops/incidents/incident-2024-09-05.md': 'fc07685d34b8423d9be4cc678d93ac0c715fc8436efcd40363a9ffbb6dee061b', 'projects/jade-yak-launch-plan.md': 'af126e7bc58b25fbd6a89a9ae26cf49ed9d867f6bde74e42b50cf70d5216a566', 'projects/maple-vale-architecture.md': 'd4fe4d6700c8e897557c64cf963eca6b8a09ffc477ee0ceeda0eebaa4e383f25', 'meetings/meeting-with-kelly.md': 'cbbebce63b7114867a15376bef7609a9f43cb591185736159c3155c58704b637', 'reading/reading-devolved-bifurcated-extranet.md': 'ecd9c920e69fcf644e730751603dc2bd70a65d819e532c114b244016e52c20a0', 'reading/reading-face-to-face-zero-defect-groupware.md': '9976f6080e879551db33b3d25188272e7c2449317cc30f48fb5730cd4f4653a1', 'projects/sable-kestrel-architecture.md': 'cb1b31d7e3535a7cb312ace5ab54277ef0dccc94d75a5a5d15403f04a9c0d057', 'synthesize-one-to-one-e-tailers.md': '301327acce28aa91997d3182138f095edc733b84de5c5f190cebd4799d7434af', 'journal/trip-to-watsonport.md': 'd547825c3cbc78902eb9cefd6ca657b1bd897b553a82e068e2e365b11d02a226'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {}
JSONS = {}
CSVS = {'/app/tag-counts.csv': [['tag', 'notes', 'paths'], ['data', '1', 'meetings/meeting-with-kelly.md'], ['hiring', '1', 'synthesize-one-to-one-e-tailers.md'], ['incidents', '2', 'projects/sable-kestrel-architecture.md;reading/reading-face-to-face-zero-defect-groupware.md'], ['kafka', '1', 'ops/incidents/incident-2024-09-05.md'], ['legal', '2', 'ops/incidents/incident-2024-09-05.md;projects/maple-vale-architecture.md'], ['ml', '1', 'ideas/ideas-for-golden-pebble.md'], ['mobile', '3', 'projects/jade-yak-launch-plan.md;projects/sable-kestrel-architecture.md;reading/reading-face-to-face-zero-defect-groupware.md'], ['monitoring', '2', 'ops/incidents/incident-2024-09-05.md;projects/sable-kestrel-architecture.md'], ['onboarding', '1', 'ideas/ideas-for-golden-pebble.md'], ['planning', '2', 'projects/maple-vale-architecture.md;synthesize-one-to-one-e-tailers.md'], ['postgres', '2', 'ideas/ideas-for-golden-pebble.md;ops/incidents/incident-2024-09-05.md'], ['q2', '1', 'projects/maple-vale-architecture.md'], ['search', '1', 'ideas/ideas-for-golden-pebble.md'], ['ux', '1', 'projects/jade-yak-launch-plan.md']]}


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
