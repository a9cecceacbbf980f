#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/expired': {'files': {'vm-gateway_20230921.img': '318150939e2511ff1924f83dcd6c5d6c2fa1a597aa2737d1203811c58b9527f5', 'vm-gateway_20231027.img': '0c79a977d07e90f40437ff223415601a96da9d06d575de21bafa4eeb2b821bc8', 'vm-gateway_20231120.img': '9db86beb6a8515c4586817b2fa140538563f3e1f055b39984773a4d2fa9cba66', 'vm-gateway_20231122.img': '9a49f3aff7f90c4a2b4507eef35efeb7e54b5d238656eee8e09694c637acba4d', 'vm-gateway_20231220.img': 'e540f1aaedf4c00b3faedc302727b857f13b2ed29156fb3c841a61c2a250447f', 'vm-gateway_20240103.img': '6fa3a8953795a5a64c369b2d3d3761dfa7258c7420f7bf658732bc03186ecefd', 'vm-gateway_20240105.img': '859a015cbd26bb9146d53c045a3c2f0e8524142c87072919f963324ee25cf2a4', 'vm-gateway_20240128.img': 'd744bc409fa294b08da85e1e4c2ecdf081586a3107a3fcfd1d10af77e532abd0', 'vm-gateway_20240222.img': '7271dae1f582581bf13f2e7f878843102039ce16cabe43ca6471d6a559503ac8', 'vm-gateway_20240310.img': 'fd0fd5e380c61f546da2e03b46473469fd986692d997f375847de9bfffec94f1', 'vm-gateway_20240314.img': '1c44042475f022b1b5d14e148c96d2361cb05e7bf750f22d78b5bfff65d59c1e', 'vm-gateway_20240325.img': '391c63bf9d8a1e2bcb8887e135274af717692deec8405c9564ef81021cb7b64f', 'vm-gateway_20240329.img': 'f52ebe1d187586cc8b84e30c179a533d3d2b90d3e23861062fa244fe4631c989', 'vm-gateway_20240406.img': '0d4ec15cd22d57d4c5fff7cfc99c0531f1d4dda8d0edbe5cc0160ce7f8c24a50', 'vm-gateway_20240409.img': 'f94a6855fd6059fce9f4252c33ac5a5d0cb733760ad7cb3f039e44f079e9bb2c', 'vm-gateway_20240428.img': '7658153943396519e2f8cce9e75a54c0c991a2432ceb273ce08bef5f82b7ec32', 'vm-gateway_20240525.img': '7e7e421f87809eb0164c2a2f48b99509cd3a6093699efe92ee2a7f1a065d2d29', 'vm-gateway_20240603.img': 'fdf14b716d4fa1875907d22eba70fc4b540f06a949f67e15e68d723d484a242f', 'vm-gateway_20240607.img': '1c0718ea1a7e95de7a3c2a60f8fe3650bd339865d869890cd17b60609867d598', 'vm-gateway_20240610.img': '1930c70c82e739ee8c629ca496993dc992a9a9c067ef033a6e18c1bb66e296e5', 'vm-gateway_20240612.img': '43e9e5889406024586e3452775a78cf2d2d2629a1bf4baf563f01a0d577dcbde', 'vm-gateway_20240613.img': '154b0b8551e178b18de5820ab877811fd4a8c12781852cbceda2071de34f6295', 'vm-gateway_20240626.img': 'fea7838a756f59aa115aaf6b46709f4464cf3bf80949ddd77f84e2e4345e04a1', 'vm-gateway_20240627.img': 'f70e6070019827d17c05f82b726d93ae53d7e5ca4a19f97306ea9d6e1dc5a3fc', 'vm-gateway_20240712.img': '4bbcf6008f170c2daabbbfa09dcbe29a56deadf3009fe80c7cfe36247dd2f144', 'vm-gateway_20240804.img': '2209de9b5da27ff49b6b489176803dafcf9a99f0331816a144abf11cae02041f', 'vm-gateway_20240808.img': '8facbca6898f7afbd826336b39f88106bf84f3aabeee679906c4b4b80285462d', 'vm-gateway_20240812.img': 'b9c7cd64b7250b5cd2c8379cbdb130e6cccae4a78aeb745c8945579cf1db95b1', 'vm-gateway_20240817.img': 'e51ed207752ac57373b971673b314780105bcf1bb040b90f9db230028969b2f8', 'vm-gateway_20240821.img': '58c50113d61a9cced41d3035fecc59a42d0495fa5a00f12d41c3132c9c1fd0d9', 'vm-gateway_20240908.img': '2663fb6f4dae363d2be02726a9b3cc4f132dd14ae31af556fac98307431ebacb'}, 'links': {}, 'dirs': []}, '/app/var/lib/snapshots': {'files': {'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'VM-GATEWAY_20230921.img': '925c016e3b87e477077b376daa103e8c0094ace371b78654e36b0f1c61447d67', 'archive/vm-gateway_20230704.img': 'e6b3bd0ef19045f2da29fc5c9a6adc9fe8dd4fe6ddeab41e5cfdebd118e1b3f1', 'vm-gateway_20230921.img.partial': 'a4ca86b403a01ca58db88ddecfa8e6f19580b853714af538b4c261e0c52036d4', 'vm-gateway_20240530.img': '0e8c85547d0266b49c8f62fc3599d8c95b1cd97a9303d357573e5a621cc105dc', 'vm-gateway_20240628.img': '946a2faef3ad12fc52af6a1ea5de021bdfca686d88d90d378da94c78086c76d9', 'vm-gateway_20240719.img': '47c1aa188393ff445b94efea2ce890bc52fe64e6fcd0c509549915efdf7dc98c', 'vm-gateway_20240822.img': '55b8cc5acbcd27753b264de3618702984cc4780e455025f7a69eefc44e1f7519', 'vm-gateway_20240911.img': '887e6947da1c996bf5d502fa6917f21cc34def74cbacf8bfe60d355f06b3f013', 'vm-gateway_20240916.img': 'c6dc1e2dd5873d44f0a1fb97dcf6c6b2ee545781a000ff9a46b092d0563292fc', 'vm-gateway_20240923.img': 'ef5b71f65ed180dc18de2dff0824a58e9ac7c0a6551908a939caeb9e84c36f4f', 'vm-gateway_20240924.img': 'c5137d43515c91c4f72dadbc05ee88f80432435e11ff0ff6548a6b803d150935', 'vm-gateway_20240926.img': '87b01436254e9f7285262c81acf7c8a328759357e889801e3eb0977cc9e24b43', 'vm-gateway_230921.img': 'ab7f9283637028a1ac9dfc1e88ae02510d04aa6c969e142b41170cf416993523'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/expired.txt': 'vm-gateway_20230921.img\nvm-gateway_20231027.img\nvm-gateway_20231120.img\nvm-gateway_20231122.img\nvm-gateway_20231220.img\nvm-gateway_20240103.img\nvm-gateway_20240105.img\nvm-gateway_20240128.img\nvm-gateway_20240222.img\nvm-gateway_20240310.img\nvm-gateway_20240314.img\nvm-gateway_20240325.img\nvm-gateway_20240329.img\nvm-gateway_20240406.img\nvm-gateway_20240409.img\nvm-gateway_20240428.img\nvm-gateway_20240525.img\nvm-gateway_20240603.img\nvm-gateway_20240607.img\nvm-gateway_20240610.img\nvm-gateway_20240612.img\nvm-gateway_20240613.img\nvm-gateway_20240626.img\nvm-gateway_20240627.img\nvm-gateway_20240712.img\nvm-gateway_20240804.img\nvm-gateway_20240808.img\nvm-gateway_20240812.img\nvm-gateway_20240817.img\nvm-gateway_20240821.img\nvm-gateway_20240908.img\n'}
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
