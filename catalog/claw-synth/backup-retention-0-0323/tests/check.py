#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/backups/auth': {'files': {'MYSQL.20240622-0420.pgdump': '3634b01198f9f965c378bf69378569b0f186b497fe1516743eaed72e3bd7febb', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'manual/mysql.20240303-0000.pgdump': '4be84cf50d190a107c0b61c67c9cf6249f0d62656707aa87b0ec744ba9085c48', 'mysql-old.20240625-0420.pgdump': '0f6417fb30aeb218ffedb22ed04ec2757b3548e643f9e3e18ba184017015c6aa', 'mysql.20240230-0420.pgdump': '0774a8ae28ccced868773006bb012bea566cec5519b499a246f0ad3768d70af2', 'mysql.20240622-0420.pgdump': '48c338c30b63e57c507a56f12d72878d551ba4ca43ab4e1fa6ded8a78c0d637b', 'mysql.20240622-0420.pgdump.partial': '7b12d275513b535fc8ddeb00604ae686a597d4b4bc87026e1b6259e799aa0fe9', 'mysql.20240622-2520.pgdump': '9210f45f14db1df97766dc37141432b6c5fd2295b0e14ebe772cd75470858ca5', 'mysql.20240724-1700.pgdump': '2c33b9d9fd03c2676db7fa1a1298c7c24fbdf597c9620ddc56b99d47100440fa', 'mysql.20240806-1135.pgdump': '86fa49aa55304ecfcd8695f469f844ae6934a2f042732c622a92746d3b57a313', 'mysql.20240806-1615.pgdump': 'f61bc7443c0dd5332411f1abe872427fae8722819d6cd87b8e1d659c6b8fff1d', 'mysql.20240922-0630.pgdump': '6d8d383e45667975f24ac0c189c309af579877d6bfe70b68137e38382c16c452', 'mysql.20241002-0000.pgdump': 'bf9e56fcfb6df55261ea207384e92e690bbed69bd6cfe717a0355f6db03f82b2', 'mysql.20241007-1030.pgdump': '116981a768999de34db62ae4d0d1b45f75ec8905c879394a46d4ece1d986f47f', 'mysql.20241009-1655.pgdump': 'f99296a9463c2ac4ffc0a98dd3464ebc0e4887a138a93a7ea4603cc25efa0888', 'mysql.20241012-1710.pgdump': 'c0cf66ad46434675b7c18e3b2ab0a15dea57734cd9c17c15c2ea2907a70d8f99', 'mysql.20241012-1825.pgdump': '05403fd3eb5342f5f0131b98824ec66421348dbdc6ef43bb08fe949266e81a48', 'mysql.20241021-1905.pgdump': 'fcd4c2b75cc239465ca71ace3d98d255d2221f6b65b0e8bb88b06fae0bbd505d', 'mysql.20241027-0050.pgdump': '7a0449f92143a52efe7c5491e7395afaee250f243d3e513890102a56c1d88812', 'mysql.20241027-1905.pgdump': 'e1dc99614b2171d80f613d83075035322eb67d0cef3acc3883e5c4caafefc86b', 'mysql.20241103-0225.pgdump': 'f6cde4e928bda55e8d5f4d1bd49987e77bc4987f35fb07ae31362de21c589881', 'mysql.20241216-1835.pgdump': 'b7553980e2c3f254818824c0e72d87b68d07307f95f2cfbbc4050ec088365d86', 'mysql.20241218-0225.pgdump': 'b011ec675aaa9dd63c25be61e3c2c122d1b6a10af7c6bc4df75f40eca59a0ec3', 'mysql.20241228-2205.pgdump': 'd48f5124bfd97a5013503626713a285cede469d3d00df7451deeeaca7a7c7336', 'mysql.20241322-0420.pgdump': 'd257a6af10422143d7cdbdfe4235d8f2a53a602eb585a99108a1a4b6214e1f08', 'mysql.20250102-1845.pgdump': '7805cdd900d3ac77c65236c7a9fc2a867c3d49fd208f36fbcbd849b0ecdd2180', 'mysql.20250104-0130.pgdump': '048857cc089559dae8551a3b062ae5ca4e5e579f499a16a6786a7bba6e06b82e', 'mysql.20250104-1000.pgdump': '06e6176c1e2b78cb34fd010af2a5d35e10b3ecfd36173a3fb71efd5945509a2f', 'mysql.20250110-0630.pgdump': '804c7a228fcac864fab21eafde0b5f885b82cdeaa7de3f3e681552354b7e051c', 'mysql.20250116-0040.pgdump': '49189a30486898b6b00b0a2797ac1b56af2facca19277d616b29b3b430825e14', 'mysql.20250116-0200.pgdump': 'd9c20167cd5eddc3cc967a888e698dc4bb964576ca388186a5d4fc240fe85e36', 'mysql.20250116-1715.pgdump': '6600ecebe098b90db9f6104261c4b954c7c7ab94e896b385fbac8040149fb4fe', 'mysql.20250121-0525.pgdump': '646fffe6e43dcacdbaaaef0b3b8e0328291d6f5be32d62ce5338276a20579ee2', 'mysql.20250121-0550.pgdump': 'b9eb70585bfefc41498aa3bc5903d6f8233e6fd6a3ab691ae52ef1ee85ac8c12', 'mysql.20250128-0105.pgdump': 'b8fe39dbecce14a0eb018a12ecff8adddb3308fb0bc4968b2e3ccb86258665c5', 'mysql.20250131-1100.pgdump': 'cc0fe0d8de3a0d278275c307cc58ea5f88741d94ab4791c79f6639ebde7f093a', 'mysql.20250131-1205.pgdump': '49d6ed732ba7eeb4c007d3631e8bec912e3511b90873a4e7b71b6286ae64f2a8', 'mysql.20250131-1315.pgdump': 'a5d97c8f2f706c58b6ba8fa3d3d28dc71db95ea72375d36eaa30c2053096805e', 'mysql.20250210-1945.pgdump': '1de510e61c73f04f829fa3b9ab8a437b1213ea646654cb814c871397a346ef22', 'mysql.20250224-0515.pgdump': '6ed3c9fe0084d2bdae6dee6f30ee79987cf177b83e1d3bdb68aad586aef1bccd', 'mysql.20250228-0635.pgdump': '31a59653365915b233ac3ff2b01b2e9c22a2e60f7cdda63bb5ca142960adb01f', 'mysql.20250314-0935.pgdump': 'ea2734e58e2e694b323e3753e8d8c6fcdaeecd24fc8fd600f997e37c89e9dc83', 'mysql.20250316-1405.pgdump': '9836c6adacb783daa29788b490c50208a2836420e7be5f7ff7d801aa7805b62a', 'mysql.20250316-1605.pgdump': '7250d8e8af9091d6c15b034e52ca497ae6bbd687f43a46e892777e5e3babe9b7', 'mysql.20250317-0240.pgdump': 'e7d558e4a02c3d5e262da30535d5ed15662af69218fa3d80a0b5083e3cab964f', 'mysql.20250327-1950.pgdump': '1ab866fdee16c8785e1cfee5bf049daef4e3fd287b8cb8fcef7cf2b21f361008', 'mysql.20250329-1840.pgdump': '4a10b68d19718a637a78437ac892185f3376802284fe8ef8c8a4100927ba8cfb', 'mysql.20250404-0225.pgdump': 'f71644e5637c4237928cdeb57bc02dab87629b1e08e92721798f883dbe72222d', 'mysql.20250406-1410.pgdump': 'a807ab58653770f9883e85a9f4cd56c9c5f9a3aee7ca200ab134681ddd68724d', 'mysql.20250419-0240.pgdump': 'f36511ef15da834a1cc67a795e8f44cc1a348ab8994bd18f6127604ab696be23', 'mysql.20250419-1720.pgdump': '6287446a281f02c026b7077dd98096572b25d03937828f233b545eaa6e28b438', 'mysql.20250422-0750.pgdump': '1e04824d48b89ad622cc70f02e0432c8782eafe5ad111270f262793b1d8745b1', 'mysql.20250427-0550.pgdump': '7034abe16a6b1e6d58169dff69cb2dd757dbf86389d2b09eb0d46f377232143c', 'mysql.20250516-0040.pgdump': '15ec7531042d4db2e44aca6ada17f31c75c652c44694f597dac05f2442240c99', 'mysql.20250516-2340.pgdump': '67407806c5a5c95eb57c436ddb183f0da26ed0d94fe6d5d9267b2f52190f297e', 'mysql.20250518-0335.pgdump': '448517c95df4fe515eb923fb008078d45689012fd25e2db29e3c2b5d7d0a5933', 'mysql.20250518-0635.pgdump': '6e0aea037ba33752f4c654ed5dc2b260590d2c0ee40dceddf5e6168658d252f9', 'mysql.20250525-1010.pgdump': '3145bb93455cdce8d7d64df249113844742f3fa689667e14a1c204a2c43c7f8c', 'mysql.240622-0420.pgdump': 'f7025e49b842af845eef3282335e732614b71a832d7162fdf78f319fbb408d6f'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/retention-plan.csv': 'name,action\nmysql.20240622-0420.pgdump,delete\nmysql.20240724-1700.pgdump,delete\nmysql.20240806-1135.pgdump,delete\nmysql.20240806-1615.pgdump,delete\nmysql.20240922-0630.pgdump,delete\nmysql.20241002-0000.pgdump,delete\nmysql.20241007-1030.pgdump,delete\nmysql.20241009-1655.pgdump,delete\nmysql.20241012-1710.pgdump,delete\nmysql.20241012-1825.pgdump,delete\nmysql.20241021-1905.pgdump,delete\nmysql.20241027-0050.pgdump,delete\nmysql.20241027-1905.pgdump,delete\nmysql.20241103-0225.pgdump,delete\nmysql.20241216-1835.pgdump,delete\nmysql.20241218-0225.pgdump,delete\nmysql.20241228-2205.pgdump,delete\nmysql.20250102-1845.pgdump,delete\nmysql.20250104-0130.pgdump,delete\nmysql.20250104-1000.pgdump,delete\nmysql.20250110-0630.pgdump,delete\nmysql.20250116-0040.pgdump,delete\nmysql.20250116-0200.pgdump,delete\nmysql.20250116-1715.pgdump,delete\nmysql.20250121-0525.pgdump,delete\nmysql.20250121-0550.pgdump,delete\nmysql.20250128-0105.pgdump,delete\nmysql.20250131-1100.pgdump,delete\nmysql.20250131-1205.pgdump,delete\nmysql.20250131-1315.pgdump,delete\nmysql.20250210-1945.pgdump,delete\nmysql.20250224-0515.pgdump,delete\nmysql.20250228-0635.pgdump,keep\nmysql.20250314-0935.pgdump,delete\nmysql.20250316-1405.pgdump,delete\nmysql.20250316-1605.pgdump,delete\nmysql.20250317-0240.pgdump,delete\nmysql.20250327-1950.pgdump,delete\nmysql.20250329-1840.pgdump,keep\nmysql.20250404-0225.pgdump,delete\nmysql.20250406-1410.pgdump,delete\nmysql.20250419-0240.pgdump,delete\nmysql.20250419-1720.pgdump,keep\nmysql.20250422-0750.pgdump,keep\nmysql.20250427-0550.pgdump,keep\nmysql.20250516-0040.pgdump,delete\nmysql.20250516-2340.pgdump,keep\nmysql.20250518-0335.pgdump,delete\nmysql.20250518-0635.pgdump,keep\nmysql.20250525-1010.pgdump,keep\n'}
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
