#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/delivery': {'files': {'ESTIMATE ANALYSIS.sql': '5d2de53d6974835aeaf2c72444bdf4235c6c409041fcc504d75f9e7a6e3f0d34', 'TUTORIAL-APPLY.pdf': '1c72281caa9860586255028a3b29767b8b0d2ef90f4fde7d207e3d3b51059b67', 'data/backup listen.pdf': 'b0a9f674ad6a7ef0b2086ea4b86a6d5e4dce57957cd7258ce907c8c39adfafc2', 'data/delta-selfie.txt': '01ba4719c80b6fe911b091a7c05124b64eeece964e09c058ef8f9805daca546b', 'data/demo new.pdf': 'c999e2a36597e3e781399fdeea9f441338c3517e29e431868852f7947fe34a73', 'data/raw/forecast-how.csv': '848e9c6ec28811e9353a1cde02309650b550e3d5cb81c9c574d75c8a98400108', 'data/raw/memo-accept.gz': '2bd33db934983424a3228f53e43439001b453b575a263cad1b33d904fbe162b1', 'data/raw/zephyr-feedback.txt': '0c89bd16f2dc23a73027e3a48d381f2d64e52925bef53b3f533c3fc4cd48a640', 'data/tundra-invoice.jpg': 'ec3041e1055f4a1197b2862e2690e264c255398c8647a443615d68d553c57b5d', 'docs/Away_Sketch.sql': '9712be4a370b2e18863699ddd44c7dff805db6aa7fc56a33a60752d74ebf1b3a', 'docs/memo.mp3': '04c1c006b4edcaadd5bfd24083e816d4e8891424ae4c05d1c4de0aa47bd215f9', 'docs/tundra-invoice.xlsx': '7e156cd2932c4b06168f095913b4d61065fd60fe154d3a975ad03c58550a1db8', 'finance/payroll/BUILD_SCHEDULE.jpg': '99ec76166fbe9ccae780a0a1778d4dfafaccb1bc80d72d8647f3240add589c52', 'finance/payroll/Snapshot Short.xlsx': 'c7aa068da0da9979a5bf8e9b8d08a579953d14ef561563c0731c4d4123813d16', 'finance/payroll/panorama.jpg': '3906fc8234cd2f9db16ad4f5e56e04d3cb527b667020c92b7d0ceb483858a8ec', 'horizon-diagram tmp.docx': '8dedecb55aa6b586b7f8e0daebb313b9c66a32055005919ddb97d041361ae081', 'images/Export-Sport.xlsx': '2c6cdbcf54ca43d9b4e29b0d3d304052d466ad585fa73f47ced88aa9974212fa', 'images/anchor-interview.pdf': '61b6c9c2f408cea692729a81b65357980c2b9d6440e44b8310283cad00f4fe3b', 'images/generation_warranty.csv': 'e91df095a85d5408eb02cf3b478bacb87008612f5395fb4c4fe96f56f3dd7482', 'images/portrait-heavy.pdf': '8ddcd1d3ea25827055719e1e87bf81edd1cb69808bd137b94255b6bb929979f8', 'misc/catalog-allow v2.sql': '61e250759f895ad8006713e11c3547dc9f79f6728ffa6ee70bf31bc79d062361', 'misc/guide.txt': 'c36f749e13cb2d7ba540bd990db4c8108279f4239c916607f1c2650dde07be8d', 'misc/mesa-budget.csv': '33200aa54dd4b618213814ce3ee242c8d9a1b06784cc805dea37bf9ea549699e', 'misc/minutes.log': '2fcd43940ccd342d379427826b49d9c3ffd8aa9a851d8c8d4cc17002bb5cded8', 'misc/pebble-portrait.sql': '2d68e2fb9a1ab2761ae3eef7876ed5ed44fa16b7688d2516ee99d8e578b45104', 'reports/q1/TUNDRA-TUTORIAL.txt': '1bec9ba5f5bc771f0e0118ba225fe52ed1da0e1eed37220ed3ef0a4aa25c875f', 'reports/q1/delta-selfie.json': '7fc38663d8fa62c03248160cff800a5de800cf40848a476260dc179bbb7b0230'}, 'links': {}, 'dirs': None, 'skip': ['manifest.json']}}
TEXTS = {'/app/rebuild.txt': 'CHANGED data/delta-selfie.txt\nADDED data/demo new.pdf\nCHANGED data/raw/zephyr-feedback.txt\nREMOVED docs/INTERVIEW-PRESSURE.sql\nREMOVED docs/schedule-four.xlsx\nADDED horizon-diagram tmp.docx\nCHANGED images/generation_warranty.csv\nADDED misc/catalog-allow v2.sql\nCHANGED reports/q1/TUNDRA-TUTORIAL.txt\nCHANGED reports/q1/delta-selfie.json\n'}
JSONS = {'/app/delivery/manifest.json': {'algorithm': 'md5', 'files': [{'path': 'ESTIMATE ANALYSIS.sql', 'size': 187, 'digest': '760319ded1e5979c227c7e41758243a9'}, {'path': 'TUTORIAL-APPLY.pdf', 'size': 117, 'digest': 'f3ed102cad0fb95e9de290e84e7c5042'}, {'path': 'data/backup listen.pdf', 'size': 193, 'digest': 'f46ddb43e85d265ac61dbbf6074c6219'}, {'path': 'data/delta-selfie.txt', 'size': 1, 'digest': '68b329da9893e34099c7d8ad5cb9c940'}, {'path': 'data/demo new.pdf', 'size': 59, 'digest': '0c4fcd87ecfcc0b3e5f150f0da95f8a7'}, {'path': 'data/raw/forecast-how.csv', 'size': 90, 'digest': 'f4f52ed70b8fbc7221bb8181d9cd6c54'}, {'path': 'data/raw/memo-accept.gz', 'size': 126, 'digest': '17ad39f1f8ddbc736fdf28bd963bb963'}, {'path': 'data/raw/zephyr-feedback.txt', 'size': 196, 'digest': '57d49f800f06fd73fa10f95cca66f355'}, {'path': 'data/tundra-invoice.jpg', 'size': 148, 'digest': 'b9f261cddeee158f128102bdcfa74080'}, {'path': 'docs/Away_Sketch.sql', 'size': 197, 'digest': 'a845077d864a57411f5d14f1df4430ec'}, {'path': 'docs/memo.mp3', 'size': 134, 'digest': '89080684e27ac91fc547c00b9a8a7e7b'}, {'path': 'docs/tundra-invoice.xlsx', 'size': 162, 'digest': '779380f222d78c7e5db3a8771c86a055'}, {'path': 'finance/payroll/BUILD_SCHEDULE.jpg', 'size': 155, 'digest': '45db054acbb208b4f99fa9334b8dafb3'}, {'path': 'finance/payroll/Snapshot Short.xlsx', 'size': 177, 'digest': '0af978afa73d92d37062954fd8682e51'}, {'path': 'finance/payroll/panorama.jpg', 'size': 137, 'digest': '10881b9497903e2ec03fc41ee3f00e73'}, {'path': 'horizon-diagram tmp.docx', 'size': 66, 'digest': '0e3b808d143664cff457121483652c38'}, {'path': 'images/Export-Sport.xlsx', 'size': 245, 'digest': 'b1e2bd7fbed9c51d529ff55162d1b5a1'}, {'path': 'images/anchor-interview.pdf', 'size': 183, 'digest': '80a99b66d0b71847b6388dfb9159625a'}, {'path': 'images/generation_warranty.csv', 'size': 121, 'digest': '8cf54fb69300c49d4ba4fb05c888253f'}, {'path': 'images/portrait-heavy.pdf', 'size': 125, 'digest': '99a7e1f04632153f24991e45cd16f3fd'}, {'path': 'misc/catalog-allow v2.sql', 'size': 67, 'digest': '00e601654b3ddc574843601bd6d5c8c0'}, {'path': 'misc/guide.txt', 'size': 216, 'digest': 'bec0683abb1e1c573f21e907458dc201'}, {'path': 'misc/mesa-budget.csv', 'size': 162, 'digest': '23593175eeaefecf536e05e9c8f51933'}, {'path': 'misc/minutes.log', 'size': 169, 'digest': '9b88126f23fb47a4887ab1a4438d37a2'}, {'path': 'misc/pebble-portrait.sql', 'size': 200, 'digest': '15675b53c2a927c688181e4ff841910a'}, {'path': 'reports/q1/TUNDRA-TUTORIAL.txt', 'size': 160, 'digest': '27ff71d3fcb044cc7e3ff6766e576d9a'}, {'path': 'reports/q1/delta-selfie.json', 'size': 198, 'digest': '799e00b5d88940991eb87d82c7441982'}]}}
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
