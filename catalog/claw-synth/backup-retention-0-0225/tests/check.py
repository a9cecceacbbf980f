#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/old-backups/billing': {'files': {'mono_20230218.bundle': '93a62529b03693e23e0bd283db13fdab2339eec9368aec6bf0050d796e604736', 'mono_20230317.bundle': '25ac0510feff2b8f38d77c86f36b603fa3a4c940bc3c9910088d9ac73f6c4cd3', 'mono_20230405.bundle': '58598ea5e6d7e911e3c368a79a7af993861ec34b08a8acf70fbbe52bd6a1b780', 'mono_20230406.bundle': '2f030a83fd9f4367a22a0256d1fdb6d8c1bd99f307ff646e0186d5730bcc27e7', 'mono_20230420.bundle': '43f134cd083a82c8d26864b3264a064d1c810e8dbf17dc7239e7cede948047b4', 'mono_20230503.bundle': '37ec05e59e9ad98cb2e3f98327748cfeaf4aa015b278e61d346623abd4edf69e', 'mono_20230516.bundle': '2ef59d2bc19e85239422f954d65ed76c13a1a2bfcd10d84ff545b2e4b83f7041', 'mono_20230531.bundle': '710ce2ee8c897b992f80caa9cec9279121577cf0c235eead91c32e4f19ba9278', 'mono_20230611.bundle': '3ea3d00e58c9ded27caa0b62123efcbfed8a72565fa97c03069b2861cff23c73', 'mono_20230615.bundle': '3fa363ebbc49860715c90d981e5548b8fb5c63a37685b3143fc5d922e91598d4', 'mono_20230617.bundle': '468c6a097994f5528297a533406f10ec7f5f3169a0b92b2d09467f2b0461c49f', 'mono_20230622.bundle': '50b8fef14d9e2d0b9f5bc98b0c96a2c63cae41d61f536d91ffff7fb9cbee5a3e', 'mono_20230704.bundle': '429db252ac9dfb531b82b8af0d5b3e9a82cf1d2c68e612bcff24cfa5a27a6c6e', 'mono_20230715.bundle': 'f5361a15cf68eb1a98041d810126c8aab66f0686b0b6e62cb182b28219730a20', 'mono_20230720.bundle': '4568de839f182386a9e6f7303d7d211454aa4b8bb50f85c2bf812bbf6f5a6ae3', 'mono_20230724.bundle': 'b77544ad6583fa477d7045b434a8333f4fad3d811488775525e26f4bd13dc716', 'mono_20230806.bundle': 'ca9a66d53ed1d29b6e83420f9f60d7fcff8a9095f3eb8720777abe21bee3befd', 'mono_20230813.bundle': 'd2a11cb6f126227209935fc2f7b9c8e1232756a1ed7f3d44e3aa3efd5c19d0e8', 'mono_20230822.bundle': 'e7ee03ba6095af1eb56601c0e3637c78db9d2f477658708203f10c81036890f4', 'mono_20230827.bundle': 'a2791d05f18c228f19f24aecb1d815ae6a90b57801564aa5e0bce70363bb21bc', 'mono_20230901.bundle': '2eec184e7a01bfcaaefd0fe365a2a3a462f1f7f0e49dbcc195efe1580dd95e84', 'mono_20230911.bundle': 'e39c12ff110ed2e9730a4b150517e5aedbcc70503e104ce49820712fb8c36b59', 'mono_20231008.bundle': '7dc24d13a3e0b5c65666bb074c2f038752bd617119e2473f95872a3e94b44f51', 'mono_20231017.bundle': 'bd104eaccec8ee903dfbf3ebcc1a62353209585df1fd267d1e3b72a293cbe543', 'mono_20231018.bundle': '03af6d818fc4161a7fa62daf16d207ed77faba92f0d9d6e3b4f1dc0935f941b0', 'mono_20231021.bundle': 'bfaf06b53390da4c9bea4858d4a8f8fa056cc9ff54da83418ed2e173592e8265', 'mono_20231023.bundle': 'c806c0676dfeff285e3d39a129ff2186795abe221c009d67afa3b016abadc387', 'mono_20231024.bundle': '0122c89d39a995e0469863bbb94eaf05a897e7cc41e51444461fa9ecdd58424b', 'mono_20231025.bundle': 'b45106a4d95cfb2b732e4d08f9991d22e0ad6d74e646da733b85ba0dc4697eb9', 'mono_20231030.bundle': '75143b946134c5da9b8695258980decff12151dc3f3724115ef64994cffe5862', 'mono_20231102.bundle': 'dcc0eff440bd0b98e720b22964d2c968fed761c45f7744b873e0276f58aae080', 'mono_20231125.bundle': 'efe7ed744f7c46440e34a09f8aed3596d91cc96195e43d4d31359e3729eade93', 'mono_20231204.bundle': 'ebbf6912ec47ea4eba4abdad09ec8d5c1a6b5a8ca36c887c6e88783f76334271', 'mono_20231219.bundle': '0912b40bb29fc5ce2cf005484817d0d55a68e09ed8869513873b7a5468a2df9a', 'mono_20231226.bundle': 'e9bf89d3cc8907369af6ccfc4e0cd76b03d2151ccf2990ab9fb154c515b388c8', 'mono_20240101.bundle': 'ee1cb732aba9d1a583855532b69493e0fb85f1470f844833fa095bf3041de52f', 'mono_20240103.bundle': '6887eff608c68a365f4bed9c21995633cbcd532339b111566051c79c4ecc0345', 'mono_20240107.bundle': 'bf88728119085936b4fbde7838a721ef12b4ba7246981192d3239d7b3b5f3638', 'mono_20240121.bundle': '93f9e0d0f7e0d0f14dfd753b69d19723bc6ca46c86caae7ccc3c094e1b2ad7b9', 'mono_20240123.bundle': '26101e3d972dc46c104c27ef221dd8ddc6176f4c5d14894398eddec47b4b9ddb'}, 'links': {}, 'dirs': []}, '/app/srv/git/bundles': {'files': {'MONO_20230218.bundle': 'b0e8dadf4c03ddf19ecc33171299d8ef013404d6cf2daeccadf6576d7e79e08b', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'manual/mono_20221127.bundle': 'b573eeadbcebd2f4ec5e1909249e1ff8e341f1700664d634ff5804c4fb29533d', 'mono-old_20230221.bundle': 'c92ec8ae256a525f14f2476ef91fc312201d5ae9d604c513b663103d419076d6', 'mono_20230218.bundle.md5': '3f6ba47789a3467ef2f6d6c8c830adc2d5813f8ea33b9a102f678f88e4087e03', 'mono_20230230.bundle': '87a8884dd2fdc29ea6bbd06efe3b710e49c7d42bd5bb20fc1a867b977acf1b93', 'mono_20230915.bundle': '9650a3eb51423db0779c59d50d8d9ef8159db47729b1745d1216b220ba6cdb62', 'mono_20231031.bundle': '290056510e3678da54dae41143ee7de8bd9090078a2c88cf3fb1ae6876d99663', 'mono_20231128.bundle': '69a236b3245e9c59544bf4b59b2c8c69d6bcdc88218279faf3d31dd8c033bfd4', 'mono_20231229.bundle': 'be1508a4330f42278d2cf3f101e4ef56457f33e32b7ede82bf56fc22ff2c9add', 'mono_20240128.bundle': '7a74e70b3233e0440362a288e59ac570fabc4b6c90a441eacc51e595cccf89b8', 'mono_20240206.bundle': '82dd57088be32ffc03eef83bb69fbf22cdec06d068a222998a446219ebd7515c', 'mono_20240213.bundle': '4a62409e5bb0b9064432666f3935e2ad76fb02dab8121cf464460288c1608ad1', 'mono_20240218.bundle': 'ba344d087643c59f032b30844e2bb74d2ee132eaa0c86291e1033dd7644b32ed', 'mono_20240219.bundle': 'd700c8ab46f7c3ef748cd1d9a1bbd68b159bf08504f8a13e8a6422fc2e50d37c', 'mono_20240220.bundle': '82f9fa3c4251e9a7e184236fb9d7631705bb1a17d84e4b053c39cf184179f3ff', 'mono_230218.bundle': 'c00ba4373eb4b347763266b1907be6905f39391a00bccfeb5be2ba021765b326'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/expired.txt': 'mono_20230218.bundle\nmono_20230317.bundle\nmono_20230405.bundle\nmono_20230406.bundle\nmono_20230420.bundle\nmono_20230503.bundle\nmono_20230516.bundle\nmono_20230531.bundle\nmono_20230611.bundle\nmono_20230615.bundle\nmono_20230617.bundle\nmono_20230622.bundle\nmono_20230704.bundle\nmono_20230715.bundle\nmono_20230720.bundle\nmono_20230724.bundle\nmono_20230806.bundle\nmono_20230813.bundle\nmono_20230822.bundle\nmono_20230827.bundle\nmono_20230901.bundle\nmono_20230911.bundle\nmono_20231008.bundle\nmono_20231017.bundle\nmono_20231018.bundle\nmono_20231021.bundle\nmono_20231023.bundle\nmono_20231024.bundle\nmono_20231025.bundle\nmono_20231030.bundle\nmono_20231102.bundle\nmono_20231125.bundle\nmono_20231204.bundle\nmono_20231219.bundle\nmono_20231226.bundle\nmono_20240101.bundle\nmono_20240103.bundle\nmono_20240107.bundle\nmono_20240121.bundle\nmono_20240123.bundle\n'}
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
