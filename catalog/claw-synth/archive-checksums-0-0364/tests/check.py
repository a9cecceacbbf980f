#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/vault': {'files': {'audio/dump paper.md': '2d2dd1b643b6fba2af6c7ee8028307a81be844d76eea1c9ab37ed6a09e4f6d03', 'audio/harbor-sketch.sql': '3cc94c44736c57ec9c6431c05e4dbff8ebcbfbfce56db234b966ca027a5b0001', 'audio/podcast police.sql': 'bcf7ede8c959042e06753fba8ceb93a82a35a4d3a6f411029f3647ff0aa997c0', 'audio/snapshot new.pdf': '428b56b7f738acf83b5d52799f326f09bc1d537986da01755b65f851b62b19f0', 'audio/statement.sql': 'fe709b80973c9b0296ca80a3117ea3fb34ec15361cccc6c6131ee1be025d669b', 'contracts/2023/LEDGER SIX.pdf': 'e1ff878a0e6929c8e348a142d335a4f6586912b42e54bd2f1ce70334c9c78d86', 'contracts/2023/letter method.md': 'b37be0f4336a6cf1719a0fc224a27bb0b9dee41f02b28ddbc2327669c7906e5c', 'data/dump paper.log': '5632a4a1f1a9fcad86099a47a5fd5fdbde114eecb861030b43db3ab66b636aa6', 'data/newspaper_receipt.gz': 'e5471bd01c7f2c0b1a7f43ab17d766a5353954e2d18859db4a2df7984189fea9', 'data/raw/TUTORIAL SERVICE.sql': 'cb708b4ddef4564484ad1a5b66fced179d6423bc6882edaab50065271c90d84a', 'data/raw/and_warranty.docx': 'b2961d9d4b05025583c4a4d9256ed13ada74dacd8ddf61147f307722468fffff', 'data/raw/comet-export new.mp3': '1177dd88f1cb79f7c624b40b2deb2df57649ae1fca7667bde3a8af73522b2162', 'data/raw/payroll-than.sql': '39c0b7752138f60e0b7cbf23b1218294b3b36f42c5979d50405aa4c1bc0b460a', 'docs/legal/SURFACE_QUOTE.mp3': '749412d985a9333d8d394d3f6fd44efa96bc2ebea1d3e7b2460536acaf0b3e89', 'docs/legal/handbook morning.json': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'docs/legal/portrait-heavy.csv': '523fcf5c6c694b7e2c3acacd31a878ea889f1633b123ed0c609f81b3842aff15', 'docs/legal/scan forward tmp.csv': '99ea0fe840a55b49ba2020582c026e7c73840a3ed9c869040e69f83197e76c5f', 'docs/legal/ticket-tend.sql': '1961834c0b1b55bcda1a65a2d9298c510cabfd42d08026311af86d560e805f35', 'images/press kit/Scan Forward.docx': '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d', 'images/press kit/export-sport.json': '2137f479050eff9176fa2c981244ec295e8535dc7a6ec45907d7cb62aae1abb6', 'images/press kit/panorama voice.pdf': '167f2b322ad340c497220000e3f6299847d6a9c91477248cd33a0715146d6c3f', 'manifest.sha1': 'a3b873979fa9a7f96461e49f8c4f1868fd19b342057a58c95869db714fe3876c', 'memo.docx': '363b29085e6d02e9eaa19b04887ebdb84ce2a73353ba23183ecc523f55729ae4', 'misc/FORECAST-HOW.png': 'eb96711cb1b3e73d4dfdf135dfaa75e445c4bb5bfcab28aee6aadbb3d2b1707d', 'misc/effect_schedule.txt': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'misc/export-sport.xlsx': '059cc9fc0c41a51818da1df6bf2e368e550ef0bb2a443a2eadd8d8ab1c9a4e58', 'misc/generation_warranty.xlsx': '2307866a2a73833170c2b56b77d1f7d4b00ab6d9311c656b75717b2ac2021198', 'misc/significant_scan.xlsx': '3dbae04faaa2dc5a0b13255af5490fcac68a24ebf2c5f1898918924aca07c8be', 'podcast police.xlsx': '766b71ad0cef06249b0e76dcef96123364f19c076c909cb75f81fc1d3b052dd4', 'transcript buy.docx': '766d762de12aa6536ede99ca7688def9dcbbfd8e621d703a8b14c6fdc5582628'}, 'links': {}, 'dirs': None}, '/app/backup/fast-tundra': {'files': {'audio/dump paper.md': '2d2dd1b643b6fba2af6c7ee8028307a81be844d76eea1c9ab37ed6a09e4f6d03', 'audio/harbor-sketch.sql': '3cc94c44736c57ec9c6431c05e4dbff8ebcbfbfce56db234b966ca027a5b0001', 'audio/podcast police.sql': 'bcf7ede8c959042e06753fba8ceb93a82a35a4d3a6f411029f3647ff0aa997c0', 'contracts/2023/LEDGER SIX.pdf': 'e1ff878a0e6929c8e348a142d335a4f6586912b42e54bd2f1ce70334c9c78d86', 'contracts/2023/letter method.md': 'b37be0f4336a6cf1719a0fc224a27bb0b9dee41f02b28ddbc2327669c7906e5c', 'data/dump paper.log': '5632a4a1f1a9fcad86099a47a5fd5fdbde114eecb861030b43db3ab66b636aa6', 'data/newspaper_receipt.gz': 'e5471bd01c7f2c0b1a7f43ab17d766a5353954e2d18859db4a2df7984189fea9', 'data/raw/and_warranty.docx': 'b2961d9d4b05025583c4a4d9256ed13ada74dacd8ddf61147f307722468fffff', 'data/raw/comet-export new.mp3': '1177dd88f1cb79f7c624b40b2deb2df57649ae1fca7667bde3a8af73522b2162', 'docs/legal/handbook morning.json': 'c64fb8f8b3dcd3d26de316199ccab62d770d11ac88dd5d15ebd39ed407c3a5e8', 'docs/legal/ticket-tend.sql': '1961834c0b1b55bcda1a65a2d9298c510cabfd42d08026311af86d560e805f35', 'images/press kit/export-sport.json': '2137f479050eff9176fa2c981244ec295e8535dc7a6ec45907d7cb62aae1abb6', 'images/press kit/panorama voice.pdf': '167f2b322ad340c497220000e3f6299847d6a9c91477248cd33a0715146d6c3f', 'memo.docx': '363b29085e6d02e9eaa19b04887ebdb84ce2a73353ba23183ecc523f55729ae4', 'misc/FORECAST-HOW.png': 'eb96711cb1b3e73d4dfdf135dfaa75e445c4bb5bfcab28aee6aadbb3d2b1707d', 'misc/export-sport.xlsx': '059cc9fc0c41a51818da1df6bf2e368e550ef0bb2a443a2eadd8d8ab1c9a4e58', 'misc/generation_warranty.xlsx': '2307866a2a73833170c2b56b77d1f7d4b00ab6d9311c656b75717b2ac2021198', 'misc/significant_scan.xlsx': '3dbae04faaa2dc5a0b13255af5490fcac68a24ebf2c5f1898918924aca07c8be', 'podcast police.xlsx': '766b71ad0cef06249b0e76dcef96123364f19c076c909cb75f81fc1d3b052dd4', 'transcript buy.docx': '766d762de12aa6536ede99ca7688def9dcbbfd8e621d703a8b14c6fdc5582628'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/repair.txt': 'LOST ./docs/legal/SURFACE_QUOTE.mp3\nRESTORED audio/dump paper.md\nLOST docs/legal/handbook morning.json\nLOST images/press kit/Scan Forward.docx\nLOST misc/effect_schedule.txt\nRESTORED podcast police.xlsx\n'}
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
