#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/wiki'
NOTES = {'archive/ideas/ideas-for-cobalt-tundra.md': 'ce71865e1e0ad5cc3555b90497b2eae2b868956156b6a1697e2d6317dfb1f20b', 'ideas/ideas-for-golden-pebble.md': '8196b918dc81addf489c89bf7ec63db9ad9c7b708f825eb483f4839c5bb5f666', 'meetings/meeting-with-george.md': '91046c81235775714ca409d39a77889252a361ac1c0cd7a0e801fb7b7a75831d', 'meetings/meeting-with-kelly.md': '9559ef2ba36303128d8b9e3d7bca138ee00ac625e3cc63027150235ee6baa5e0', 'process-notes.md': 'ff4a978102e3a8aad20b73df05caf2b3ad1ddb85da2b4feb7fb441638d703965', 'reading/reading-devolved-bifurcated-extranet.md': 'c0df7a85f20a5f4794c6e48770b105005ea3108492152a20c9bb0c6e0f4fd476', 'reading/reading-face-to-face-zero-defect-groupware.md': '8f19eb951bbee6df79d7cb769e6326fd25c92ca8fa82aaa0fb835fd32c06009c', 'meetings/retro-2024-03-02.md': 'b26af980412ea10474bf54d36bc8e69a4e9dc246eeeb2ff70f434b7993ecbace'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {'/app/inventory.md': '| path | title | done_tasks | tag_list | date |\n|---|---|---|---|---|\n| archive/ideas/ideas-for-cobalt-tundra.md | Ideas for Cobalt Tundra | 1 | design | 2023-08-02 |\n| ideas/ideas-for-golden-pebble.md | Ideas for Golden Pebble | 1 | ml;onboarding;postgres;search | 2023-03-28 |\n| meetings/meeting-with-george.md | Meeting with George | 1 | incidents;releases | 2024-06-21 |\n| meetings/meeting-with-kelly.md | Meeting with Kelly | 2 | data | 2023-08-03 |\n| process-notes.md | Process notes | 0 | cooking;security | 2024-03-03 |\n| reading/reading-devolved-bifurcated-extranet.md | Reading: Devolved bifurcated extranet | 0 |  | 2024-03-18 |\n| reading/reading-face-to-face-zero-defect-groupware.md | Reading: Face-to-face zero-defect groupware | 0 | incidents;mobile | 2024-10-20 |\n| meetings/retro-2024-03-02.md | Retro 2024-03-02 | 0 | frontend;q2 | 2023-02-10 |\n'}
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
