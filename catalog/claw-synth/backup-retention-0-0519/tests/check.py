#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/expired': {'files': {'inbox_20240510.mbox.gz': '2e563d01bfa0f59b18eadcef70764c50f013dce6d6bb332c33910cce7a4884d4', 'inbox_20240512.mbox.gz': 'f3e11829bfa797f21eb6ca5d0f9b79d87da332c255a19111107bc32b078f2dd0', 'inbox_20240513.mbox.gz': '26b8cf228778a6dfc8ebe895480443a1c244ebc68978c871c0a572dd9c372577', 'inbox_20240518.mbox.gz': '4ac80476c38678c4c662964c682175979489b550070f0bc52a168a5f79f3e85d', 'inbox_20240521.mbox.gz': '536ea986f2704c18188e7bb51b6f1d2824edf8e7dbc0a637c23f1d2bb62262f1', 'inbox_20240531.mbox.gz': '6a1c94aaf4646d506365cce03751ff6cd1448259cceff26a879596bab5ddbd8b', 'inbox_20240601.mbox.gz': 'e95a444354d93c0124780dd629600e7a44297821b5a358d610531031eccfe764', 'inbox_20240603.mbox.gz': 'b9f60511db67526140930be49c66190282b02c7ed93331cb75c6d46dbe15ee81', 'inbox_20240604.mbox.gz': '94192ef336e9f19d6dbe991ec60dc02a56bd852ec3a15ec5cb0659f42a730def', 'inbox_20240606.mbox.gz': 'b4746636623add058462ba1d266714ce8a88e889dc28bf59c550c6805359477a', 'inbox_20240607.mbox.gz': '09d949204fa20fd88b1f3227044d631edfe07093988e4acb4fa480d38c20f25b', 'inbox_20240609.mbox.gz': '3453f14bf3ae12b50fe502da50f85ea6e38a8b813fd98c8ad1f7a641ad80d371', 'mail_20240426.mbox.gz': '7946876771164235e94e84f932812cac72b017bde15b31c2975eb0fe23a9c2b0', 'mail_20240503.mbox.gz': '1ed5ab8c03c2efd432185a51a6b81bdf23076f648cbecb7b02881255d4bd4d13', 'mail_20240509.mbox.gz': '3a0b138dfd8c72a84e986259a0143613a36a7d8c5b49f299ba1559238666548a', 'mail_20240514.mbox.gz': 'b6fcd3e719822710d48b93ef5db31a1636624d024cab448df20561dfd7abe523', 'mail_20240516.mbox.gz': '56d28c53a58ae501a932f47f4e083b712b0fe66d762a432f78e6c51fa99ba99d', 'mail_20240518.mbox.gz': 'fa56b0d26218532b7ec37a9d2b5f7327a16d3bac4b979d769b183bb5210867b0', 'mail_20240526.mbox.gz': 'b0b6cb34fc48d13958f9cbd08b0567c1b475cbe42d9c982d0f5925be27abe89a', 'mail_20240530.mbox.gz': 'd20c91c64ad8fb733235b555bcf74de9bdee1c73778419879ec91efe96f7d076', 'mail_20240602.mbox.gz': '3f17fa4c814e5eaae6d613cd1420182f42999744dbf4cdb38506a66e76174dd0'}, 'links': {}, 'dirs': []}, '/app/exports/mail': {'files': {'inbox_20240610.mbox.gz': '76e4c739c3a1cfc7f8496d8609cd1660f948ef532450e1fe73055f3c5228d4cd', 'inbox_20240615.mbox.gz': '8d1d3d392301babe5e4a5f4a850aba5d7a0f0acef854c35daa56d495ab90257a', 'inbox_20240616.mbox.gz': 'b72c774ac73e41c1f5454e2865446a174a3f6e50169d98e25243988b895f3972', 'inbox_20240617.mbox.gz': 'bcd5f5cff9269a04c795eb62c00f00b5dbcc189278b2630ab4e46a1e75e8a1f4', 'mail_20240603.mbox.gz': '062c7445ee185826f7d6d296cb6887ddd1d69ed1bd417585dae4f288c2a525e6', 'mail_20240604.mbox.gz': '82c9cc3d4edb59015c2dbad9009417895e8f62bbb9a97208f4139ffa3545e303', 'mail_20240610.mbox.gz': 'c62f8ca6bff1abd8e4c05f79ffbf401d3b3b65c766fbc6292f341324759d2e3e', 'mail_20240612.mbox.gz': '0ed664826c2cccef979ed5437f363b33ef49ed3cfe2420eb241059589048b784', 'mail_20240614.mbox.gz': '35d9cdf5c1fc2ce62c9eaba319d2e9fb0d4b5be241bfa8ee8b8fdd2b5b9bbb78', 'mail_20240617.mbox.gz': '5eacea3de9bc058a3db08944ee8e173b337d52a026c7262ff7fe538c1b205e9e', 'mail_20240618.mbox.gz': 'b8fc6897638abeadc97c8a1ceea1c043759909b039b5e7992a2622c5a38dca99'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/moved.txt': 'inbox_20240510.mbox.gz\ninbox_20240512.mbox.gz\ninbox_20240513.mbox.gz\ninbox_20240518.mbox.gz\ninbox_20240521.mbox.gz\ninbox_20240531.mbox.gz\ninbox_20240601.mbox.gz\ninbox_20240603.mbox.gz\ninbox_20240604.mbox.gz\ninbox_20240606.mbox.gz\ninbox_20240607.mbox.gz\ninbox_20240609.mbox.gz\nmail_20240426.mbox.gz\nmail_20240503.mbox.gz\nmail_20240509.mbox.gz\nmail_20240514.mbox.gz\nmail_20240516.mbox.gz\nmail_20240518.mbox.gz\nmail_20240526.mbox.gz\nmail_20240530.mbox.gz\nmail_20240602.mbox.gz\n'}
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
