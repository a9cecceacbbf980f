#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/deborah/shared': {'files': {'.DS_Store': '37f6b757a98ec93d8c0774686dd7db2bd26040536ef69da9764de679fcc21779', 'Keep Me/memo evening FINAL.txt': '34dc498d9aca09b9625757b1352c40bae440c2f38351c0ceb77ca87bcd1e7297', 'away-sk-tch': '9255e29d9016fa71ebc326e24abb2ce221ff6e84d492732fd6bb59f0507b04eb', 'build-schedule.txt': '7f146a1cd1dbbddeeb106db885830ab4d9bd55b964bfdb24f14edfe325d27bfa', 'catalog-same.txt': 'b6e6227f6c212aaf25a660e652e6840531ba9b5fde975ddabaa6e07a72fa70af', 'checklist-unit.txt': '0e3367a11f97bb4c43435336da57e02b589a5544f448351f5a27d318797b4e57', 'checklist.pdf': '03e5ff01c11a117d29a8391cb922e98a720cd8dbbaf5d1e6e5ed8e9402164072', 'condor-tutorial-2.xlsx': '766839dfdb4a474d2829eff90d4151b179294689c4665ef2355194e7c04e3833', 'demo-v3.jpg': '6cf862ccc338be71bb243b9fdb3dea4631c9c92a80862cf9c823a16c93976025', 'diagram-xample.jpg': 'daa57ff5182a1a4563573c43de1929856c6aceccacfd87b79bf6b2b05dc669cf', 'file.txt': 'e1f98fb56727717de46b25aa578645b4908837f5da143db1e150519f5516d8e5', 'forecast-thing.csv': '8ba155a626200d0d8407832b3c6be580cb6b2228bcdf95cc5a4624034b959f0f', 'handbook-morning-side.pdf': 'eddb482954464359308d710b4ea364c18210d0aa71efae8b9f938450dff56840', 'interview-pressure': '946244127f5efc2d4281f16add0d44b5accbc647ed85f3d4a00525be733c0c07', 'pine-mockup.docx': '0f5230d714344dfece2e9d87c99913ccaf98ce1c47057d5ec5d8ff21c59f6b0b', 'portrait.mp3': '11b6b3335da9843ec05c9e2da476c76d4072ed50d9a6a1f8137b153a8550b046', 'receipt-there': '4fb7ca9915814b06aafee9df4f79ec2c954c6e99ccfd69ebe3ee1048ac63b986', 'scan-prepare.jpg': '3939fc74b0e7f985650edaccd04fe94ac59da2e9961649809fb6853c157370ca', 'sketch.jpg': 'd6267686b53da407502eda226ba73793da28df01ee5b66d87b751c7edb2ec626', 'tutorial-road-v3-2.pdf': '55a691581b81f234f01a2fd39821ffd0dd140602728b3e3998f2ff35647816ba', 'tutorial-road-v3.pdf': 'd811cfa26b1d1f4488072764020deb8462ceb46ec54a59d078e98af265aefca5', 'warranty-human.jpg': '49b4ecd795c2adb40b96d0c682fb6ddc93df96951fa8c2e83f1b582543264826'}, 'links': {}, 'dirs': ['Keep Me']}}
TEXTS = {'/app/renames.csv': 'old,new\n  Warranty-Human .JPG,warranty-human.jpg\n!!!.txt,file.txt\nCONDOR-TUTORIAL (2).xlsx,condor-tutorial-2.xlsx\nChecklist.PDF,checklist.pdf\nDEMO-V3.jpg,demo-v3.jpg\nForecast-Thing.csv,forecast-thing.csv\nHandbook Morning ! side.PDF,handbook-morning-side.pdf\nPINE-MOCKUP.docx,pine-mockup.docx\nPORTRAIT.MP3,portrait.mp3\nRECEIPT_THERE,receipt-there\nSKETCH.JPG,sketch.jpg\nScan Prepare.jpg,scan-prepare.jpg\nTUTORIAL ROAD-V3.PDF,tutorial-road-v3.pdf\naway_skøtch,away-sk-tch\nbuild_schedule.txt,build-schedule.txt\nchecklist unit.txt,checklist-unit.txt\ndiagram éxample.jpg,diagram-xample.jpg\ntutorial road-v3.pdf,tutorial-road-v3-2.pdf\n'}
JSONS = {}
ABSENT = []


def digest(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def walk(top):
    files, links, dirs = {}, {}, set()
    for dirpath, dirnames, filenames in os.walk(top):
        rel_dir = os.path.relpath(dirpath, top)
        for d in list(dirnames):
            rel = os.path.normpath(os.path.join(rel_dir, d))
            if os.path.islink(os.path.join(dirpath, d)):
                links[rel] = os.readlink(os.path.join(dirpath, d))
                dirnames.remove(d)
            else:
                dirs.add(rel)
        for f in filenames:
            full = os.path.join(dirpath, f)
            rel = os.path.normpath(os.path.join(rel_dir, f))
            if os.path.islink(full):
                links[rel] = os.readlink(full)
            elif os.path.isfile(full):
                files[rel] = digest(full)
            else:
                files[rel] = "(not a regular file)"
    return files, links, dirs


def lines(text):
    return [line.rstrip() for line in text.replace("\r\n", "\n").rstrip("\n").split("\n")] if text.strip() else []


def check_tree(top, want, fails):
    if not os.path.isdir(top):
        if want["files"] or want["links"]:
            fails.append("%s is missing (or not a folder)" % top)
        return
    files, links, dirs = walk(top)
    skip = set(want.get("skip", []))
    for rel in sorted(skip - set(files)):
        fails.append("missing file: %s/%s" % (top, rel))
    files = {rel: h for rel, h in files.items() if rel not in skip}
    for rel in sorted(set(want["files"]) - set(files)):
        fails.append("missing (or misplaced) file: %s/%s" % (top, rel))
    for rel in sorted(set(files) - set(want["files"])):
        fails.append("unexpected file: %s/%s" % (top, rel))
    for rel in sorted(set(want["files"]) & set(files)):
        if files[rel] != want["files"][rel]:
            fails.append("wrong content: %s/%s" % (top, rel))
    for rel, target in sorted(want["links"].items()):
        if rel not in links:
            fails.append("expected a symlink at %s/%s (pointing to %s)" % (top, rel, target))
        elif links[rel] != target:
            fails.append("symlink %s/%s points to %r, expected %r" % (top, rel, links[rel], target))
    for rel in sorted(set(links) - set(want["links"])):
        fails.append("unexpected symlink: %s/%s" % (top, rel))
    if want.get("dirs") is not None:
        for rel in sorted(dirs - set(want["dirs"])):
            fails.append("unexpected folder: %s/%s" % (top, rel))
        for rel in sorted(set(want["dirs"]) - dirs):
            fails.append("missing folder: %s/%s" % (top, rel))


def main():
    fails = []
    for top, want in sorted(TREES.items()):
        check_tree(top, want, fails)
    for path in ABSENT:
        if os.path.lexists(path):
            fails.append("%s should not exist" % path)
    for path, text in sorted(TEXTS.items()):
        try:
            with open(path, encoding="utf-8") as fh:
                got_text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            fails.append("cannot read %s: %s" % (path, exc))
            continue
        want_l, got_l = lines(text), lines(got_text)
        if want_l != got_l:
            fails.append("%s is not as expected (%d lines expected, %d found)" % (path, len(want_l), len(got_l)))
            for i in range(max(len(want_l), len(got_l))):
                w = want_l[i] if i < len(want_l) else None
                g = got_l[i] if i < len(got_l) else None
                if w != g:
                    fails.append("  first difference, line %d: expected %r, got %r" % (i + 1, w, g))
                    break
    for path, want in sorted(JSONS.items()):
        try:
            with open(path, encoding="utf-8") as fh:
                got_json = json.load(fh)
        except (OSError, ValueError) as exc:
            fails.append("cannot read %s as JSON: %s" % (path, exc))
            continue
        if got_json != want:
            fails.append("%s is wrong:\n  expected %s\n  got      %s" % (path, json.dumps(want), json.dumps(got_json)))
    for f in fails:
        print("FAIL:", f)
    print("PASS" if not fails else "FAILED (%d problems)" % len(fails))
    return 0 if not fails else 1


if __name__ == "__main__":
    sys.exit(main())
