#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/releases/steady-falcon': {'files': {'MD5SUMS': '524d503d4ca809189234eb52c4b040a982cbe438bd6b145d15fd19eaecbafa45', 'book_agenda.log': '050af05bc3bf73438696560be2b7cd8d6931989b8aeebd481f6a0bae7d1b8857', 'docs/legal/avoid_survey.mp3': '3e8a4c5bfe7ea2bb2cef781fc7cf873815485321ea28ff4ae47e471a55df8636', 'docs/legal/away_sketch copy.jpg': '00a4eae775f81aeffbdc87fa43831dbf552cc1b61219f4fb44355c8f976a6f77', 'docs/legal/kestrel-guide.xlsx': '37e79375e120fbf6d16e62471327ebef5494b77a2ec5be058f6a3a68c244d9ca', 'docs/legal/manifest.mp3': '2b1802725af6935ecf0cf57017f1b1547644623ea67280ff770223f84ccd2650', 'docs/legal/summary.mp3': 'f9295d6fbe091435078a5d7de4923943e25a9ce7f4f0017e3b9dc7217d2e7ce3', 'finance/invoices/selfie arrive.gz': 'd8420579ca67ea4e92fb78a26f2277f4eb5448700b0f559b3e35c9d9cae0c15d', 'finance/invoices/warranty-human.gz': '7a9e04e777ca57a0aa5b76bb2589e483cc75e6deb3a20ae4278fc60c4cfc38ea', 'finance/payroll/catalog-allow.log': '212ebfada73c437619583cee9383e0860b2a7e8c323e802401842d372878d294', 'finance/payroll/interview-pressure.mp3': 'b7cec0a2d97884f88d868057b1e5300765df062aab2268b2a630117a15c9269b'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/check-results.txt': 'OK book_agenda.log\nOK docs/legal/avoid_survey.mp3\nUNLISTED docs/legal/away_sketch copy.jpg\nBAD docs/legal/kestrel-guide.xlsx\nOK docs/legal/manifest.mp3\nOK docs/legal/summary.mp3\nBAD finance/invoices/selfie arrive.gz\nMISSING finance/invoices/timesheet-may.mp3\nOK finance/invoices/warranty-human.gz\nOK finance/payroll/catalog-allow.log\nOK finance/payroll/interview-pressure.mp3\n'}
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
