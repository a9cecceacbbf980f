#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/maria-notes'
NOTES = {'archive/ideas/ideas-for-cedar-heron.md': 'f442b92d18cfdb07fd6b342fc293c7e232cd5bb9b2741fdc93d9859ea721fe52', 'ideas/ideas-for-maple-vale.md': 'ce6e96a685c1ee63581b0bb271576edd3bd281a9b0a674011a0deb317e10cf4c', 'projects/jade-yak-launch-plan.md': 'f81587ad5f04bc7f703ffe865892243f9a1a3ea4e3cfee68bf50f0d08e8816c5', 'kafka-notes.md': 'b493c253d7d7afa95e7e5e4e6c225feaa9dd65e0449781844f09c281dd6cf12b', 'projects/maple-vale-architecture.md': 'a69548be979a030815f9ab15945bcd09e12b35fe0b5d820f535fc3b751bf9af2', 'meetings/meeting-with-katherine.md': '5d413f1c8b803862e5e7d95e3ead3df318b19d861a4d18ace0e2a17826a489d5', 'reading/reading-face-to-face-zero-defect-groupware.md': '841a08f1d45b1336c495d17ac94c4f5bbd6dde6ccedc0b506ece10c5b654ed27', 'meetings/retro-2024-03-02.md': 'b26af980412ea10474bf54d36bc8e69a4e9dc246eeeb2ff70f434b7993ecbace'}  # path relative to the vault -> sha256 it must have now
EXTRA = ['TAGS.md']  # files the task creates inside the vault
TEXTS = {'/app/maria-notes/TAGS.md': '# Tag Index\n\n## backend (1)\n- [[meeting-with-katherine]]\n\n## design (1)\n- [[ideas-for-maple-vale]]\n\n## frontend (1)\n- [[retro-2024-03-02]]\n\n## incidents (1)\n- [[reading-face-to-face-zero-defect-groupware]]\n\n## legal (1)\n- [[maple-vale-architecture]]\n\n## meetings (1)\n- [[ideas-for-maple-vale]]\n\n## mobile (2)\n- [[jade-yak-launch-plan]]\n- [[reading-face-to-face-zero-defect-groupware]]\n\n## monitoring (1)\n- [[ideas-for-maple-vale]]\n\n## planning (1)\n- [[maple-vale-architecture]]\n\n## q2 (2)\n- [[maple-vale-architecture]]\n- [[retro-2024-03-02]]\n\n## search (1)\n- [[kafka-notes]]\n\n## ux (1)\n- [[jade-yak-launch-plan]]\n\n## (untagged) (1)\n- [[ideas-for-cedar-heron]]\n'}
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
