#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/mail_attachments': {'files': {'Camera/.sync-state.json': '88283a67fef8e66529d574834fe13db9e61bb4e66eb1dac5abc8588c194d7191', 'Camera/Copy of pine-manual.mp3': '6d91a74ea8b16a5f7985c20d846c59b0d423a3d23974c22b6693bf91584f27d8', 'Camera/Copy of snapshot.png': '454b32f9ede85688c73561f635ab0d3b4a04cf850c8162000662a8e3dc346a4c', 'Camera/handbook-moment.pdf': '5396c6abc98b386175c586be058a8110984ddc8c7f6a22d5c2de3cd02acfc300', 'backup/manifest.mp3': '8c42eeb95473860df091d04908627f110b9c8c905f8045f758e71ea3ecb199b7', 'backup/office_report (2).csv': '74dc8b332213d52f397266b2bed99c93c3d3c8d21832788bca5c34ffd53b278c', 'backup/onto_itinerary.mp3': 'dd025a96cc94e6bb2fdee4b25447ce43f940a5d28dd63faed5311eafa1a4ef97', 'backup/schedule-four.mp3': '419ecfd7efb45e6f1625df11a7693b98db6eb5e71ba03653b189aeb7c5de9718', 'backup/timeline-air (6).csv': 'd4233a5ce8da18423b2658780eb12935f360e4c918e7ce116ff8486217e054db', 'believe_dump-b.bin': 'e2195e0696826485a2d19c9113e800d7d28a3ae159abd02860ce03a95b06e535', 'empty-1.txt': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'old/laptop/believe_dump-a.bin': '391d2ebbb012da95985b1e29ecfb796099ec9b1507e54acc2eaeba64eb15e705', 'old/laptop/believe_dump.txt': '3a055613dcb4a23bddd435234dee82ea75b8a6146aaab5ef33cc285f76bb3c5b', 'old/laptop/panorama minute-v3 copy.csv': '0bcd20b9aa0065735c890871bfe6ef5c8b547913cb4cbe687e3f595c6d88d043', 'old/laptop/payroll moment.csv': '13e6792edaf1fd9d05e994a9e50d5d6e6285a1b567292043521d49122476e9c3', 'old/laptop/survey without.jpg': 'ed0aa1499dcb019c86e41187c5ee5962b1e5cd3684720711751efe5608efaa83', 'screenshot-manage.jpg': '1d9dc8efe38802600f6cffb28b730922679b6a188b8fdb1efadcb9fd725aa83f', 'shared/believe_dump.txt': '3ae65ae1129f32eaa1da3ad3fd83b5516d701cc4a1c6badcd6883e6612345644', 'shared/boarding-pass.png': 'e0aa8ce8a8bc3ac253398f928d75de310d80e7bd12c35df80414bdcef40ab91a', 'shared/myself_dump.jpg': 'c1dd26284514a6a0908a396e40663097eb5a1b7dcc9fc59344af0b81fd57722a', 'shared/scan.mp3': 'c53d9e32822121c1c9af4b879629bebfb5f58e8cc6f80103055afadc972385da', 'sketch.csv': '168868b21f7c6229982756631a367b0188ffd877a1069ff4fa82ebbade59400e', 'work/q3/delta-selfie.docx': 'a1d461927250ab40ce3e9b5a57ea2942fa37c65c0fddd3d3740893a955c190ea', 'work/q3/feedback film.mp3': 'e683f932668bc8f820b0a350fc478bf131db44a1c7bcb9e4c7c60d965d92a3ad', 'work/q3/transcript hope.docx': '73170d8facf3e220906b51d598aab74b76597fb43e5c8d0848cfb4c8e28a5b57'}, 'links': {'Camera/pine-manual.mp3': '/app/mail_attachments/Camera/Copy of pine-manual.mp3', 'backup/Copy of handbook-moment.pdf': '/app/mail_attachments/Camera/handbook-moment.pdf', 'office_report (1).csv': '/app/mail_attachments/backup/office_report (2).csv', 'old/laptop/handbook-moment (4).pdf': '/app/mail_attachments/Camera/handbook-moment.pdf', 'shared/empty-2.txt': '/app/mail_attachments/empty-1.txt', 'shared/office_report copy.csv': '/app/mail_attachments/backup/office_report (2).csv', 'shared/panorama minute-v3 copy.csv': '/app/mail_attachments/old/laptop/panorama minute-v3 copy.csv', 'shared/pine-manual copy.mp3': '/app/mail_attachments/Camera/Copy of pine-manual.mp3', 'shared/snapshot copy.png': '/app/mail_attachments/Camera/Copy of snapshot.png', 'work/q3/Copy of pine-manual.mp3': '/app/mail_attachments/Camera/Copy of pine-manual.mp3', 'work/q3/Copy of snapshot.png': '/app/mail_attachments/Camera/Copy of snapshot.png', 'work/q3/handbook-moment (3).pdf': '/app/mail_attachments/Camera/handbook-moment.pdf', 'work/q3/panorama minute-v3 copy.csv': '/app/mail_attachments/old/laptop/panorama minute-v3 copy.csv'}, 'dirs': None}}
TEXTS = {'/app/duplicates.csv': 'duplicate,kept\nCamera/pine-manual.mp3,Camera/Copy of pine-manual.mp3\nbackup/Copy of handbook-moment.pdf,Camera/handbook-moment.pdf\noffice_report (1).csv,backup/office_report (2).csv\nold/laptop/handbook-moment (4).pdf,Camera/handbook-moment.pdf\nshared/empty-2.txt,empty-1.txt\nshared/office_report copy.csv,backup/office_report (2).csv\nshared/panorama minute-v3 copy.csv,old/laptop/panorama minute-v3 copy.csv\nshared/pine-manual copy.mp3,Camera/Copy of pine-manual.mp3\nshared/snapshot copy.png,Camera/Copy of snapshot.png\nwork/q3/Copy of pine-manual.mp3,Camera/Copy of pine-manual.mp3\nwork/q3/Copy of snapshot.png,Camera/Copy of snapshot.png\nwork/q3/handbook-moment (3).pdf,Camera/handbook-moment.pdf\nwork/q3/panorama minute-v3 copy.csv,old/laptop/panorama minute-v3 copy.csv\n'}
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
