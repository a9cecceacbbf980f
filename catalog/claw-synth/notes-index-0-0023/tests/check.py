#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/wiki'
NOTES = {'projects/brisk-comet-architecture.md': '82577b93d700024e6dcfede3367e6754f951f1ad934549ac9e4ec951a3938567', 'archive/ideas/ideas-for-golden-pebble.md': '4e563557432e87b6ea8bcb04538fe5326c31a21226df11ffcb4a4da7e488b89b', 'ops/incidents/incident-2024-09-05.md': 'd154cb98570786606ee04af777b01d62a7ddb61a377d599c5f500942eb9af33b', 'kafka-notes.md': '31c6fbf876b39337900fe297362144aaa549be511c260dce354ab0d766d2abde', 'projects/maple-vale-architecture.md': 'd7bc6ee25b673e467f26bc5b4beac6a7cdecea466a74e12856e481b0f44535cc', 'meetings/meeting-with-barbara.md': '5b444732d662bc763d542326d6d70dcef57cbc6f718aaec2e2d8f6a5ac95b238', 'meetings/meeting-with-brittany.md': '6a558234bd6f1046f7ea03027de26609f1593609e5af95d0644f04e6aab878f9', 'meetings/meeting-with-kelly.md': '5329ec2646991fd1bcaa3ab1e9f8324e66420cdebfb11885e9ba12ead267e71f', 'performance-notes.md': '85de72cad1ec6668b2aa9487f47983c081f6b1c1faa19a8a805735c82274c6ec', 'reading/reading-face-to-face-zero-defect-groupware.md': 'fbe500e13f2d558c7d04ed43ae9e4eb2a770e27916dbbd73cc71d10cfc32f757', 'synthesize-one-to-one-e-tailers.md': '301327acce28aa91997d3182138f095edc733b84de5c5f190cebd4799d7434af', 'journal/trip-to-millerborough.md': '3f917e5a6ef7bb7ff868ea0de5a2d5d26249d5c44ed09fa98ac212b864bafec7'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {'/app/changed-notes.txt': 'journal/trip-to-millerborough.md\nreading/reading-face-to-face-zero-defect-groupware.md\n'}
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
