#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/wiki'
NOTES = {'projects/brisk-comet-architecture.md': 'bc67b193e676af95fe934614356e857279b6d1acb4ab25984ec6ea570c0d36d0', 'projects/cedar-kestrel-architecture.md': 'a69be27fd4c69137699ec7a760faafa59d23b9f836b60cdc911b9299db8c229e', 'how-we-transform-magnetic-action-items.md': '0e3184428e35d9db51b8fb33f61648c2187c072f665059eb36633eb1b5c57108', 'archive/ideas/ideas-for-cobalt-tundra.md': '513ecc54cd3ce119c9b64b2275d38590499eaa6417fa9a2dcddae66eafa1ea4f', 'ideas/ideas-for-rusty-bison.md': '2d6d30b831814159ef6672731ee040b7b1ac4bedfc86bd1c2f94a530848eb2b9', 'ops/incidents/incident-2024-09-05.md': 'e40c8ea3862009e6bdf80958c85428493dd01cf8e4360443715de29f828711a9', 'kafka-notes.md': '698b84ac23af4715fa98358e8af64ad5c5c41a901d4b35bc9a2fd657837908ea', 'meetings/meeting-with-barbara.md': '60a781c4106347275ab0ca34f00984b3e5477fa8f64dbd71c7fbe3fe5e1ffd9c', 'meetings/meeting-with-george.md': '168c078cb93d63c0f4d3f75f90c9da5b99e4d953eff7d883daa30e0e02a691fa', 'reading/reading-devolved-bifurcated-extranet.md': 'c0df7a85f20a5f4794c6e48770b105005ea3108492152a20c9bb0c6e0f4fd476', 'meetings/retro-2023-05-25.md': 'beba0f9bcf941e0b7804219b05a52c53e69259bf07ce4c8b7fc7b1962b11a1e8', 'meetings/retro-2023-12-10.md': 'fd06bd9f6778a130107591506933e939371a8f82a00f379698c1b3807b504578', 'meetings/retro-2024-03-02.md': 'd0a279bc04dec5e4d9ad408c86ad6a02354d201bc0b34451a75737b49beec42d', 'projects/sable-kestrel-architecture.md': '10d521bb1140c0a429de1e8183c6462802c3da725ad371a0c69e29821606752e', 'journal/trip-to-millerborough.md': '4499e98e98e1ea12b1f565ad4823fed04e76cfcc7cb5e7145c9289f719978737', 'journal/trip-to-watsonport.md': '26ad0304fb155f4a90ace7a9fa7fff98166ed0d10f060832ccc046a24315be3a'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {'/app/dangling.txt': 'archive/ideas/ideas-for-cobalt-tundra.md:9: re-contextualize-e-business-partnerships-draft\nhow-we-transform-magnetic-action-items.md:12: q4-notes-draft\nhow-we-transform-magnetic-action-items.md:16: retro-2024-09-06-draft\nideas/ideas-for-rusty-bison.md:17: synthesize-one-to-one-e-tailers\njournal/trip-to-millerborough.md:14: trip-to-perezstad-draft\njournal/trip-to-watsonport.md:12: ideas-for-cedar-heron\njournal/trip-to-watsonport.md:16: maple-vale-architecture\nkafka-notes.md:9: process-notes\nmeetings/meeting-with-barbara.md:11: jade-yak-launch-plan\nmeetings/retro-2023-05-25.md:8: reading-face-to-face-zero-defect-groupware\nmeetings/retro-2023-12-10.md:10: meeting-with-katherine\nops/incidents/incident-2024-09-05.md:8: meeting-with-brittany\nops/incidents/incident-2024-09-05.md:17: meeting-with-katherine\nprojects/brisk-comet-architecture.md:22: maple-vale-architecture\nprojects/brisk-comet-architecture.md:22: meeting-with-katherine\nprojects/cedar-kestrel-architecture.md:13: trip-to-perezstad-draft\nprojects/sable-kestrel-architecture.md:9: meeting-with-brittany\nprojects/sable-kestrel-architecture.md:11: ideas-for-golden-pebble\n'}
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
