#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/vault'
NOTES = {'projects/granite-anchor-architecture.md': 'f84b9c3fb79ea1560d6efc7c545d08406f6a5086ac882d75a15c6a28c8f56330', 'archive/ideas/ideas-for-cedar-heron.md': 'f9bb6fa2b4d26d03b18f62e88ac75c2613a23d2eb07b64c9a23a9f2b7b2cd9b5', 'ideas/ideas-for-maple-vale.md': '1951a0b0668575add540387bb811959ec4cbfaebc7d79b51a55a66eb4c7a6fee', 'archive/ideas/ideas-for-rusty-bison.md': '10b7a4f7a041255d10140dce22582ef4f568b3d297a9c02627295804cdd62808', 'ops/incidents/incident-2024-09-05.md': 'bde53b125aaf9d40ae2d2da7c56ca595b5be5374e0619bee901059fc5048f42e', 'projects/jade-yak-launch-plan.md': 'd4d4a7e4d9ac4c77300893c19ac2ad265377131b5714e8b6a6c94262b8c06d7a', 'kafka-notes.md': 'cf463c1f764ac3dce4d6e655700bc2baf31d053a03eb9e54d2be628f49a86285', 'meetings/meeting-with-katherine.md': '243952b422ac3031c6f8997f38f0396bbdb8f4e7fead41e9ffe4f2478dff4ae9', 'performance-notes.md': '9e6e3efe3e0fe01e58df7dcf1e2dec9717626994d82be21f69ee8fd0afcf9047', 'meetings/retro-2023-05-25.md': 'beba0f9bcf941e0b7804219b05a52c53e69259bf07ce4c8b7fc7b1962b11a1e8', 'meetings/retro-2024-03-02.md': '954f638aba528a2a6877c19f4fe6c012fb63fd612f81c5e8a8f82d9467af9c6d', 'journal/trip-to-watsonport.md': '3a1a579e22bc443e59d9c1c70a38a328a20123f8c69d9508976445a095d2f006'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {'/app/todo.tsv': 'path\tline\tstatus\ttask\narchive/ideas/ideas-for-cedar-heron.md\t12\tdone\tProduce PM minute usually when soldier\narchive/ideas/ideas-for-cedar-heron.md\t13\topen\tResponse really western billion\narchive/ideas/ideas-for-cedar-heron.md\t14\tdone\tNational part soldier\narchive/ideas/ideas-for-cedar-heron.md\t15\tdone\tAgo act order @due(2025-02-07)\narchive/ideas/ideas-for-rusty-bison.md\t12\topen\tThen @due(2024-05-01)\narchive/ideas/ideas-for-rusty-bison.md\t13\topen\tEat discuss magazine fly\narchive/ideas/ideas-for-rusty-bison.md\t14\tdone\tTell attention sit far none wait @due(2024-11-08)\narchive/ideas/ideas-for-rusty-bison.md\t15\topen\tRate short close surface\nideas/ideas-for-maple-vale.md\t14\tdone\tGirl office range\nideas/ideas-for-maple-vale.md\t15\topen\tBorn message religious main upon message edge @due(2024-06-18)\nideas/ideas-for-maple-vale.md\t16\tdone\tBuy child responsibility prove clearly yeah @due(2024-01-20)\nideas/ideas-for-maple-vale.md\t17\topen\tYour degree green their possible strategy @due(2024-04-30)\njournal/trip-to-watsonport.md\t16\tdone\tWriter individual\njournal/trip-to-watsonport.md\t17\tdone\tYes general close practice @due(2024-12-26)\njournal/trip-to-watsonport.md\t18\topen\tGo among a accept @due(2024-02-02)\nkafka-notes.md\t12\tdone\tTable cover big @due(2024-11-28)\nkafka-notes.md\t13\tdone\tInvestment prepare push travel\nkafka-notes.md\t14\topen\tYear song prove recent @due(2024-02-08)\nkafka-notes.md\t15\tdone\tHeavy cause build pattern\nmeetings/meeting-with-katherine.md\t7\tdone\tSystem human enough as office\nmeetings/meeting-with-katherine.md\t8\tdone\tOfficial until theory @due(2024-01-12)\nmeetings/meeting-with-katherine.md\t9\topen\tDog staff without building newspaper\nmeetings/meeting-with-katherine.md\t10\topen\tEnvironmental term song try eight forget police @due(2025-03-10)\nops/incidents/incident-2024-09-05.md\t9\tdone\tEasy mission after\nops/incidents/incident-2024-09-05.md\t10\topen\tNever professor street spend gun\nprojects/granite-anchor-architecture.md\t11\topen\tPoint one\nprojects/granite-anchor-architecture.md\t12\tdone\tDiscussion under message near knowledge direction @due(2025-02-03)\nprojects/granite-anchor-architecture.md\t13\tdone\tMoney shoulder song agent seem\nprojects/granite-anchor-architecture.md\t14\topen\tRule list amount on individual sure not something record\n'}
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
