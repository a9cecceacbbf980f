#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/mail-archive': {'files': {'MAIL_20240330.mbox.gz': '4561f1c9d975320668db41ebc422e29b9e47f57ac092ab20b631d3d5e34971f4', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'expired/mail_20240330.mbox.gz': '76f43fa2ed7cdd38cafc4a45f395aeace3dc75e090595a2ab17e2c246078e6a2', 'expired/mail_20240331.mbox.gz': '389e401e243755fc55e52eda6ae87c6df6c89a1132baac20ad2a4e7869b93a66', 'expired/mail_20240401.mbox.gz': 'e70307de4be6632d89a7636b02f7cddcc597f60a4a4903fee7bed1334d8a0085', 'expired/mail_20240402.mbox.gz': '0c2f5b3f2b9bc0bc8036c3abd6379aba4dd306ea654cbe207b8c65002e3b2d53', 'expired/mail_20240406.mbox.gz': 'fbff458aefbedd03fddc9e4f1fa7921cd46381bf9514f227920b73910ab4205b', 'expired/mail_20240409.mbox.gz': 'd888d05a0713052afdb543693ca23e8bc701654600ed21e9208e927b1eaeb893', 'expired/mail_20240410.mbox.gz': 'd8c2a45088fc3048a2932bdc80ece7b8769742fb9d8c9fca94662249ae94c0e7', 'expired/mail_20240412.mbox.gz': 'd25f1eae3077f82c2447deef5ed6542ecb56d095feb490e2f5b89dab4b580c67', 'expired/mail_20240413.mbox.gz': 'a7f36f1a5af2b47011f2fac5cd2d3484b505fe191b28ca3a6610e87db75f98f2', 'expired/mail_20240414.mbox.gz': 'fd16aa83bd71d31000fe775af9eb6b5dad2b3271dc82068d1338d8a9f20b4f75', 'expired/mail_20240415.mbox.gz': '4a015c957ae38ee97736f5356716f8f064a451b43838ef327ab5b2c9a56e93e1', 'expired/mail_20240416.mbox.gz': '4d745071771267d58193b3bd250b2f1ed76b8f5927cda7ab6d917430277c157f', 'expired/mail_20240418.mbox.gz': 'f5cdbc8f6ac7a4329be9912615773a7c2d4a6fec608210e5b230c3002ce11a89', 'expired/mail_20240419.mbox.gz': '95512934271f27d0b650072e3b8a926a39f0845183efc94f7d23263eb3943c01', 'expired/mail_20240420.mbox.gz': '6cabdc992837b383e51b9dff64a3eee821db0edb547de521e34c19e6aa1114a8', 'expired/mail_20240421.mbox.gz': 'ed95eaa5309029095a179142f75f152603678a78bc1ae7935bc41d05e64df304', 'expired/mail_20240422.mbox.gz': '40fc1e4ef6ae62af9c62a7a538eddf6c689ca0f0fef24fe9bced556f0b6bd8c0', 'expired/mail_20240423.mbox.gz': 'c6e477f17d04285b26a4206ac621d11ca66aeb2acc60b5cc56843c959c026ad1', 'mail_20240330.mbox.gz.partial': 'e91f523c7de6561002d67c2f9f4a0178a27aab513b2472cbe2324dd607c18a87', 'mail_20240424.mbox.gz': '1fe5b6c801007c04575eb6b5e713c560336e2fafa9aa3f1bc332ee14f6208ff0', 'mail_20240425.mbox.gz': '5b82d8972032f593a6fd02396d30af5e6236faae62a42fdaf25496c9f886548b', 'mail_20240426.mbox.gz': '7ccb29718cc8b85d905ecb47e30aaeb32d8e0c34fdb3fc59d90daba67d81cac8', 'mail_20240427.mbox.gz': '8775c7db2b642b2b9b7ed868606055c2b02cb3ad474ca9f16efc35630cf6258a', 'mail_20240428.mbox.gz': 'fcdf838a50c28ab25f324189c09b9a80666fa97ae79627e9926f2053e5230743', 'mail_20240429.mbox.gz': '55a674eb2aa354709b79fd702e775e11f2054b0bac0262d4e1fac14930359035', 'mail_20240430.mbox.gz': 'ee579e5d61cb13fcacc77e45ffc04e29d0b409e7e89b4d1037927f74e2b4c2aa', 'mail_20240501.mbox.gz': 'e02bfb9cda1f93d0541abe74888e986d1c3ff016a2b72df00f82cbbad97b04f2', 'mail_240330.mbox.gz': '4509adc9814ea9204bd9b54b4a0e6a28acec9f7cc4acaa0883bdc571a9c6950b', 'manual/mail_20240221.mbox.gz': '248eb9f9774aa857dcf5f8e0d87c0ebbb8c4074b32ce411ccdd2e680a1bd915f'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/moved.txt': 'mail_20240330.mbox.gz\nmail_20240331.mbox.gz\nmail_20240401.mbox.gz\nmail_20240402.mbox.gz\nmail_20240406.mbox.gz\nmail_20240409.mbox.gz\nmail_20240410.mbox.gz\nmail_20240412.mbox.gz\nmail_20240413.mbox.gz\nmail_20240414.mbox.gz\nmail_20240415.mbox.gz\nmail_20240416.mbox.gz\nmail_20240418.mbox.gz\nmail_20240419.mbox.gz\nmail_20240420.mbox.gz\nmail_20240421.mbox.gz\nmail_20240422.mbox.gz\nmail_20240423.mbox.gz\n'}
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
