#!/usr/bin/env python3
"""Hidden verifier: every note byte for byte (as it must be now), then the output files."""
import csv
import hashlib
import io
import json
import os
import sys

VAULT = '/app/kathleen-notes'
NOTES = {'projects/granite-anchor-architecture.md': '0b5009d4c3e42eb5e3cdbec00dfd9d6828973c74596d80b4d260cb98b20dd282', 'archive/ideas/ideas-for-golden-pebble.md': 'c6f65881d6e6d5dc1cc4f65f6bfb96add92f2fc6e66ce39d07cf4916ec9e44da', 'ideas/ideas-for-maple-vale.md': '00b60f444b76cd245d75badfe63375a0e73c5b2448015130e98e996c35ae17bb', 'ops/incidents/incident-2024-09-05.md': '565fe26fde3dacf2416610d290f954a4c3fc52d45e814c342e8b3b1d9ed3cff4', 'kafka-notes.md': '1e7044878753ee5ed15de45423c7beb37039aba04e5057635cc155619a926d17', 'meetings/meeting-with-barbara.md': '794bac8eb123fa04e2cac049c920173b165b7747ca01c6de353ec0c390df81ba', 'meetings/meeting-with-george.md': '3c984297953a938a1b1e78b36fdf5a351b78aa55790b47d40f2b2b1fcf35220c', 'meetings/meeting-with-kelly.md': '17c6aa8e258f296cd2e98476d9e9970f24feb9a11440ffec46327d5ef519f876', 'performance-notes.md': '75f6eda85bc4572a976bda82e011a53f6d37666af7cbd1dee9d7f16dc6f5a71f', 'process-notes.md': '51a9fe11ae44905de4c29dd0fd15eb27b297a80e64176b17bc217821f5764011', 'reading/reading-devolved-bifurcated-extranet.md': '510a90bcf8f4bd0b77bc252c7d502ed6ef25604b2f57f87ba20c52efeacd1835', 'reading/reading-face-to-face-zero-defect-groupware.md': '94303e6cece3baa3da93536870ac156a9acaaa471c00492290603af27f7e1814', 'meetings/retro-2023-05-25.md': 'beba0f9bcf941e0b7804219b05a52c53e69259bf07ce4c8b7fc7b1962b11a1e8', 'projects/sable-kestrel-architecture.md': '3e544e4149adb5799f544e970824f305ac08d02eb2cec3a3277645c954297a97', 'synthesize-one-to-one-e-tailers.md': '210c2982715afee2b2a14ced11e76d43d9659e88cc5b0077acdb822940a25b9e', 'journal/trip-to-watsonport.md': '692b0a68cec58bbc0e70ba1c72de1151e267d1f95f2e6e14d96c9ab17792f510'}  # path relative to the vault -> sha256 it must have now
EXTRA = []  # files the task creates inside the vault
TEXTS = {'/app/todo.tsv': 'path\tline\tstatus\ttask\narchive/ideas/ideas-for-golden-pebble.md\t12\topen\tAnalysis message we military\narchive/ideas/ideas-for-golden-pebble.md\t13\tdone\tPerformance after Congress feeling political condition institution @due(2024-09-24)\narchive/ideas/ideas-for-golden-pebble.md\t14\topen\tUsually billion nothing television expert sometimes last\narchive/ideas/ideas-for-golden-pebble.md\t15\topen\tJoin share behavior whole shoulder but\nideas/ideas-for-maple-vale.md\t18\tdone\tGirl office range\nideas/ideas-for-maple-vale.md\t19\topen\tBorn message religious main upon message edge @due(2024-06-18)\nideas/ideas-for-maple-vale.md\t20\tdone\tBuy child responsibility prove clearly yeah @due(2024-01-20)\nideas/ideas-for-maple-vale.md\t21\topen\tYour degree green their possible strategy @due(2024-04-30)\njournal/trip-to-watsonport.md\t20\tdone\tWriter individual\njournal/trip-to-watsonport.md\t21\tdone\tYes general close practice @due(2024-12-26)\njournal/trip-to-watsonport.md\t22\topen\tGo among a accept @due(2024-02-02)\nkafka-notes.md\t7\tdone\tTable cover big @due(2024-11-28)\nkafka-notes.md\t8\tdone\tInvestment prepare push travel\nkafka-notes.md\t9\topen\tYear song prove recent @due(2024-02-08)\nkafka-notes.md\t10\tdone\tHeavy cause build pattern\nmeetings/meeting-with-barbara.md\t17\topen\tDevelop long choice sure during\nmeetings/meeting-with-barbara.md\t18\topen\tGeneral nation player range\nmeetings/meeting-with-barbara.md\t19\topen\tShake direction stand just authority article feeling office @due(2024-07-20)\nmeetings/meeting-with-george.md\t14\topen\tImportant world address group\nmeetings/meeting-with-george.md\t15\topen\tPopulation despite mouth take\nmeetings/meeting-with-george.md\t16\tdone\tLeader want political @due(2025-02-27)\nmeetings/meeting-with-kelly.md\t17\tdone\tDetail\nmeetings/meeting-with-kelly.md\t18\tdone\tCheck early that edge agent really @due(2024-05-09)\nmeetings/meeting-with-kelly.md\t19\topen\tForce son\nmeetings/meeting-with-kelly.md\t20\topen\tRace couple ball morning wind certainly single father @due(2025-05-22)\nmeetings/meeting-with-kelly.md\t21\topen\tIndeed place scene wonder\nops/incidents/incident-2024-09-05.md\t9\tdone\tEasy mission after\nops/incidents/incident-2024-09-05.md\t10\topen\tNever professor street spend gun\nprocess-notes.md\t14\topen\tBe subject direction read body\nprojects/granite-anchor-architecture.md\t11\topen\tPoint one\nprojects/granite-anchor-architecture.md\t12\tdone\tDiscussion under message near knowledge direction @due(2025-02-03)\nprojects/granite-anchor-architecture.md\t13\tdone\tMoney shoulder song agent seem\nprojects/granite-anchor-architecture.md\t14\topen\tRule list amount on individual sure not something record\nprojects/sable-kestrel-architecture.md\t15\topen\tEnvironmental hundred reach too\nprojects/sable-kestrel-architecture.md\t16\topen\tThen pull if agency\nprojects/sable-kestrel-architecture.md\t17\topen\tTeacher paper kid environment\nprojects/sable-kestrel-architecture.md\t18\topen\tLikely might stand difference site available compare mouth rate\nprojects/sable-kestrel-architecture.md\t19\topen\tAble data although service late @due(2025-02-17)\nreading/reading-devolved-bifurcated-extranet.md\t12\topen\tSkin determine history rich way\nreading/reading-devolved-bifurcated-extranet.md\t13\topen\tSeek while send light treatment thousand @due(2025-02-23)\nreading/reading-devolved-bifurcated-extranet.md\t14\topen\tSo us many race @due(2024-08-14)\nreading/reading-devolved-bifurcated-extranet.md\t15\topen\tDemocratic several travel require fast\nreading/reading-face-to-face-zero-defect-groupware.md\t7\topen\tReveal plant authority alone\nreading/reading-face-to-face-zero-defect-groupware.md\t8\topen\tEnvironment two international least outside condition\nreading/reading-face-to-face-zero-defect-groupware.md\t9\topen\tPerformance voice shoulder describe\n'}
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
