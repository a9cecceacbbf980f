#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/photo-backups': {'files': {'LIBRARY.20240604-1140.tar': 'b5bce24a8dc467ecb2b4ddfaad7ad02305cd63266ae050263b02377ff89ddc51', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'archive/library.20240418-0000.tar': '8a25d96bd6c304a3457291dac74603a11a54677c67b99cf75aa34b919e5100bc', 'camera.20240612-1935.tar': '224cc5760eb1d25face43f211f8300d2aeab4cae755e0f216124494779aea605', 'camera.20240626-0850.tar': 'f7fe870c9a6e271fb507aa4f32dd993210ce89d90722c662b4acc2bfdd5c18b6', 'camera.20240626-2010.tar': '94177bb317e39d186e255b97fd26031c3fa8d5a4257110907886e207ba294e65', 'camera.20240701-0955.tar': 'c08857ffa07a1026868d554acdc9b7e59366f11914af27b855ae6be84da09e54', 'camera.20240702-1545.tar': 'dfc185ff329d1ecbdffaf2f7243efba0de12a019c7b459eab1a659793e5a8372', 'camera.20240705-0810.tar': 'cc67dcdaa46b023c236d7bf11fd0eab1c8883946f29ed4e8ff8d3ef5cccbba38', 'camera.20240705-2240.tar': 'eff8da53a9b6d38a61a94dbf82675822178e4daa6bb70a7ca185f36691c7ed77', 'camera.20240706-0445.tar': '7b26a4083bb2a76da8eaab8d82325bca781f33b4d58a297a17f0b276ad180e0f', 'camera.20240707-0130.tar': '68f871cc00192b7dffccac36e5d3eceed9b6f2164e121bec0d745405723301cf', 'camera.20240708-0505.tar': '41be8b120be1ada13f8fdd8546265f9afef1d6ebe165237e8775a6e55a648b0b', 'camera.20240708-1905.tar': '7121161f9df90c0df2eb4caad756e48b6778db8f66862304b5d159d57028efc8', 'camera.20240711-1835.tar': '7e72171e34bdab339d4f1d7f9ba210da1c5d35bcacad03b01804d5928ef686e0', 'camera.20240712-0950.tar': '4b6f5aab5f14bd1900b35c434cb6e103bdd952358a11e206345d9efc6a7c3f3d', 'camera.20240712-1010.tar': '9daa0e4099d0036bfc7ac8563f2c5f8f34b0611a178fdeac2d6fdcb067a00642', 'camera.20240712-1205.tar': 'cbfe1b565fa3e759cd598ef7ab95ada9730f08177bee35820274bbed6eeed272', 'camera.20240712-1410.tar': '07dde6fbf7c649ac19943c9ba97373c3569994183cf50b78d27813445a334dc0', 'camera.20240712-1645.tar': 'd20f3b185512a45643f9d4e81bdb83169c3810fea5ccac90cd5ce15cf0847350', 'camera.20240712-1920.tar': 'dccdc4c013ae59d29562a9e49e57a005fdc15a74cf608de011ba5e21e715f322', 'camera.20240713-0610.tar': '15f37be4f4a5a50e33261d48ac2925255ca2c51b85ee3c8af7b9beee7187cb25', 'camera.20240713-2115.tar': 'f7026c2f8f86206496fb9ea82f16aca494a07be72b5f917557b9af0c54f1c0c3', 'camera.20240714-0330.tar': 'd3c83cf11690f826287d4edf54bc5a0d9e011621ea6686df76adfe6cd1a56cdd', 'camera.20240716-1625.tar': '16f3652f7e02025b5aaa723c3b38dc2bc4ac18a5272c8c677000d25c42fe7120', 'camera.20240716-1645.tar': 'ebb42ae8e92d4ff90fbc80a8345eda666373db3d190e706f458f41c6ebc497f5', 'camera.20240716-1700.tar': '94079682a91e2487dbe7eebbcbc5fa65f7e35d5105dfb044aef5ded74eff096d', 'camera.20240717-0615.tar': '80f4970b291843fed1a7a93fac80f44308b4a3a6548ae8086a63102e64febf62', 'camera.20240717-1040.tar': '4d2ee060066a200f4f37f99d016b0738643d1acdd03de0ac588b44fbaaebe9f0', 'camera.20240717-1935.tar': '2c23b0798a1a0a102510384488040023ffb5a7c7b7c664f9a93db51229110da1', 'library.20240604-1140.tar': 'fd42114bc9221225a49be12a9aa7f5ba8080cd74a0d499c913e8fbfa44fb2417', 'library.20240604-1140.tar.partial': 'ccce47d30cd70701ad32c9efeb919e61ab535ffb84fea3d031eaaa67b9e0951e', 'library.20240612-0730.tar': 'aaef63a54c7465ad3076018f14165da42b6d5232e45e121a6db8252681bb2921', 'library.20240612-1800.tar': '363380f07d4dd37b357461c0923d2ab2f213f909f6ec06a78c26cd238e00cb40', 'library.20240615-0205.tar': 'fd099fb26f7da795f335cc3cf589441828fc51dbca345c1a8c9823d8e8bc7e88', 'library.20240615-2205.tar': '6a3ab6188936503dadb72b1ff1b062c590b0867d4470ca89a0838101a4a0e03c', 'library.20240618-1920.tar': '4ce1122301707d58ccbe3f6f6e98ab55a4c218971897fbf956144c53cec927d5', 'library.20240626-0950.tar': 'b7c2606ae5fd711c56468065cb3c2a99d837bd5822dec49799f912f6cdc3b7d4', 'library.20240626-1015.tar': '2c1300509d0aa19d3d5edd6d4238000e3bbec11f2f6d7d523eb13391a3434170', 'library.20240626-1620.tar': '93bf752968188021b42245804ccf20b012ea3c96d827b44e3a81b2da694123d1', 'library.20240627-0410.tar': '5521d6f6f0b339e43825cdfe3487c6cf9e1428d934354147a1a02b47e944892c', 'library.20240628-2020.tar': '64c4387698cfbb20cd0d861ad5a51f17901796f1bef35e52602570293fb7938d', 'library.20240628-2155.tar': 'c82390536bfea8febbb8135abecb2b0c9ae0263c8c0861cfeb296ac49578bdc4', 'library.20240704-1420.tar': '3768cc456022a23414a7bedc86efd9ad4391936a3b2a2bf2a6848975dbeff137', 'library.20240706-2125.tar': '6240de51fc5c885ffd61c45a3d9b45660d96be88fb6863f2c4bb8d5be434998e', 'library.20240708-2200.tar': '2d1e278d8f5e2f19c4ea321ad31c5d37f15dc12780d5bd945e8a38476ebe8573', 'library.20240709-0345.tar': '98a40115c735a24e7ab708c281548e297f0acce98a3f54e1bd777c3fecac8d0b', 'library.20240709-0705.tar': '7f5599d47dffe2c941997f8539573b8d91e57ece48505a3b1aeb068a0b2f4c9e', 'library.20240709-1505.tar': '2b2bd04d2e95a55678f6973ca7ddd0614a40d6b4aea61526c04a0a82c979af33', 'library.20240713-0735.tar': '01be6bab68861230bdbf13f388062e55d1fb969a9e7c446b950565b554ee4cd4', 'library.20240713-0820.tar': 'ad47eb21942b49d78b5c9082deb815520995062cce80cec05610d0447c8084fa', 'library.20240714-0840.tar': 'e20605a4b5da2318386849c0e93e96c8864e95ad3f830ab08187a085cd59f29e', 'library.20240714-2245.tar': 'a0f2c0a6f8b48e9a5460eb6fa4a0ab2d728e15e9e78b6419883eb27555941b82', 'library.20240715-1005.tar': '996efe5418de7879c225265de7375543a24b6e7411452c00f8dfef1c0cff8304', 'library.20240715-1915.tar': '2ee9a59b5a229d348797266c8d4161cac8ca4c28bf79f51c9f4c09310bfdf5da', 'library.20240716-2235.tar': '85c2198ddc7e35657297d8fff82b6377504ac7c07e4e01e75e19819aa7d644d5', 'library.20240717-0715.tar': 'b72ac8db665990a187feaba0f161c2c96df8b752f180f47c5c2df64210df61e8', 'library.240604-1140.tar': '58d53af08b13c943e7345deb75b670fc4cb268f4bd7e363e71e68bc0bcce063c', 'photos.20240606-1140.tar': 'dba7d92445c54de8c7ae916ca3cfa25a7e29debc5d21d3a8e71057ffd679e1fe', 'photos.20240606-2210.tar': '17eb14fec9e0ec3e67f0a697169c6fd5ebe571cc5efad9102b437c7666be1ed3', 'photos.20240607-1810.tar': 'dac4cd2ddad0353268f4c9ba5319b140b3494a00406c45e5139d4418baaebc5a', 'photos.20240610-0845.tar': 'e57db33e5657f2b2e56ac3417c3997e505247a5b1613cd7ffbf9cf104bc078d0', 'photos.20240620-2235.tar': '8bad82aaed59f4ee4758ad0890cf07cccc734f017bcc280fb2e85ea74f0b57d1', 'photos.20240621-0740.tar': '3d9571efd94bfe5d1817d0c833e36289e92dc77b7dcdb0f7269fc17f93692424', 'photos.20240621-1155.tar': 'b5032b1a0512c2f70a89375d95a36fc60d00a2a97a818934682f21b20e2fcfe7', 'photos.20240626-1825.tar': '61e3cdb18c389a3d31217eef71ebeafa5b157a3bc53db4126e8f9b4e7c08bef5', 'photos.20240629-0225.tar': '4e3ec16dd8663d9898b4146d91c3fb578a5f2799a94020313955e2441b7a0e63', 'photos.20240629-1445.tar': '4598ec5c5f60f7cc36075e8052f847d0afab1c28c0d9c069f701c0cb7050297b', 'photos.20240629-1820.tar': '71c3089017c0dc69f7665c912021c125ef5f1eb6fa0667dc3219588a8a050f96', 'photos.20240701-0310.tar': 'ef9ff6d9717c0f556672cf7a5de82930f8306c82d2c4b3eb438a4b8fab87ca20', 'photos.20240701-0505.tar': '86e8b05535160d8e0ede0fdd6a4310ef784566459199660aaca96e940ca683d0', 'photos.20240701-1535.tar': '7d930a1c076ed287b0241fe97788f87b4edddcfa608d676d427f9adf9df108a6', 'photos.20240703-0240.tar': 'd41759652e1e008fca40ab73d9e8684f5d7b29ea5f263300d3493001ee756b90', 'photos.20240706-2105.tar': '11379dfe7e34ac31592fbb5c066c50d563f4621025acd6266f560a49dced05ed', 'photos.20240707-0510.tar': '4714965d71af79974a44690072e33b15132099c864e8bc18f3654c0ae786ac29', 'photos.20240707-1540.tar': '4eb7563499462581a3ea57adf156922456ba9851c41dfdafd20c6e79ee2b0d0f', 'photos.20240707-2135.tar': '29f4f414dc8968ae287790ba0bd92b21f7731ea41a95bb846c6374c2b04d80dd', 'photos.20240707-2155.tar': '0a1202f139908f544bd9a880aed7fdef586116f91930a1fa73519072ae6b16f0', 'photos.20240709-0005.tar': 'd2f7716eec80426e8984f51f38af2e0e7727eb8f1af885220078f261e90db910', 'photos.20240710-0705.tar': '29148acfce38bf68b4054ce69ef5e693c29fa66a1bbcf9da3b822d3279d03b01', 'photos.20240714-0815.tar': '11b10a1a486cb85f831459f07857525879e24373a58d75d0934ba97edbb0651b', 'photos.20240715-1750.tar': '9921d5193aea9a4096f60a770d9014be791e2aaad240ea63768a77b0004a968e', 'photos.20240715-2200.tar': 'd6fd7c24d197192786af76fb1deb98033cf8cdbd6759850a7f78ddddcc98e39f', 'photos.20240717-1255.tar': '598908b06256586a7ee64c3d94763f702c2f9bb2924a9d4098513453d9dbd4cd'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/retention-plan.csv': 'name,action\ncamera.20240612-1935.tar,delete\ncamera.20240626-0850.tar,delete\ncamera.20240626-2010.tar,delete\ncamera.20240701-0955.tar,delete\ncamera.20240702-1545.tar,delete\ncamera.20240705-0810.tar,delete\ncamera.20240705-2240.tar,delete\ncamera.20240706-0445.tar,delete\ncamera.20240707-0130.tar,delete\ncamera.20240708-0505.tar,delete\ncamera.20240708-1905.tar,delete\ncamera.20240711-1835.tar,delete\ncamera.20240712-0950.tar,delete\ncamera.20240712-1010.tar,delete\ncamera.20240712-1205.tar,delete\ncamera.20240712-1410.tar,delete\ncamera.20240712-1645.tar,delete\ncamera.20240712-1920.tar,delete\ncamera.20240713-0610.tar,delete\ncamera.20240713-2115.tar,delete\ncamera.20240714-0330.tar,delete\ncamera.20240716-1625.tar,delete\ncamera.20240716-1645.tar,delete\ncamera.20240716-1700.tar,delete\ncamera.20240717-0615.tar,delete\ncamera.20240717-1040.tar,keep\ncamera.20240717-1935.tar,keep\nlibrary.20240604-1140.tar,delete\nlibrary.20240612-0730.tar,delete\nlibrary.20240612-1800.tar,delete\nlibrary.20240615-0205.tar,delete\nlibrary.20240615-2205.tar,delete\nlibrary.20240618-1920.tar,delete\nlibrary.20240626-0950.tar,delete\nlibrary.20240626-1015.tar,delete\nlibrary.20240626-1620.tar,delete\nlibrary.20240627-0410.tar,delete\nlibrary.20240628-2020.tar,delete\nlibrary.20240628-2155.tar,delete\nlibrary.20240704-1420.tar,delete\nlibrary.20240706-2125.tar,delete\nlibrary.20240708-2200.tar,delete\nlibrary.20240709-0345.tar,delete\nlibrary.20240709-0705.tar,delete\nlibrary.20240709-1505.tar,delete\nlibrary.20240713-0735.tar,delete\nlibrary.20240713-0820.tar,delete\nlibrary.20240714-0840.tar,delete\nlibrary.20240714-2245.tar,keep\nlibrary.20240715-1005.tar,keep\nlibrary.20240715-1915.tar,keep\nlibrary.20240716-2235.tar,keep\nlibrary.20240717-0715.tar,keep\nphotos.20240606-1140.tar,delete\nphotos.20240606-2210.tar,delete\nphotos.20240607-1810.tar,delete\nphotos.20240610-0845.tar,delete\nphotos.20240620-2235.tar,delete\nphotos.20240621-0740.tar,delete\nphotos.20240621-1155.tar,delete\nphotos.20240626-1825.tar,delete\nphotos.20240629-0225.tar,delete\nphotos.20240629-1445.tar,delete\nphotos.20240629-1820.tar,delete\nphotos.20240701-0310.tar,delete\nphotos.20240701-0505.tar,delete\nphotos.20240701-1535.tar,delete\nphotos.20240703-0240.tar,delete\nphotos.20240706-2105.tar,delete\nphotos.20240707-0510.tar,delete\nphotos.20240707-1540.tar,delete\nphotos.20240707-2135.tar,delete\nphotos.20240707-2155.tar,delete\nphotos.20240709-0005.tar,delete\nphotos.20240710-0705.tar,delete\nphotos.20240714-0815.tar,keep\nphotos.20240715-1750.tar,keep\nphotos.20240715-2200.tar,keep\nphotos.20240717-1255.tar,keep\n'}
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
