#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/handover': {'files': {'data/2024/selfie-child.md': 'fca2eb0d0504128eb6b146fed7f4baad6bfc395c7bf0daf5bf47d2bca28657b7', 'docs/horizon-diagram v2.sql': '2c48b8fdb74fa582fbbb7218ceb90954e677a8cf8bf1110cabd1b59c736b26e5', 'docs/summary.json': 'a66188bdb22d015f2b5ef8e2c2416a5be4e7fcfa987c3b9a987f5900e1b1c66e', 'docs/tundra-invoice.docx': 'c1f44daa74039bb477351aed4d040a3d5273c12089f9336c7933ee8047be9cf8', 'evidence_sample.md': 'bb5588a9776a35678fd3d9d5c85f976c867ffcaa00c02ab8f7c9fe5a9087ceae', 'finance/invoices/minutes.csv': '723b66735010fbb9c84d4fd928d85e5f5a47b26a03fa692e416926461b74feb2', 'proposal.csv': '15a367b352acdd479465a1dcadf6fb1b124b91fb9e07645d2a187eba582b8075', 'raven-boarding-pass.log': '4141d97649da496b953401aa98ee74b95179d6d3308259251ba2528db24b270f', 'slides-card.md': '1e4acf479bb729fce32b211334e48d4a37de4ac56a9612e846a230fa1e6b6a9f', 'zephyr-feedback.txt': '001b8c366b6538cfb6f93fa3fff6ecdfff7405661cf6784e3dc11fa956c540b6'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/granite-otter.sha256sums.txt': 'fca2eb0d0504128eb6b146fed7f4baad6bfc395c7bf0daf5bf47d2bca28657b7  data/2024/selfie-child.md\n2c48b8fdb74fa582fbbb7218ceb90954e677a8cf8bf1110cabd1b59c736b26e5  docs/horizon-diagram v2.sql\na66188bdb22d015f2b5ef8e2c2416a5be4e7fcfa987c3b9a987f5900e1b1c66e  docs/summary.json\nc1f44daa74039bb477351aed4d040a3d5273c12089f9336c7933ee8047be9cf8  docs/tundra-invoice.docx\nbb5588a9776a35678fd3d9d5c85f976c867ffcaa00c02ab8f7c9fe5a9087ceae  evidence_sample.md\n723b66735010fbb9c84d4fd928d85e5f5a47b26a03fa692e416926461b74feb2  finance/invoices/minutes.csv\n15a367b352acdd479465a1dcadf6fb1b124b91fb9e07645d2a187eba582b8075  proposal.csv\n4141d97649da496b953401aa98ee74b95179d6d3308259251ba2528db24b270f  raven-boarding-pass.log\n1e4acf479bb729fce32b211334e48d4a37de4ac56a9612e846a230fa1e6b6a9f  slides-card.md\n001b8c366b6538cfb6f93fa3fff6ecdfff7405661cf6784e3dc11fa956c540b6  zephyr-feedback.txt\n', '/app/rebuild.txt': 'CHANGED data/2024/selfie-child.md\nADDED docs/horizon-diagram v2.sql\nREMOVED docs/snapshot short.jpg\nCHANGED proposal.csv\nCHANGED slides-card.md\n'}
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
