#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/calm-quartz-handover': {'files': {'Condor-Tutorial.mp3': '08e97c39d5cd34ffe38ace00577723343fb837c2092bafa48eb996489fb68853', 'FALCON-PANORAMA.csv': '3616037e2508ea5c34bf26b847fc46c6e72ac1a8b8ae4f2511d6fcb867327d0b', 'SHA256SUMS': '8f963a42b94a0cd4e2fd22d4b3d04f92c7016125c565fe07db83da819e62d0f3', 'data/forecast.md': '262d0652a4d8d58d59d306720b320ea5b10d1ff53375101871a90294c038e37f', 'data/kestrel-guide v2.json': '0d9df30db83d41785a7712bcc3fe1bb5bdcb8c5355c2fdbe1fa8508fd0f9a5f8', 'docs/legal/snapshot short.sql': '5cb1c866ee0435b08299c1b354b06ff975c3973551a3792417012255ab6a4a09', 'docs/legal/woman_feedback.docx': '303eb94b7d3fb6a53660559f862dd25bbaa6bf96b568a79e6891f1cc268f9057', 'images/press kit/Quote Social.sql': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'images/press kit/mesa-budget.docx': 'f8914f7969458ab99cbeb58ae3f032b93254876fba4b302f4262ae929e4041ed', 'memo evening.mp3': 'f5e3e0c509848a3791da7dca781265712f5fea84b72d6131f06912695c580a93', 'reports/q1/notes light.csv': '17fb3fe3fbf3da6221d39745ce60a4ef2a178bc7bd6bfe2afba514d73f4d554f', 'reports/q1/sketch.log': 'b0ed6d91ab7bae7ba9ff5ba6457df4b8b10cc84de4afb6b0a7e4b3c35de29155', 'reports/q1/woman_feedback.gz': 'fff73f9a3facc41b2e149f0c12423bd6d311e2196ab6ab6e04826b271b86ae7f', 'reports/q2/BADGER-ITINERARY.txt': '2f315ce81be681922e2dfb239214766da622cd4bfad90d863d3fefd915e3b246', 'reports/q2/BELIEVE_DUMP.png': 'b93b6d0e4676e2ddc01ad887d290667a935ccd6f46aee6fd77eabb1d60afcbbc', 'reports/q2/SLIDES-CARD.pdf': '7334725d315fdd55db06d7ba618c183e0ad9fa1b1dee9f8c005ca8ce32a69b0e', 'reports/q2/memo evening tmp.mp3': '40203f9498fbcc0fc3f9fa3dea08bfd7abf35332882958458e3288e1701dfc6b', 'reports/q2/panorama minute.png': '5d00f47ab36bca2fde79c4f6881038ea340f472f862cada04799d9f9406f157e', 'reports/q2/pricelist.md': '9be421332cf95489e38b3ca68bf5e6bda74856dccaabbc40a829be577af4563a', 'reports/q2/scan.xlsx': '0e4b2c484b12d0b5f178da26ea4390df3acb379af2872a648548aec3805476b2'}, 'links': {}, 'dirs': None}, '/app/calm-quartz-copy': {'files': {'Condor-Tutorial.mp3': '08e97c39d5cd34ffe38ace00577723343fb837c2092bafa48eb996489fb68853', 'data/forecast.md': '262d0652a4d8d58d59d306720b320ea5b10d1ff53375101871a90294c038e37f', 'data/kestrel-guide v2.json': '0d9df30db83d41785a7712bcc3fe1bb5bdcb8c5355c2fdbe1fa8508fd0f9a5f8', 'docs/legal/woman_feedback.docx': '303eb94b7d3fb6a53660559f862dd25bbaa6bf96b568a79e6891f1cc268f9057', 'images/press kit/Quote Social.sql': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'images/press kit/delta-selfie.csv': 'e8ffe98201a35e3bea8ffcfbc813736f339018ba8ad4248fc975faf3df62609c', 'images/press kit/mesa-budget.docx': 'f8914f7969458ab99cbeb58ae3f032b93254876fba4b302f4262ae929e4041ed', 'reports/q1/notes light.csv': '5dc8668ebd06af9a879501f7e1e637bed39841bb40989448f1d49dfa32b43ea3', 'reports/q1/woman_feedback.gz': 'fff73f9a3facc41b2e149f0c12423bd6d311e2196ab6ab6e04826b271b86ae7f', 'reports/q2/BADGER-ITINERARY.txt': '2f315ce81be681922e2dfb239214766da622cd4bfad90d863d3fefd915e3b246', 'reports/q2/SLIDES-CARD.pdf': '7334725d315fdd55db06d7ba618c183e0ad9fa1b1dee9f8c005ca8ce32a69b0e', 'reports/q2/panorama minute.png': '5d00f47ab36bca2fde79c4f6881038ea340f472f862cada04799d9f9406f157e', 'reports/q2/pricelist.md': '9be421332cf95489e38b3ca68bf5e6bda74856dccaabbc40a829be577af4563a', 'reports/q2/scan.xlsx': '0e4b2c484b12d0b5f178da26ea4390df3acb379af2872a648548aec3805476b2'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/repair_report.txt': 'LOST ./docs/legal/snapshot short.sql\nRESTORED images/press kit/Quote Social.sql\nLOST images/press kit/delta-selfie.csv\nLOST reports/q1/notes light.csv\nRESTORED reports/q1/woman_feedback.gz\n'}
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
