#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/exports/silver-bison': {'files': {'FEEDBACK WAY.sql': 'b35f298b798d92b49cfb077071875e4c14cff1fcea6a847d6762b6dde5041a61', 'contracts/2023/FORECAST.csv': 'a5639caa0683a79b0c9a78bade0ccce55648a80d1480aec284184a5652661abc', 'contracts/2023/SELFIE-CHILD.json': '9ffed6eed46c42e9a069b8bc5a42f2a31481dfa62510959e0b42d45d652d48e3', 'contracts/2023/agenda move.pdf': 'a411ca17d1a9815bf6f7aec8c37a39ad901d6dafc6cb7ddf8aef1fbc61b39263', 'contracts/2023/significant_scan.gz': '201df0d38140e580faba1dd77c2374fcb340cb3709dc064d28c8d6c2f9f6da77', 'data/2024/diagram example.json': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'data/2024/interview probably.md': '7b5b8821a4194eff5003b2c7fecbce69b009044df774d87dddf898577451dee1', 'data/2024/scan.mp3': '89649f9957506abadc7dbaa1ab90fca6397f788e06b838fa56cf0f72be91b105', 'data/raw/warranty-people.pdf': '7a86bc29538ee75a9579f8ec1dc4c731afbc71b950b7edf142fb121719c96a11', 'docs/archive management.md': '053e46b031e036bf379da449a4ba40e314ebd3d0fcc5c53d2bec5098ac254313', 'docs/forecast teach v2.log': 'b9d89016f2fe6549901495fbfe16ff55074a994694cd996d767d1d1348e31b23', 'docs/receipt-long.xlsx': 'a0cefafcfc4d969154f5e6994d4881d7cbb1a3e866c96466fcbadc516a84b959', 'finance/payroll/panorama voice.log': 'af70c17dd1cf1161f9975956ffbbadf3f2b927e4db279e78f4cbecbc904e16d0', 'finance/payroll/scan forward tmp.csv': '48360c3bd30343e0e0932d0a029c9da31102049ae710c26775de6f3f926d5a13', 'finance/payroll/transcript buy.jpg': '3388b5a5858fa5a7b9e68bab2b11169beb6259a53bebaff90e9cc86d2261aea1', 'handbook morning.gz': '00e838b9fa728b58764be609479c77cb7472f57a5245d79c2c40d88240f82ae9', 'pine-manual.gz': '67543ac2d2755ef17656ff538339782629d04265a63d528b4ec987160309ebda', 'reports/q1/GUIDE-MATTER.sql': '2e07a1dfcec2b3eee8ee0c38b1b1c5875b702e74013ea81cf53eaa258159f012', 'reports/q1/PEBBLE-SNAPSHOT.xlsx': '1fd5a1d5895d617541e15ffaef986bcd0cb868e530e859a0da816682e34740ce', 'reports/q1/SELFIE-CHILD.gz': '453db57d244f883e08096d851473e1192600eb589f6869d8123481698f1e392d', 'reports/q1/Warranty Doctor.png': '92d7fa4b20218b3b0f3fb7376a497b03c9ea6a9a51f85d7cbcb812d54cfe0a10', 'reports/q2/panorama minute new.log': 'a03d7ee8ccd34dd822401f82ad473094553ff3e12d921867a5c6209fbc8925af', 'reports/q2/quote social.gz': '61d8516eff60d8345f0b51947329425de87740720fb4cea1e2cca9d31bbec529'}, 'links': {}, 'dirs': None}, '/app/corrupt': {'files': {'data/2024/physical_catalog.xlsx': 'd2af4cfc0c638335d6535a893602cf03a1fd86d63c747d20c825a9b85ae5f68b', 'finance/payroll/Selfie Arrive.json': 'cdf0d80fa61d7ae3fec0b9dc0c7febbda8381934ba1cbea713e9b832c832737d', 'finance/payroll/Timeline-Air.docx': '12fe3edf8da9b65a498ed17789f354876068da610765f850e0a14fe16f88df1e', 'reports/q2/sample whom.txt': 'bf43527c777b0c712279a619d007323dd29e8218cb6653a968470a8e394a488c'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/damage.txt': 'BAD ./data/2024/physical_catalog.xlsx\nBAD ./reports/q2/sample whom.txt\nABSENT ./reports/q2/snapshot.txt\nABSENT OFFICE_REPORT.csv\nBAD finance/payroll/Selfie Arrive.json\nBAD finance/payroll/Timeline-Air.docx\n'}
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
