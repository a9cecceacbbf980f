#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/john-notes'
NOTES = {'projects/brisk-comet-architecture.md': '8f76402e2afcadbe9dd214f51bf086db22cf836f1a56b23b4e13fa257d0648c4', 'ideas/ideas-for-golden-pebble.md': '6a358f3febbec272a9092bdaead9c3fcd6f6d022d31405e0fe41cb7a1b49f8cf', 'ideas/ideas-for-rusty-bison.md': '2d6d30b831814159ef6672731ee040b7b1ac4bedfc86bd1c2f94a530848eb2b9', 'projects/jade-yak-launch-plan.md': '6d19cd335df31ddb446773ace772f7ac888012c0226ac3c9aa9bac3406b4daef', 'projects/maple-vale-architecture.md': '9ed61e28e97503267c4fa51fe91e9db12ed992ff9c6599b30395dc5bbd1e9c83', 'meetings/meeting-with-kelly.md': 'cbbebce63b7114867a15376bef7609a9f43cb591185736159c3155c58704b637', 'performance-notes.md': '75f6eda85bc4572a976bda82e011a53f6d37666af7cbd1dee9d7f16dc6f5a71f', 'process-notes.md': '0012ea874da1f87589de949ed1410af22902bfc6ddd09b145a10f29053a0512f', 'meetings/retro-2023-05-25.md': 'beba0f9bcf941e0b7804219b05a52c53e69259bf07ce4c8b7fc7b1962b11a1e8', 'meetings/retro-2023-12-10.md': '0996ea7e66fc20178cd59a76c30c6e30ee9fd7c07373e1b169d2dde8fc058003', 'meetings/retro-2024-03-02.md': '40915d05cdc68a07ffad807462b3ccaef7ed9dae95a24e9411cb07fbd9eeea6f', 'journal/trip-to-watsonport.md': '45c08aac4cb719bf30db90753f2723e410d70e13367a10b869fe6ae97ef5b281'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {}
JSONS = {}
CSVS = {'/app/notes.csv': [['path', 'done_tasks', 'folder', 'tags'], ['projects/brisk-comet-architecture.md', '1', 'projects', '2'], ['ideas/ideas-for-golden-pebble.md', '1', 'ideas', '4'], ['ideas/ideas-for-rusty-bison.md', '1', 'ideas', '0'], ['projects/jade-yak-launch-plan.md', '0', 'projects', '2'], ['projects/maple-vale-architecture.md', '2', 'projects', '3'], ['meetings/meeting-with-kelly.md', '2', 'meetings', '1'], ['performance-notes.md', '0', '', '0'], ['process-notes.md', '0', '', '2'], ['meetings/retro-2023-05-25.md', '0', 'meetings', '0'], ['meetings/retro-2023-12-10.md', '0', 'meetings', '1'], ['meetings/retro-2024-03-02.md', '0', 'meetings', '0'], ['journal/trip-to-watsonport.md', '2', 'journal', '4']]}


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
