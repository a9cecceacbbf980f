#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/handover': {'files': {'Mesa-Budget.gz': '56803dc230581ca72ef99f1c71ce23a37dde578d44495433d3a6ced4df23ff9d', 'audio/Scan Forward.json': '622525bded3ce97a97d8395fc0cf412a86380dd924e0783526ea11c2b78a9506', 'audio/chair_resume.docx': '6db11d56b51c2c8b7096417ba8b8712a6c418a3a49bc6aee98c7aea1b42b1193', 'contracts/2023/FALCON-GUIDE.sql': 'b761ca2184a4c203dc78023d12aca1ef2c323c6e7c709cd45e1b5ec21b41fee3', 'contracts/2023/export-sport.log': '9ec1dc4219ab5ba343ebb8cf0771f1aafd661da0f653114fb3547c46b95acfdd', 'data/2024/feedback way.jpg': '252b9e321edaa75d3c108c754cf0c3559c7f08f987bac9260ffed67f1294595f', 'data/2024/survey without.xlsx': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'data/2024/thousand_proposal.json': 'b9c290aa29aaa65c2a2ebb41f1a8c72b81e42c4a6918865b84f8e6197b5dabcb', 'data/2024/warranty.docx': 'f826e32b65960564d3d7375c935ea64f2dc098257d82a2a572794760cebfc4b6', 'data/raw/Falcon-Sample.jpg': 'c8c1c8cd196e7fe5d51bbec5fc4d85afeba9fa93c1b318d774ce2be342b8512f', 'data/raw/inventory.docx': 'a9b494b00cecee3ab8ff8cbbea316c760e8551e632bd67416cba10ac6547b007', 'finance/invoices/BISON-TEMPLATE.sql': '54b12ed1d027e65b6d1d3371b0916a0201f12068e6e1bf5d5c6c8d6e780d909b', 'finance/invoices/Interview-Pressure.md': 'ed3f291032b206e76c4add9cc98ce8e784a79c2b2c2fb27434410badd7a2bba0', 'finance/invoices/Thousand_Proposal.gz': 'ffa393da28f3dea382b277f6ae480cb835ff1720723a255b5ee36d585fa954ca', 'finance/invoices/remain_template.gz': '9de560244ed2b88b7f7d6c523a632f3845736c526fe499e53a57e36482aeaa99', 'manifest.md5': '1b0123588c318d3aa1d59abb9ca1f60160df1483c24b7ff177a573c961fc6234', 'src/diagram example.log': '54198762317b2d43d0fc4cd9cd2d8810fb7f3ef4b11ea1651025410fe20d1da1', 'src/receipt there.json': '515205df27706bfdcefa97e9cce73d19bddd6be342194544d9ee3cd141713645', 'src/tough_ticket.md': 'c6818cabeab193a095d271981031fe24f9b32f601fcfc9ae5fe8b0343051be17', 'tutorial service.png': '7698f79e7b9f1d30fcdd7d04845eaf1febdd59bce0e803a1d45eaa992f502235'}, 'links': {}, 'dirs': None}, '/app/quarantine': {'files': {'Heron-Photo.docx': 'c4e16ce0c67c2d7fd84f67ca5e420d580e0022f4de68137ad09620bb6023c461', 'audio/Falcon-Sample.mp3': 'e33bc5e6ae1579b978a410733807f873bb7721ec344268d36eac02ca1b83171d', 'contracts/2023/notes light.pdf': 'c0dff862886822458db591bc47681ef876dc9cbbf866689a43f884aca3e9e7f5', 'data/2024/TICKET-TEND.docx': 'fbad53118a97e652670b0fe1ac2b844af8f46d51962d552f14c1fd208a4c6520', 'finance/invoices/interview-pressure.txt': '519664e01d6dc44fb3084765de523b3d00b0899a38c526db6045604e67702f6d'}, 'links': {}, 'dirs': None}, '/app/unlisted': {'files': {'data/raw/memo-accept v2.sql': '81ded1c78e4411b874b5d86038c44b8cd7330277ea136df82f1e344a5b86571e', 'data/raw/quartz-flyer copy.jpg': '0951623fbb3cb23886c3bf800f9047b7e83be0b21423c166837dad56dd0e242a', 'memo-accept new.md': 'eb81b2995ba6e878c3deacbb157bfb1c92ec6206da4e93334060f51e2ee5272f'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/bad_files.txt': 'MISSING ./data/2024/bison-order.log\nCORRUPT Heron-Photo.docx\nCORRUPT audio/Falcon-Sample.mp3\nCORRUPT contracts/2023/notes light.pdf\nCORRUPT data/2024/TICKET-TEND.docx\nMISSING data/raw/forecast teach.txt\nUNTRACKED data/raw/memo-accept v2.sql\nUNTRACKED data/raw/quartz-flyer copy.jpg\nCORRUPT finance/invoices/interview-pressure.txt\nUNTRACKED memo-accept new.md\n'}
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
