#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/mail-archive': {'files': {'AMANDA-MAIL_20250905.mbox.gz': 'e5a490755e7ed9817264b2d9f979f1f9ec888b408e00867964b7e957047d5399', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'amanda-mail_20250905.mbox.gz': '47571559e95eeffe451b151023302a549f15c5bb1c9672a0844f644c7f072756', 'amanda-mail_20250905.mbox.gz.partial': 'f7140706c84c32cd969104988123f0d4eeaba419e00cd3a35b4381162199d446', 'amanda-mail_20250906.mbox.gz': 'e909b16e8c7f98ffcaaea56d6261cfd66945d97ee9a5236ecb4ba3110eb494b5', 'amanda-mail_20250916.mbox.gz': '83ce9bf0ea7c04e217df449c2883a5ddd728361cd5e2e4c66924fa82576d86bd', 'amanda-mail_20250918.mbox.gz': '470ce3bb55d07a3aaa799026bbd4ec76e5eb283e70c7ebf3cf07ec663a77ff62', 'amanda-mail_20250919.mbox.gz': '37c0bcaacc8f9df3ccfef69b0559d75551595b3d25906e7cae482f4711886c65', 'amanda-mail_20250920.mbox.gz': 'b980d8516f568f2919ec5013e03450e46ebaaec23779fb9412e68fe41686cd46', 'amanda-mail_20250921.mbox.gz': 'f8ab659fc36c783a504a92b8b0155aa4bfc6faf98c5123d8cfae3cf515c1e9fc', 'amanda-mail_20250923.mbox.gz': 'd6c8c7a41ea3b2588f02fb41e9bc49bfae88cc63a6e191880c186efa5ee52a8d', 'amanda-mail_20250927.mbox.gz': '39010a787ca396a1f03cebc4d2a9036c5a39ac82f6c15b5041d5cea18267d634', 'amanda-mail_20250929.mbox.gz': 'f2b6ef707faa82746bdeaf27fe95745941e9a35b19f97e7f2e229f1b0aa2e206', 'amanda-mail_20250930.mbox.gz': 'b30b41653f81f5540048017b6e28ab38c0d2715223543885c5e29c84711e5d42', 'amanda-mail_20251001.mbox.gz': '4e6aa83642e5908c1328fb650fbec3b683963495f9d9ac6f5398e68cb25dc801', 'amanda-mail_20251006.mbox.gz': 'b00f18c573ed7e9151fc8ee0eae2ab1b668eac5c8905f08e081b7363c651ce19', 'amanda-mail_20251007.mbox.gz': 'dd0b22e4f3cb5f34afc5023fd37f704da6de244625427c2992395eb43e3fff20', 'amanda-mail_20251008.mbox.gz': 'fcb8fff09c94a1a81b285ba9646d7fb71b63fdc37d8a8e845db04249d714a46d', 'amanda-mail_20251010.mbox.gz': '3ed05fb297b7665166c17d85ce7cf298cdbc688d5ad97de0c22e9ea19578aebb', 'amanda-mail_20251012.mbox.gz': 'a4e60bfc0d57c68e2726abbf371512d51141d97df04eb5108f1396a8a1f5bf63', 'amanda-mail_20251015.mbox.gz': '753dee3622304de84fb35810f348d6d67837b9127f2c76c0c0b7946c82d976ee', 'amanda-mail_20251016.mbox.gz': '44f21e73e4b3434f89bc7c4bc1dd6193fecfdb6fe4ba90f95eb97874386def60', 'amanda-mail_20251017.mbox.gz': '7e9c6dd7361bf31dcd684cb27000f094a60a6294fa3e9cc33d47ec1237826b49', 'amanda-mail_20251018.mbox.gz': '9cf617e28d1214f20fe689ada5e7fc026d61ff69dc09efb5e3219407571ce5c4', 'amanda-mail_20251019.mbox.gz': 'c1f64a54cb6659bbcf59d3a373c47c34cf697557682bc2400cea0bcc3e59ac07', 'amanda-mail_20251021.mbox.gz': 'ef80af9407d04e0aa829638f65cdbd46fa4c92f7c134a50b53d816ca53afff8d', 'amanda-mail_20251022.mbox.gz': '436ed0e952347f896f0bea2052de67df5c8d87e5f7ed2cef60f5dee4fb215583', 'amanda-mail_20251023.mbox.gz': '69804ee6dc50ac76c88aba9932bf47fc368fbb3683d7e7f283ead44906eb5cf2', 'amanda-mail_20251024.mbox.gz': '52384b377782ce339ab8dd5088021426a58cf6462fb117f17b5c882dbd7a6e20', 'amanda-mail_250905.mbox.gz': 'd4d0458d945a2d1b8165b92e9fb7aa22d2448f94e735f49e93c5b6f8793108c7', 'db_20250902.mbox.gz': '4b72b7fb10c8f48bb0f02735d36ebf4bdd1c164389fd86289b6162a01118cda8', 'db_20250905.mbox.gz': '91ef666f213ac884a38e7e88b88717bd63c7824a5ab959c1ed6d0ea2bc996c5d', 'db_20250907.mbox.gz': '5850fd95d7ec8e53a42310307416d88b05a0fa6057b0e20cea5103c32c09165e', 'db_20250914.mbox.gz': '16c6eba006e24e6f1c2ba35b4856c2ae7164abc60cef5d3b8bfe8489a6ec8854', 'db_20250915.mbox.gz': '09a893c05ec048c499f33e0608a4386406e738791f1075b8a2e6c73c99cf01ac', 'db_20250916.mbox.gz': '7528a9e79a8cd71cfb8a4c2a356c4090956ead66f24a0e1f34cad5c855fbfd01', 'db_20250919.mbox.gz': '5ac6d97d940c01caf8da8db2000dbe5e74a1daa582d1474f4849878ebe4be9b1', 'db_20250920.mbox.gz': '19ded22c485193297f1daf6a67ba5c8dd30d387dda78d8d6a689e326ac628de3', 'db_20250921.mbox.gz': '05c71e41963877fae6fcf4243b55c08a8c167869628c32418529605d182c3a71', 'db_20250922.mbox.gz': '1113158dbce37e3cdda7e9db7a2332d35634006cb157e240c826f354606bf7c4', 'db_20250923.mbox.gz': 'f09c357ab4126b6c643e582e9c3ad6d69a14274cad7747c81f211b7fe0169a09', 'db_20250924.mbox.gz': 'de78cf66aa8cd99037085c850e046bc0b44201408e8af05736460ef0c6d2f40b', 'db_20250930.mbox.gz': '3dda286da8c2452ca230424302f9f6335ed5e05de1256f092461a69adb0f6b4d', 'db_20251001.mbox.gz': '31454cc44e9bd667209b091da018aca9d2de54843fd4115bb6eb5bcf4d0ad77a', 'db_20251007.mbox.gz': '5b3d423465cf37d654ef787ce0566818d4da41c13687e22f192a3cb874ed3da1', 'db_20251009.mbox.gz': 'b2c056fa09a7a4c5c669e029e2da8b4df85ff2685457ae2e833ff91219e0835e', 'db_20251012.mbox.gz': '8ee4539f952069e1dd022f904fe983e07943d02dca2c074e1045ee126d01f542', 'db_20251014.mbox.gz': 'f149d79c704597d3b83887604e9817c565992128942d90a3d3ffb235af4d0bd3', 'db_20251015.mbox.gz': '08088c5dd49c217491c518405363fe71175f920b8b4e2e5a756c9d7e4bbad36c', 'db_20251016.mbox.gz': '4a8814f13168d4b938bb388dd6df2580d163ea0a26835adfb2bda46631d51351', 'db_20251017.mbox.gz': '4eefd48ee772ecb604e20aad1d60552b77798eea3a349077835337d512665980', 'db_20251018.mbox.gz': 'f1154b6c950bf6e4c78e5bc243a50a85e70e618a301b5490430ffc8873b83373', 'db_20251020.mbox.gz': '191d137183f25f502486fd9efa055e9a3530dd88349f011351751742a3b764ec', 'db_20251022.mbox.gz': '804c9cbbb39fd7a09aeadc3d63a7ef7cd250f1ff8720a04b766b8326604ec3aa', 'db_20251023.mbox.gz': '86012207d6cc8783ec0f98bfcab0b7f3fdf4116f8e7b66c601db69e4ad2222c0', 'db_20251024.mbox.gz': '757d2e9a320bbd3bc969f367a4749977599d6f64d64c6afc375480390a3d33b9', 'inbox_20250830.mbox.gz': 'd93b31fed636def56e3e489d0f2c82d8f409aa6ddb31e03bbf5a9271fa7f1f51', 'inbox_20250902.mbox.gz': '490e31299e372ce969cd64871d6d59842f76efc2ff8fbe426d93ea18784c01d4', 'inbox_20250905.mbox.gz': '9fb71c032c3ca9850541510ce1ac8f91fc2a785110f0de66b786fb4e7c05deb3', 'inbox_20250912.mbox.gz': 'b970fbc1b757b3a601487437dfae7cc04f0d2a4b2249b1628f4fd238d4b95929', 'inbox_20250917.mbox.gz': '268d331cff7c5a2c20c6b90a6307df000d7ebd5e0b30824d18d0795ec3dafd74', 'inbox_20250921.mbox.gz': '1d00a2d13eb3b7a21b572f79a7cd03302068cf93c67fd720a968522c2992aaba', 'inbox_20250922.mbox.gz': 'c804392a673fad4d2354adfab16e2a1fcb58421d5b89237614e24bd4a4d0b45c', 'inbox_20250928.mbox.gz': '0b6671dcb6ca11d26e855dfdc392994ea11c1a1269bfbd84038c4dc2f538d218', 'inbox_20250929.mbox.gz': 'c8c15f0ba7bed6d69b986a4ac06a5c999d28b197f26b57e426d6960ec8b57433', 'inbox_20250930.mbox.gz': 'd2abcb4273bf21a6ccfb6de9e07954104fb1d0d3bd16af4c762288bd89d213e3', 'inbox_20251004.mbox.gz': '5b70ced4f4ea9439cb14c5dc0a4d64f58f268797f83c08243d65445d49f7e006', 'inbox_20251006.mbox.gz': '5df9902cfce434ea7a5b83376028f7f64eba8241952a029cc7d6a6f5ac9ecfcb', 'inbox_20251007.mbox.gz': '4d7171219b698acc2564eb86e68eff7b499375d1220b30f35b9a60d7a710ea57', 'inbox_20251009.mbox.gz': 'a020cc45f7e0843d18e2aae01a4f5078c7c04d0feec85112a28c1d819610425c', 'inbox_20251011.mbox.gz': 'eae4d836dacbceea5acacb0a5c7bfd8f6fa58b4e9244c006757b14ff687ecedd', 'inbox_20251012.mbox.gz': '93a9775bc1af011911b5b018872e14d6e66074b567434172db546d8d2fc43b87', 'inbox_20251013.mbox.gz': '6de9f882398770f1e29e44bb0b3df69ea8d6795272021c2fe0c0e90fe12c3808', 'inbox_20251014.mbox.gz': '68eb9cf297ef680d1711bd599a9a5adaa00e66760ea136cb1f1a4a4c43003bef', 'inbox_20251015.mbox.gz': '97588d7a384915db13edc5caf282159e1e7b37eb6bce68e8d9b29dc70a4a5c2a', 'inbox_20251018.mbox.gz': '8441878b82f9848315b2e2f2ea5e63048e022afb2ca6125faf35a0bb5ffef8c9', 'inbox_20251019.mbox.gz': 'e78727d646b27260181785800d20edbd6d4ef6c3b72f5c959e9335e08f3e9387', 'inbox_20251020.mbox.gz': 'fd8b7e01298349fea48ba4cc221f395d8c8eeefbd5866d68f567bb33efb0c524', 'inbox_20251021.mbox.gz': '30d7afc2f6b043dd9aabbd0741ed73b13b842b4c8fb0a14cd76ae30258d09759', 'inbox_20251022.mbox.gz': 'e1e9d258bd26dc7a17df7bce6908c2dd582e121718b8963bce005f4ab1aedae0', 'inbox_20251023.mbox.gz': 'cfa70434ad405509716d64e4b4c021f9db580554d396b430fe8be903fdb71cd3', 'inbox_20251024.mbox.gz': 'ba33a1a1708911e22f2f69d2f7e79e4b1ff27085f5dd6a94eeaa7efbb3f866cc', 'keep-forever/amanda-mail_20250726.mbox.gz': '10da5d196e1cdef36d393b3cf879de42841abdde348349deb31f5b9d498e05fc'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/retention-plan.json': {'keep': ['amanda-mail_20251016.mbox.gz', 'amanda-mail_20251017.mbox.gz', 'amanda-mail_20251018.mbox.gz', 'amanda-mail_20251019.mbox.gz', 'amanda-mail_20251021.mbox.gz', 'amanda-mail_20251022.mbox.gz', 'amanda-mail_20251023.mbox.gz', 'amanda-mail_20251024.mbox.gz', 'db_20251017.mbox.gz', 'db_20251018.mbox.gz', 'db_20251020.mbox.gz', 'db_20251022.mbox.gz', 'db_20251023.mbox.gz', 'db_20251024.mbox.gz', 'inbox_20251020.mbox.gz', 'inbox_20251021.mbox.gz', 'inbox_20251022.mbox.gz', 'inbox_20251023.mbox.gz', 'inbox_20251024.mbox.gz'], 'delete': ['amanda-mail_20250905.mbox.gz', 'amanda-mail_20250906.mbox.gz', 'amanda-mail_20250916.mbox.gz', 'amanda-mail_20250918.mbox.gz', 'amanda-mail_20250919.mbox.gz', 'amanda-mail_20250920.mbox.gz', 'amanda-mail_20250921.mbox.gz', 'amanda-mail_20250923.mbox.gz', 'amanda-mail_20250927.mbox.gz', 'amanda-mail_20250929.mbox.gz', 'amanda-mail_20250930.mbox.gz', 'amanda-mail_20251001.mbox.gz', 'amanda-mail_20251006.mbox.gz', 'amanda-mail_20251007.mbox.gz', 'amanda-mail_20251008.mbox.gz', 'amanda-mail_20251010.mbox.gz', 'amanda-mail_20251012.mbox.gz', 'amanda-mail_20251015.mbox.gz', 'db_20250902.mbox.gz', 'db_20250905.mbox.gz', 'db_20250907.mbox.gz', 'db_20250914.mbox.gz', 'db_20250915.mbox.gz', 'db_20250916.mbox.gz', 'db_20250919.mbox.gz', 'db_20250920.mbox.gz', 'db_20250921.mbox.gz', 'db_20250922.mbox.gz', 'db_20250923.mbox.gz', 'db_20250924.mbox.gz', 'db_20250930.mbox.gz', 'db_20251001.mbox.gz', 'db_20251007.mbox.gz', 'db_20251009.mbox.gz', 'db_20251012.mbox.gz', 'db_20251014.mbox.gz', 'db_20251015.mbox.gz', 'db_20251016.mbox.gz', 'inbox_20250830.mbox.gz', 'inbox_20250902.mbox.gz', 'inbox_20250905.mbox.gz', 'inbox_20250912.mbox.gz', 'inbox_20250917.mbox.gz', 'inbox_20250921.mbox.gz', 'inbox_20250922.mbox.gz', 'inbox_20250928.mbox.gz', 'inbox_20250929.mbox.gz', 'inbox_20250930.mbox.gz', 'inbox_20251004.mbox.gz', 'inbox_20251006.mbox.gz', 'inbox_20251007.mbox.gz', 'inbox_20251009.mbox.gz', 'inbox_20251011.mbox.gz', 'inbox_20251012.mbox.gz', 'inbox_20251013.mbox.gz', 'inbox_20251014.mbox.gz', 'inbox_20251015.mbox.gz', 'inbox_20251018.mbox.gz', 'inbox_20251019.mbox.gz']}}
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
