#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/srv/logs/old': {'files': {'LOGS-2025-12-11.log.gz': '5dd9f9c94768a9c81e1db66d21b21e2667a5e8ae84ff6bf874382c9776ecad97', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'catalog-logs-2025-12-13.log.gz': '5406a121f9302818d02c6d00838a7237c87dd1eb2fdfd084a1ec4359639b473d', 'catalog-logs-2025-12-19.log.gz': '085758c6f327e0b0a05576f20f353fd836898088a66b9c4687087990bf0016a4', 'catalog-logs-2025-12-20.log.gz': 'ace5b810ed020cdea9e2bb3a8215367d87e0957472ab93886aa49a950ca756c7', 'catalog-logs-2025-12-22.log.gz': 'b1a83aa043100dfb4e588987a97fef54ebc4dfd4115b1708609cf2457acb3e3a', 'catalog-logs-2025-12-23.log.gz': '22f455f13b701e6f0957114ec11f469da2c763c30d15a0e54dc69e0fc9ec6a50', 'catalog-logs-2025-12-25.log.gz': '62628d12055c2a43e8661ba2eeb82c8b49c805ab2a0dfe30505b9c9e892e0c96', 'catalog-logs-2025-12-28.log.gz': '06b70b7cd4253014b3f69eead0e632552e7d9d2e9632e7535a69294af5382a16', 'catalog-logs-2025-12-29.log.gz': '7008d7ddd5a76c9343c200715b42e5cc9d2f5679288b3a9e29b8c741425a4024', 'catalog-logs-2025-12-30.log.gz': 'ead8a6b7311115db0fd963dcc558995bf6b1e8ebbb4611ce6a0e76f89416d84e', 'catalog-logs-2026-01-01.log.gz': 'ea8f7ced511d4987a38f257151a13bb4700103e9bee8e973ff87f19224d5d4db', 'catalog-logs-2026-01-03.log.gz': '95290e128eb3e5695d27077266b89459914f7e93feb2839e1ea15c116d93f47e', 'catalog-logs-2026-01-04.log.gz': '034ffd4ef25e3c82f82b943ff41b967053b0c7156a37f2369990042df815cb25', 'catalog-logs-2026-01-08.log.gz': '0fa63c330b3a1f8fbafab701265adfbd268b5571f452393c78bb57d08d7b14d5', 'catalog-logs-2026-01-11.log.gz': 'a70782d8978e367d2e7c34271608c4d214c10f0ae1152ccb0fe9ed106468fa2d', 'catalog-logs-2026-01-12.log.gz': 'd9ec05898bd7771e1b37d8696cecec974a8b0aab165c03d402ec120a1cb4ad21', 'catalog-logs-2026-01-14.log.gz': 'aace1431845d7c4e9f52d59f51b00391564b9da36e9659545f6172617d08cb82', 'catalog-logs-2026-01-17.log.gz': '52840eff974b959e4e87f9f0cdd3f6c46df4fb8e87aa5431f3047569214ad8ff', 'catalog-logs-2026-01-18.log.gz': '7b6517fc219ce94acd95def6eab7405507fd4a2c2cedc533814cf4a19639cdf1', 'catalog-logs-2026-01-20.log.gz': '518bbd180fd746d147c13fc05f9e258ba856809db84c648e43e2dbc0d7845a00', 'catalog-logs-2026-01-21.log.gz': 'd56f9004ab73c036b28ff3b4256e894bdb1853c899eaf27dbadd609617bd5e6c', 'catalog-logs-2026-01-23.log.gz': '368521be265ce59120f9b6e95e47f178b2b7ebd7c14f3f5d86fe97f8fee03417', 'catalog-logs-2026-01-24.log.gz': '3fd8a6f76e32025a068a12a725dae6612bcfc76fa99a9b8482daf66901b578c7', 'catalog-logs-2026-01-26.log.gz': 'eb8d7d145e0b0bb09cd58e0572c63b7f56135f3be83afcc4296984edeabcaf85', 'catalog-logs-2026-01-27.log.gz': 'd87da16ff4effe23cfe90b21ce5283d4f452ccb0e428abf13b4e48d55ca5dd08', 'catalog-logs-2026-01-28.log.gz': '74bf7c896b4a49b685c56d7fe3d9c27cf3318218f8b5f20efb22c311fa5a9895', 'catalog-logs-2026-01-29.log.gz': 'f60ced6be867307cccccda2a657684f13242c255b4775e3477616ff3e98b899b', 'db-2025-12-15.log.gz': '5f494db937028310ab884479ad9a32bf1029b25b7dd25e86840e871a12ab5b8f', 'db-2025-12-16.log.gz': '6e9caee2c3148d6f5f0e253dc8677e41e3c3ed1e39f15e0993a1bdaee03fba4c', 'db-2025-12-19.log.gz': '69d970a20883706f85d1cd6e46be829f6a7a5c305838908d7bec0325a3306c63', 'db-2025-12-20.log.gz': 'ff03fea328d96b47fb349912427feae657f47bae9e7ca32bc43944e0b96d24e9', 'db-2025-12-24.log.gz': 'c31e3d3e021e4509081d26d1c4ec81213a79d42f63ba480d3635e56b8a61eee7', 'db-2025-12-25.log.gz': '3bfe6db26a84d8f64c5dd4e26d4c37e6c08f8e66df13fdde9968963f7d17669f', 'db-2025-12-26.log.gz': '88ab6a7f8fb0b1e085bc9ef68cc18db42b635a797072d026aaa4852b9d30647f', 'db-2025-12-30.log.gz': '7204a04bce1d091df7c782e17e9f06a02047ef2bc5d66ec920db0d74497ac419', 'db-2025-12-31.log.gz': '69e2f22096fe6e9196376af2da35e566cc887a0855138ac367d0a81d767a207e', 'db-2026-01-02.log.gz': 'c59a995ae6a416d3e144bd3cbbf0aa10c16b59744da984166ec78d6e477f62df', 'db-2026-01-04.log.gz': '81ab68f914cdc8d82ed399ba4170ef12e0d347d2ea8fd10ebfa475822fd6bd9b', 'db-2026-01-05.log.gz': '046e84a3375639f14d0bd2e76267e61b8bf6ff8f6e5df20938b3082f14f6997c', 'db-2026-01-07.log.gz': 'bc69a26b4c0e9baf2db771b44f74d8e8f1f33d5ec616f3e938aa2f387310de4a', 'db-2026-01-12.log.gz': '84ac05fcff82212ec614dcdc97b26cc06877c0e0b5a1e1315a0e973bc3917a79', 'db-2026-01-14.log.gz': '1f682b5c0442d0df2a8be1bd6fdfaa44f0154305faf8daac7bbc7dc29c06850c', 'db-2026-01-16.log.gz': '14bb055b670e700d1f7bd18d22b83d67d6298123071657b890e2fc4dc24211c3', 'db-2026-01-17.log.gz': '48a78ab0e4b41513fb54a42eb16f2ec232bf84df4436acba98a8eabe98879f34', 'db-2026-01-19.log.gz': '8604320f3c82b5bc1e20deeba3bf87a3b18fd3a9ed9cae761eda8c3a190b0cb4', 'db-2026-01-20.log.gz': '94cd03899fdc170d378cac15b8743127311db795fa9e3daef1fabfde89b883ae', 'db-2026-01-21.log.gz': '332ff864889d63a0715e09832f5f446d8f373162280e2c72d0f3ff6400638c37', 'db-2026-01-23.log.gz': '5b7f13eb95fe00fd8338d9c464fc45f33e1b71997f565c1ec79ad4aa9eeb4682', 'db-2026-01-25.log.gz': '0540549e24e4b1e71231a732e780e2f766ffdf9dfa5013faf5d72795d84fef96', 'db-2026-01-26.log.gz': 'f4122c9d48bcc68906d67a3ef5af08cfbf7d5d375a8118ad0e83319e93c0ab2a', 'db-2026-01-27.log.gz': '2b671033408c96a577ff85c97cd7085f598695f3a070e51f012406a5e8693fec', 'db-2026-01-28.log.gz': '17762701f990fc1abdd0952914effeca0f7de90cb242bd82cba5cac6cd71329c', 'db-2026-01-29.log.gz': '1322153e897344ad6a65cbfc968e919cc6653c885596efe1ed252336c6b8216f', 'logs-2025-12-11.log.gz': 'f42c1a5d69d023a18a9eb4c63bff45c4232652d9eef316cecb7a600539fd7699', 'logs-2025-12-11.log.gz.tmp': 'b2d88394cdcd53dc1015952fdc65a907067d814545e28f51dc01ca365723325a', 'logs-2025-12-17.log.gz': 'bcda349310f810b7af26e4e24fa61da67cbc48a3c814892ca2bf2f4b7f42c2d1', 'logs-2025-12-24.log.gz': 'e27c9d6b1517ca9af7e4bb189fba921a7c5d699b3d8d7f794913ba3d9825f804', 'logs-2025-12-25.log.gz': '7220a810648ff8a882b917ab5fd30bd7c72e9e433585687e841ef3216f38d3d3', 'logs-2025-12-27.log.gz': '284fea42d20dd6cf2cc6b785388a78fdbe255e20f21c5687abb7cc3f62accf17', 'logs-2026-01-01.log.gz': 'c385b0c7b8718c52f57479c97439c0528a7dbac26ffa131787d980ff326522a3', 'logs-2026-01-02.log.gz': '50d9a731a162bc3779866c727b694ec88df309bab2dfe21d778b6bfa4c6d823b', 'logs-2026-01-03.log.gz': 'aebc0b590c5c4bc5032eb9a7b47ce10d4dffa9268dbf30e007b1a16b8f5b72f5', 'logs-2026-01-05.log.gz': '5bd927ca3d0300bbd919f6077ca11aa5b1e570337736866eef2c8f05b909a147', 'logs-2026-01-06.log.gz': '80c1930d9ffb19f3f4f538cae1430e74e1a5ff29c337fb57f24e6a527b12d7e2', 'logs-2026-01-07.log.gz': 'd5ce396ad55403cf7f20ded7834fa86bc3c79f37650dfd20ecd0b74c3e36dcb2', 'logs-2026-01-08.log.gz': 'efd9a83ff7e02ce18bcf3a8d0db7ed9aeaf8048b47dd2ac6effb7ac325811f84', 'logs-2026-01-09.log.gz': '12d38337f2c79dc1a93cb10453da9bcd3896adffe0098dbf4a5ffd1efcfe3965', 'logs-2026-01-10.log.gz': 'f18663a9874cdac9c45ef6530f053694db74f3bbca867bc1f8c5942e9369e51d', 'logs-2026-01-14.log.gz': '1197a2f04e6352676883579d6cd894d0e8d2252cca2293c42425a8259ef174b3', 'logs-2026-01-16.log.gz': '83a43279a658e178cdeb786a6909437057735f3ed5aac413af3efb6b693066b1', 'logs-2026-01-17.log.gz': '56ae27cc7d9a5838ee998f4e69021c11f94c0fc2fbe0eea97f959563dd3070f3', 'logs-2026-01-18.log.gz': '2692d81b250394845e582cca3f1253a399c25c7c617adc3d26269b63e7d65516', 'logs-2026-01-20.log.gz': '508460ec8f82682ca532968d25a1f24bb3bb8b68330e0d8b8eee68a8e170d15c', 'logs-2026-01-22.log.gz': '502a35f06537ca6ef3114cff6b86e55355f3a36ec40fac8749923f735bb449f6', 'logs-2026-01-23.log.gz': '72b4ddd2744aaeae93a059e60c42546e4f8acf37c2e4110a52352e12e1eb2a2f', 'logs-2026-01-24.log.gz': 'f77a393eca1598550f432d3b73c34a54443a5fa78ddc3721884479efdaf15056', 'logs-2026-01-25.log.gz': 'c4055fda5008cd02f65007a1413d1abecd7f551f70d869dacf0f9b1e01293a53', 'logs-2026-01-27.log.gz': '4b21dd5d072ef33c9d818b6a3e5aaf83f953477203524d1147f30c6b973abdaf', 'logs-2026-01-28.log.gz': 'aaec62e5ddcb27111ac7a57529a7aa5beff17dbfa5df431f4f5b48f55d866bc9', 'logs-2026-01-29.log.gz': '6741328c5711c1c32f0ee3ef818199ce38255259b7b8816fa4b594b45fa67ca2', 'logs-25-12-11.log.gz': '53835a0c5d3e90dbd53da55797cde5dba3b2682483bd30d799d770ec62abe20e', 'manual/logs-2025-10-31.log.gz': 'e83445ee8c77174cae97cc6ad997d137afba8c51d7e9cd80df39e39c0a318549'}, 'links': {}, 'dirs': None}}
TEXTS = {}
JSONS = {'/app/prune-plan.json': {'keep': ['catalog-logs-2026-01-20.log.gz', 'catalog-logs-2026-01-21.log.gz', 'catalog-logs-2026-01-23.log.gz', 'catalog-logs-2026-01-24.log.gz', 'catalog-logs-2026-01-26.log.gz', 'catalog-logs-2026-01-27.log.gz', 'catalog-logs-2026-01-28.log.gz', 'catalog-logs-2026-01-29.log.gz', 'db-2026-01-20.log.gz', 'db-2026-01-21.log.gz', 'db-2026-01-23.log.gz', 'db-2026-01-25.log.gz', 'db-2026-01-26.log.gz', 'db-2026-01-27.log.gz', 'db-2026-01-28.log.gz', 'db-2026-01-29.log.gz', 'logs-2026-01-28.log.gz', 'logs-2026-01-29.log.gz'], 'delete': ['catalog-logs-2025-12-13.log.gz', 'catalog-logs-2025-12-19.log.gz', 'catalog-logs-2025-12-20.log.gz', 'catalog-logs-2025-12-22.log.gz', 'catalog-logs-2025-12-23.log.gz', 'catalog-logs-2025-12-25.log.gz', 'catalog-logs-2025-12-28.log.gz', 'catalog-logs-2025-12-29.log.gz', 'catalog-logs-2025-12-30.log.gz', 'catalog-logs-2026-01-01.log.gz', 'catalog-logs-2026-01-03.log.gz', 'catalog-logs-2026-01-04.log.gz', 'catalog-logs-2026-01-08.log.gz', 'catalog-logs-2026-01-11.log.gz', 'catalog-logs-2026-01-12.log.gz', 'catalog-logs-2026-01-14.log.gz', 'catalog-logs-2026-01-17.log.gz', 'catalog-logs-2026-01-18.log.gz', 'db-2025-12-15.log.gz', 'db-2025-12-16.log.gz', 'db-2025-12-19.log.gz', 'db-2025-12-20.log.gz', 'db-2025-12-24.log.gz', 'db-2025-12-25.log.gz', 'db-2025-12-26.log.gz', 'db-2025-12-30.log.gz', 'db-2025-12-31.log.gz', 'db-2026-01-02.log.gz', 'db-2026-01-04.log.gz', 'db-2026-01-05.log.gz', 'db-2026-01-07.log.gz', 'db-2026-01-12.log.gz', 'db-2026-01-14.log.gz', 'db-2026-01-16.log.gz', 'db-2026-01-17.log.gz', 'db-2026-01-19.log.gz', 'logs-2025-12-11.log.gz', 'logs-2025-12-17.log.gz', 'logs-2025-12-24.log.gz', 'logs-2025-12-25.log.gz', 'logs-2025-12-27.log.gz', 'logs-2026-01-01.log.gz', 'logs-2026-01-02.log.gz', 'logs-2026-01-03.log.gz', 'logs-2026-01-05.log.gz', 'logs-2026-01-06.log.gz', 'logs-2026-01-07.log.gz', 'logs-2026-01-08.log.gz', 'logs-2026-01-09.log.gz', 'logs-2026-01-10.log.gz', 'logs-2026-01-14.log.gz', 'logs-2026-01-16.log.gz', 'logs-2026-01-17.log.gz', 'logs-2026-01-18.log.gz', 'logs-2026-01-20.log.gz', 'logs-2026-01-22.log.gz', 'logs-2026-01-23.log.gz', 'logs-2026-01-24.log.gz', 'logs-2026-01-25.log.gz', 'logs-2026-01-27.log.gz']}}
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
