#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/exports/sable-condor': {'files': {'Woman_Feedback.sql': '5fa58bdeb0cf258a7c9cab3c87b8ef47427c90a4e1152d5d034188f8ba92eb5c', 'audio/diagram example.json': '69c748602bceaddb409d5025b7ea80814a8a883465e75c845c7b938f25f59887', 'audio/expect_inventory new.pdf': 'f3abb9e9c7cc99de5920e0423850ca2bfb55a633b93b1a939b501c7ffc1c8f72', 'believe_dump.pdf': 'a72dfef97bf9d5d19eab3b6da9c16025668491787c6f1e4f95790742bbbcbe99', 'contracts/2023/Away_Sketch.mp3': '2addfd6d2d01afb8b35baeaa349b63c59b5bfc21c84958193c5594661a7bd9f3', 'contracts/2023/comet-export.sql': '85f88df882ba8062bd2dc6c47d7691ef7983e8a8e8f95f980d355a442bccd195', 'contracts/2023/survey-man.docx': '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', 'finance/payroll/badger-itinerary.json': '2aca9a9dede75f038367890b7f2fa7e2f52ae3d0939118147a00c86e2f43c86a', 'finance/payroll/delta-selfie.docx': 'deba16bdf185a9a35556bb0239cd229bbd07d1d0b9308fffc793d8d2f2131666', 'letter method.csv': '18127a537dd909ec61d4c2538db169decaa881e23477853999826c38bab782b4', 'manifest.sha256': '6ec8bc1b81c9482930deb224522c3e8df7109b08c92da7dd0a4932d7a79ac10b', 'reports/q1/lynx-template tmp.csv': 'e91ccd7fff721c1e466cd79f71d598a9248241d7e5c4aaff9424992700ebb36d', 'reports/q1/manifest-dinner.sql': 'c0d27331c3379020cea797647dc016c70f97f2f86000288d26ef7e30b1e315dd', 'reports/q1/transcript hope copy.png': '21ca0a870fd38ef38ea3bc433107b7005219f3b9ddec2acfc5859c204aab8762', 'reports/q2/Diagram Example.json': '709d2ba66f9aae87916c229209e2e6d1ebbf10709d5be9e28aced6045be50234', 'reports/q2/catalog-same.sql': 'e86abd6f521acdf9b843d1c800a1ad247160588680ada5eb49712abe347021f0', 'reports/q2/condor-quote.json': '5d2a9194779744d220b2f4dd954101d318f5ef8feac5adece6c52a85ec2597cd', 'reports/q2/manifest-entire.json': 'e9ae62332cf7541942aa68d041f297fcb2c8cb0dadaa6d99f32b5bbe3135777a', 'reports/q2/warranty-human.pdf': '68dbadf9a1fa63604caaf067865ea31beb646202065c645354b40faef93b3930', 'tutorial service.txt': 'c029e97fa655c9f6e1bbdf67b16e62488123d599e1a47ea448fd0cc0476e3253'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/audit.csv': 'path,status\nWoman_Feedback.sql,OK\naudio/diagram example.json,OK\naudio/expect_inventory new.pdf,UNLISTED\naudio/thousand_proposal.sql,MISSING\nbelieve_dump.pdf,OK\ncontracts/2023/Away_Sketch.mp3,OK\ncontracts/2023/comet-export.sql,OK\ncontracts/2023/survey-man.docx,BAD\nfinance/payroll/badger-itinerary.json,OK\nfinance/payroll/delta-selfie.docx,BAD\nfinance/payroll/pine-manual.md,MISSING\nletter method.csv,OK\nreports/q1/lynx-template tmp.csv,UNLISTED\nreports/q1/manifest-dinner.sql,OK\nreports/q1/transcript hope copy.png,UNLISTED\nreports/q2/Diagram Example.json,OK\nreports/q2/catalog-same.sql,OK\nreports/q2/condor-quote.json,OK\nreports/q2/manifest-entire.json,BAD\nreports/q2/warranty-human.pdf,OK\ntutorial service.txt,BAD\n'}
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
