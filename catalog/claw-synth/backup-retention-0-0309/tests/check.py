#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/old-backups/inventory': {'files': {'inventory-logs.20250403-0615.tar.xz': 'fa0af7fe2fd1f1ffce9411a7e5a2c0b89b3cf0b28a7d707eb392ed4cfd40e985', 'inventory-logs.20250403-1540.tar.xz': 'bdad8186e2368adaa37cd274cdd4a728a952a0d832fd5191dc1f63111044e9d0', 'inventory-logs.20250408-0910.tar.xz': 'a476dd630fd079d236b7b12b04d5c6663322f2993c1ff4d1e44386ba681402d7', 'inventory-logs.20250411-1100.tar.xz': 'd2efaa3fd87850af0da514be377752158ebe5208a8c28340c25068de0ecc8c33', 'inventory-logs.20250415-1415.tar.xz': '900068c60561100740f51486b639a2801e1b878a834e69868612efa6ef9a46a8', 'inventory-logs.20250503-1915.tar.xz': '30dd3821b1ed688817ba731c3ab2cf9ff51b1fb5c23004c8e240b4bd573fa4f5', 'inventory-logs.20250505-1620.tar.xz': '9b7b54fac896e6013a4ccfd5297e81ae396a6f92d25087bfd9ca73036ddccee9', 'inventory-logs.20250505-2340.tar.xz': 'bb441fb878ae4ce43cd7fc78d3de5a0af4a567e62c0a0eeeba01535119539a24', 'inventory-logs.20250511-1040.tar.xz': 'ec97058915f8eb8de9fdf5b16d887ac88157751d9caa6e591ce4c19f177676c7', 'inventory-logs.20250514-2205.tar.xz': '7dd317427e7406085cf202ea388f19a8ee285c1a1b34ba16654cf6dddb5af83c'}, 'links': {}, 'dirs': []}, '/app/srv/logs/old': {'files': {'INVENTORY-LOGS.20250403-0615.tar.xz': 'afaa6810d22e50ec8b81f4a56037e24f276c92b1a8c85f40ed83a577ad824500', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'inventory-logs-old.20250406-0615.tar.xz': 'b4585ac27b8ca35bfacb6e378d6ca8de226b03811e524054b9eb852fb4c31363', 'inventory-logs.20250230-0615.tar.xz': 'd0a94a3b8698511b7e13c50529e0d2039cb37640ce95acf11434c81a9ab6b81f', 'inventory-logs.20250403-0615.tar.xz.partial': '50eddb651f6c28816bebb457f6ca29ff2b857b85c834088dc712c9daca0d036f', 'inventory-logs.20250403-2515.tar.xz': 'cff08ef5ea700c53e84b655488aa68e22dd83a0c5362397877d6c8acb9404855', 'inventory-logs.20250518-1815.tar.xz': 'a7a31d4b07cdac550859648286d8dc417c246d2534b5db3fa598d6646a77efb9', 'inventory-logs.20250519-0105.tar.xz': '58166218727a6e91ab1e091f7751bfcaa61c25843320a97bdddd1b4adbe12f5f', 'inventory-logs.20250521-2355.tar.xz': '2da87c728983e82a86e8a3dbfea0dbfeab839010d8ffff6aab592a6ce6b3b980', 'inventory-logs.20250523-1535.tar.xz': 'e5b926d0eb84e650cf3c1c7171a219530ff118c437fbbc91aa3fb77562e48076', 'inventory-logs.20250524-0215.tar.xz': '1983d73b55f39126c75f883bbee3ff9b9809bc9a41423849ccb46389523ae92b', 'inventory-logs.20250524-0525.tar.xz': '299a01e4679235e0a562803456a5f5c131a00c844b3fbddb72f0dc69d7b1de81', 'inventory-logs.20250524-2315.tar.xz': '11643afcbd7d28d68186676d05414d96cf39ed148a455ef03292e0c685f80c7b', 'inventory-logs.20250531-0605.tar.xz': '2ac325ebebd18f75299c7d2fcd1000c18acf23df1c0f254142c63c26357b71ef', 'inventory-logs.20250605-0420.tar.xz': 'fe7b91e9c72f1efacc2ebdd1613939fb05ce98bd6455b60fc34bfc627dbe5639', 'inventory-logs.20250605-2100.tar.xz': '709b9948e77641a2465f95cee34b29480d435a2c61a013b046b473af3c30ebba', 'inventory-logs.20250606-1345.tar.xz': '2ec3377880ebd547ade4c3bdd233f6f3ac693a3320bca6fdaf40c10d5f358dc4', 'inventory-logs.20250608-1345.tar.xz': '683d4c1da218eb208af4c52455297bbbd7a1bddb53788eb8970dd8e1fdb07fec', 'inventory-logs.20250610-0630.tar.xz': 'd10edeb4aff22f0837f92065eefb9321176a24de0d0baaa093060a5ce58808fe', 'inventory-logs.20250613-0625.tar.xz': 'd1ffef83cc2064b1fec9714d800d559f027c1088719bf07d2fd24262a4d04cd6', 'inventory-logs.20250613-1135.tar.xz': '6655c762e5acef1570269408b2c13fe80fc721366f7529d2ff9b9e5f4a59f38b', 'inventory-logs.20250615-0550.tar.xz': '296153a825c8369e89f472f88a74773d34f2cbd3a24bdc3cfd2d0dc555aff516', 'inventory-logs.20250615-2000.tar.xz': '3ccf9b44c0adeb8e0dbbec0582d266e15abea4411e0a9aa8f309ca25573c620a', 'inventory-logs.20250616-0010.tar.xz': 'a37a3c290ec1f00d9cf8d8c843e86e56e3a0d122fe13cbdcd17bc36e81627872', 'inventory-logs.20250618-2000.tar.xz': '02a50f529cbae740d713a2646ab236a8341ee031e50d60356d2b765fd226c7fe', 'inventory-logs.20250620-2135.tar.xz': '55085b1b8ee480f3699ed17e65c8afaf48505f30be78d67bd5f6dea65ac2c712', 'inventory-logs.20250622-0900.tar.xz': '4e33113af60e76de6aaff43f96839b04e7e013af568c85da825cec7015090e14', 'inventory-logs.20250624-0935.tar.xz': 'b1c0d40bf4c7a697e42b1bc0c1ac8b14b93232d870ad039e1a3e5cd01bde5ae4', 'inventory-logs.20250627-1700.tar.xz': '852d5ccdf04fc134f0eedb32ff44985c8d51a33312748bc23a4d13166b1e81cc', 'inventory-logs.20250627-2200.tar.xz': '16db3ec827f64714d8f5407dd4e2ab1241378adb62f6abd0e0baa56e35fa273d', 'inventory-logs.20250628-0450.tar.xz': '3ae891fb3f3cfae5a39aca2455173b5ed09f9c205c7303c7d2ead6c18c67e1ae', 'inventory-logs.20250630-1510.tar.xz': '4b14f1f21a153679269b07bdd03f428f3a5ee5941cd49dfeb95d45b52a9b284b', 'inventory-logs.20251303-0615.tar.xz': '4e16d215af4577dda116e4dfa44429123d4f4d9d64a9145c0a33fe6a1861a4aa', 'inventory-logs.250403-0615.tar.xz': '1fd44e56d6414993b2f8c5ea2a21f7f954fa82c8eec9de7b62336137e0f33812', 'manual/inventory-logs.20250131-0000.tar.xz': 'f734868b36df0c30bd9432c78fec0c93dc458cb847694fb8fceea375afd3a24c'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/expired.txt': 'inventory-logs.20250403-0615.tar.xz\ninventory-logs.20250403-1540.tar.xz\ninventory-logs.20250408-0910.tar.xz\ninventory-logs.20250411-1100.tar.xz\ninventory-logs.20250415-1415.tar.xz\ninventory-logs.20250503-1915.tar.xz\ninventory-logs.20250505-1620.tar.xz\ninventory-logs.20250505-2340.tar.xz\ninventory-logs.20250511-1040.tar.xz\ninventory-logs.20250514-2205.tar.xz\n'}
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
