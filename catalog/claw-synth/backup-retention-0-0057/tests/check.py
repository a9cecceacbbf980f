#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/backups/etc': {'files': {'AUTH-CONF_20260218.tgz': 'ad322bfa47c2805bbc6e01712fe013aa638a3fbf5dd7cf4c133a11ebb5ac8858', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'auth-conf-old_20260221.tgz': 'd919a9e8b619b0727781142a7743faceed876344fbd0c3753b278df6db24f77f', 'auth-conf_20260218.tgz.md5': '695afcc5e0c60b61284a864f74f694a9b08763ec8a336e85a53f43c5f794582b', 'auth-conf_20260230.tgz': '0417b912979c8c056595bf527584e30831334ce163631c30072701bfd72dd209', 'auth-conf_20260413.tgz': '50229d3f2750027077a5b3556fa14ab92e01bf6e64081b80b2827602b781a80f', 'auth-conf_20260415.tgz': '22c2a458bcba1be1044dbbb38c0f94ae3cffb2c746af8174ef5c531e95ba0f6a', 'auth-conf_20260416.tgz': '39aa1973659bf46eb6bfb7c33d12872d4e106fd50e9433c38117d62ca18fd261', 'auth-conf_20260419.tgz': '289f4f19fcd2134a94a5fe780ec1cbd2784b67d76a44eee28fb5c2449d8391f3', 'auth-conf_20260421.tgz': 'c8bbe08c74794db0da68f71e5f441689fa8ffddc4fe875c8440bfe2a4d7dbb69', 'auth-conf_20260422.tgz': 'f3c2e33eeae2529f5eb581b681a18917baf3ea0e205d1ef6ae0c47143627c761', 'auth-conf_20260423.tgz': 'd3c73821ac5abad899371a75762fabeea0bce24de3ba2db3b814cfe62b6f66b5', 'auth-conf_20260427.tgz': 'efc73843007e5fd41c81df098a9d765d6a97adbe0e448fb22646b26a6535a179', 'auth-conf_20260501.tgz': '57d91bafeede23b45b02b4260ebd32036c3db08db30d39c1e51cb70fca465d0e', 'auth-conf_20260503.tgz': '868530e4d08982fcf0622a8af6a62cbc0d6886a1a6446291ed65797058acfe77', 'auth-conf_20260504.tgz': '2d4832dc5171ee7754a0e13c0a33887c944a7c7098758a70590283d844dd82d1', 'auth-conf_20260505.tgz': '1c39d4208ce0ccff252d100b1c999f9154328ca904bb33ee744a56cc4a353ea1', 'auth-conf_20260510.tgz': '4fcfb60ea03d00b2b1cae02be832fe167ead812c71a757cacc3e22b7ba1109b4', 'auth-conf_20260511.tgz': '0a7df0e3812225fadef5d4fa60e96bcf71fe30fe7258e9fc9a030915131a321e', 'auth-conf_20260514.tgz': '4135d1036192149e0bee5b33e320c5ac773734a14464d2dc17e2e91a02947a95', 'auth-conf_20260515.tgz': '5b6705ad00931714a7e7a187db9c3fd1b5cb976e2aa7eb72df21cdda2152be27', 'auth-conf_20260517.tgz': '93d88c9f5d8a6e1a3ad9e60d7842dd6fcfc3d456fb256119726abc8af13230a4', 'auth-conf_20260518.tgz': '6b7856b2e6b41f6e99e1117f1acbe4ca18543d7d376f861c140510a60c991c06', 'auth-conf_20260521.tgz': 'bf4e7c04846ba70d8d6ddeffff07b8ed6ff661a1a7c58a0283cabe37555d5fa7', 'auth-conf_20260523.tgz': 'bc9ac0898dd57265f121c5c54312fc9ec7a8e171bc4494e1cbac7b20ce97b657', 'auth-conf_20260524.tgz': 'e20a1aa49a27abe49d99f7693a2d6f11be347be926d82361414c5f45eba6fc3c', 'auth-conf_20260526.tgz': '6a3b471f24dc7abd53e7cdf1f4eb84a8f760731e32d29bb333bd8835bf906ff2', 'auth-conf_20260528.tgz': '4d1cf92838ebc70ec62a503f5677126b00d70ad5620d344152f46562b291dd4a', 'auth-conf_20260602.tgz': '5a89107451c7417faa0996d4780e362c8dafb798fd3f47fa5854f96dc396e2c0', 'auth-conf_20260603.tgz': 'e107b1af4157de75ef1d1b6be666725ec3c51acc579f47dc1f9d95e7e6843378', 'auth-conf_20260604.tgz': 'fcd9ad382fb316004e440e31cb8555a81497778a4eb1afb1f694e99371801eed', 'auth-conf_20260606.tgz': 'e681d76095e16037d8fc3600ac7490fad4991edd6973969e33f0948a20680014', 'auth-conf_20260609.tgz': 'a18383609efb6c0eecd813636bbd7be771fc37a54163f68ac4e81b20de47a68d', 'auth-conf_20260610.tgz': 'cc345f66f5a889ac264329a0a63fbb21b8f561ef5385840fe94ebe5767fd5531', 'auth-conf_260218.tgz': 'e817c791d4e8e6dfdd8cb97b0c63235b18f85faaeed5f64c1fbc50678dcc3bf2', 'keep-forever/auth-conf_20260112.tgz': 'f4db8977d4b5a259d4c5ba444894c277d13f7f4f068373c34582d67c9e82e522'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/removed-backups.txt': 'auth-conf_20260218.tgz\nauth-conf_20260222.tgz\nauth-conf_20260310.tgz\nauth-conf_20260312.tgz\nauth-conf_20260314.tgz\nauth-conf_20260326.tgz\nauth-conf_20260331.tgz\n'}
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
