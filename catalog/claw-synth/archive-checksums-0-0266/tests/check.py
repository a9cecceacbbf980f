#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/silver-meadow-archive': {'files': {'audio/avoid_survey.sql': '0c867db26ba4935b8bb553260f4d09e691709876a05db68e4470823a34b9c4a2', 'audio/heron-photo.pdf': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'audio/quite_brochure.json': 'bdbaaca793b82738b826024049e0d4dd1180bb77f041da6048aca9a9c6439e26', 'checklist unit v2.gz': '87fe127622a828f3e4a4324709b69c45d941210956422b5e000b35251ff84dda', 'contracts/2023/receipt-long.md': 'd40e03d74235bbfd10f5ceb483f9dadf4655cc0fc407379c17bd774b6e2b0666', 'contracts/2023/tutorial-apply.docx': 'fa91b77aa5021479e7dc097f8ab9b4e961b7f56ee24883e21832e210bcef5834', 'data/2024/GENERATION_WARRANTY.gz': 'b1c169b233f1519e506e9da2b154a1139f8618e8ba794f0081a88d43efcd2456', 'docs/dump.gz': 'c7490722998b76e9f44cc5bca154c01d579413698f20ccc64fdc9d3919b8f312', 'docs/legal/HANDBOOK MORNING.jpg': '382b0a8a05f50706666b08a895667afd64c0e529db1fcd653a642b3a46bd5749', 'docs/legal/Panorama.gz': '92c7350cc91c26ae12190bfa97010c674a2f4b850ed78ef53b99127615e29fd6', 'docs/legal/checklist.log': '98ebee2f40874301efa0a651b6b44eb610b917ce3bba9435b6de20c86a924ba0', 'docs/legal/pricelist.sql': 'b0035b3402966a283e333ff7a72fcf9498d133d946f2d6c06edbc2d0383be8fb', 'finance/invoices/Condor-Screenshot.png': 'b7b3d9f5ec83e049e20aefdc2b431571b7f1bcfb9b96a8072c91cb62f504a88f', 'finance/invoices/MYSELF_DUMP.xlsx': 'e27df093a3ed60352acdd083b4920272d59f7c1da0a7328aff7d5f5ff4ef19b4', 'finance/invoices/payroll moment.sql': 'bce4a6b3696627b06cbc038e5d4159bbff918643174340434a43c0438662bd91', 'finance/invoices/selfie arrive.mp3': '6592565d0bf485569388b75c64743aebb07db8ef9261b8f962b6674a244dfa74', 'finance/payroll/effect_schedule.md': '4e77731ab28dd732301bbf3d0ad82ff8d1bfc00ba70e3e8a3c9a3bc785bc71e2', 'finance/payroll/manifest-entire.json': '51b0f8de7869ad7d9d85568617072224d14ea56599a12a2c0edf10933131f2e5', 'finance/payroll/receipt there.sql': 'c181706718fdae5c6dfb12539c9f2a76e443364b096862f88457cf1fd1fce316', 'finance/payroll/remain_template.txt': '4fc578eda3c09a6d7dd5b0bf0c562875313985dafebb343fdbaa8062920c8841', 'finance/payroll/surface_quote.xlsx': '0ec5bb91ec8fb50ee1b193a42a69d31c666390371f6f55f4743ecc4f0610113f', 'finance/payroll/ticket into.gz': '4d946350e952c97ebddbf4bb3185f2af332eecd20255780ca02a04b8e229fd65', 'ledger create.pdf': '520df724b2cf0ff35151ff4616f033763fe3549f1310756f72fed0fb2a0cc065', 'scan forward.docx': '555624162825f4e5f4a00f2d2c230b1f3b2f320cba2d42204a7ae2556a21e96e', 'transcript buy.xlsx': '86f93eaf0a05d8331c357c618408ef9b632cfa0e3c2f2a39a9430e89fc68e497', 'vale-portrait.jpg': '6e570661f70bc5405e5ea50ca7fd9a4e5b6a3fd2130291f35e574cbbeb492a4c'}, 'links': {}, 'dirs': None, 'skip': ['manifest.json']}}
TEXTS = {'/app/manifest-changes.txt': 'CHANGED audio/avoid_survey.sql\nADDED checklist unit v2.gz\nCHANGED contracts/2023/receipt-long.md\nREMOVED docs/diagram.jpg\nCHANGED docs/legal/pricelist.sql\nCHANGED finance/payroll/receipt there.sql\nCHANGED finance/payroll/ticket into.gz\n'}
JSONS = {'/app/silver-meadow-archive/manifest.json': {'algorithm': 'sha1', 'files': [{'path': 'audio/avoid_survey.sql', 'size': 75, 'digest': 'a230088626987283fcfb3427c2a5506041b3f410'}, {'path': 'audio/heron-photo.pdf', 'size': 0, 'digest': 'da39a3ee5e6b4b0d3255bfef95601890afd80709'}, {'path': 'audio/quite_brochure.json', 'size': 166, 'digest': 'caed32073d13a1a605962fe7915d8c6d3f3fd186'}, {'path': 'checklist unit v2.gz', 'size': 62, 'digest': '95acb55eed6d30d5c774c1cb942964346d62d712'}, {'path': 'contracts/2023/receipt-long.md', 'size': 171, 'digest': 'b4fe8548b07cd897716cac02be4c413f1c5d837b'}, {'path': 'contracts/2023/tutorial-apply.docx', 'size': 174, 'digest': 'b3caa2bb1dd5d8d89fd3db3f92fbd3da55bab172'}, {'path': 'data/2024/GENERATION_WARRANTY.gz', 'size': 96, 'digest': 'b63add52136e16b682f9e274a1910171d0bb0a22'}, {'path': 'docs/dump.gz', 'size': 194, 'digest': '9629746e7540a65a5404fce5118d0f981da569bd'}, {'path': 'docs/legal/HANDBOOK MORNING.jpg', 'size': 149, 'digest': 'f5634921114c889dce0d90df4437a9b552ba218d'}, {'path': 'docs/legal/Panorama.gz', 'size': 191, 'digest': '2063047f0c1a49208890f50566c911581649cea3'}, {'path': 'docs/legal/checklist.log', 'size': 149, 'digest': 'bc1f3fa6a6e72f92b25836e6e971466de32680d7'}, {'path': 'docs/legal/pricelist.sql', 'size': 175, 'digest': '7d99f42c76fa1c5826c7291b9bf1f7617726bed8'}, {'path': 'finance/invoices/Condor-Screenshot.png', 'size': 185, 'digest': '2a5c08485d9dd415407f6c509498ec8037b16241'}, {'path': 'finance/invoices/MYSELF_DUMP.xlsx', 'size': 202, 'digest': 'ffa555877c2bd3b314a889de81b3c660d94923b3'}, {'path': 'finance/invoices/payroll moment.sql', 'size': 157, 'digest': '090e26351f4b0bfa115d86c71a325b0639147d7c'}, {'path': 'finance/invoices/selfie arrive.mp3', 'size': 172, 'digest': 'bccc2ef2c95d171679e07b3d9042a2d42051936f'}, {'path': 'finance/payroll/effect_schedule.md', 'size': 192, 'digest': '4c4203bb4cdafdf02d5a755f55e28035faed04db'}, {'path': 'finance/payroll/manifest-entire.json', 'size': 159, 'digest': '52e3a75c0f22a4aebd1a967fcca30f32f1c4a741'}, {'path': 'finance/payroll/receipt there.sql', 'size': 152, 'digest': '26dd9f37da402f5280bf1671d9c677879354460a'}, {'path': 'finance/payroll/remain_template.txt', 'size': 173, 'digest': '100f0a50eb794e2b5e8c6d1ff40a150731da8b33'}, {'path': 'finance/payroll/surface_quote.xlsx', 'size': 172, 'digest': 'ada38372d60fb1577806c23a44cfcd6ff6a420f8'}, {'path': 'finance/payroll/ticket into.gz', 'size': 81, 'digest': '10c271e569126cb585bd85b454753df5f4b37099'}, {'path': 'ledger create.pdf', 'size': 175, 'digest': '7cd06b69ca30df741367cf201a07de716579995a'}, {'path': 'scan forward.docx', 'size': 150, 'digest': '3a6d0875db68a7dd110039bcdb534fa672988058'}, {'path': 'transcript buy.xlsx', 'size': 164, 'digest': 'b9b80004d297c68c4efc33fedef2cdeeb70fc373'}, {'path': 'vale-portrait.jpg', 'size': 149, 'digest': '9b33f80047626f62892c0560b2c34d787813ead6'}]}}
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
