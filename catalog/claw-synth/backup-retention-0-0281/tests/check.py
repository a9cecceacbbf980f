#!/usr/bin/env python3
"""Hidden verifier: each tree exactly (paths, content hashes, symlinks, folders), then the output files."""
import hashlib
import json
import os
import sys

TREES = {'/app/old-backups/inventory': {'files': {'db-2024-05-04.sql.gz': '50dd3a398366ad516438b45dd8ac0b52a007d11b37f92ccae7c2e80d26131bf0', 'db-2024-05-07.sql.gz': 'ba1cd183a3c982dceac8abcadfdc2cd412508db22d77850a21598a195b7b63f3', 'db-2024-05-11.sql.gz': '49bed351b22cb9d1c319106dfc07e1dacaa37f3eaf2dc3a139362c5a47c6b478', 'db-2024-05-13.sql.gz': '287eaee95708eba00e8be23c0a95ee7e3619d330963cf82ee37b2f613d5447a1', 'db-2024-05-14.sql.gz': 'd5ad5954c31033dec27efa97e02a41c784c7b4075366af054f7c98a0912224f6', 'db-2024-05-15.sql.gz': '8af875bacdfa01d0b9c156f6887e3c105014afaeb490f22eec1c3c4b59df36c3', 'db-2024-05-18.sql.gz': '00ee8d1c7ff65eb15294265eef93952628aa89cf22dccf1a3b6f68cf16116525', 'db-2024-05-19.sql.gz': 'f85289fdfe67f6d9bf48a92a107766e0a752f7ff708c6ffb042e5f61834b2d51', 'db-2024-05-20.sql.gz': '459b64e078a1013fbdc7a3919c0abc37b4a3f6d461270e057c1eb01c40626bab', 'db-2024-05-21.sql.gz': '0ec32db1c6fec6cd381a84267ce1d63edd4a566e766cfa1810b1bccfa8c095de', 'db-2024-05-24.sql.gz': '1f19109b1c4a89c0d6ee6f557ea458765ac7ff352159c9fd6cb03ff1c0da57a5', 'db-2024-05-25.sql.gz': '985d5ed98152c0556d59c00eb52a333174d3ff04c9cd449706d0c085f8fa6322', 'db-2024-05-26.sql.gz': '1a25129c9f5fbecec121259399a121ea5da1ee6d3f4e947a1b784d63205f57d5', 'db-2024-05-27.sql.gz': 'e0e7403df2f47e437370feb83235832a428120164d0ae3789178f27accc3d36c', 'db-2024-05-28.sql.gz': '0f4935c51018be66b30ed125bb85d9fbc8362ef41928f4b7cb9f4b1b719f1ff5', 'db-2024-05-31.sql.gz': '79fe5e8d14d1413add29b5d747894cc2613f330eb47a7fd0837fd3f4ba4b9cae', 'db-2024-06-01.sql.gz': 'd324ea0c137f50396e29959484d9822227f1b775b9646baa21555255f6af893c', 'db-2024-06-02.sql.gz': '1ccb9993c108094294eb0bc5550c4e098530b2f118c6bebf8b3dce3068826173', 'db-2024-06-03.sql.gz': '7e0db35152fc518cf66c02361807f4c37bd36cc956dff5b7ca792abcd9d75a3f', 'db-2024-06-04.sql.gz': '0cfecd99f8ea64525e7f25869ba8dfa45335cd13cdb7fde41b5f663935dee75f', 'db-2024-06-06.sql.gz': 'ef98c563d683109d71eefe614c62aa67533b1af13ff34c1d583c037818fc41da', 'db-2024-06-07.sql.gz': '8146e3994129370af6f36f4c20fbf3cd4fea32f128d883727fb3c8aaf2622130', 'db-2024-06-08.sql.gz': '882802e935f545fde1f673b9b5e49eb8d826c123624fc341da14ce15d6b23231', 'db-2024-06-10.sql.gz': '8b3c5acaf99476491a26b66c7518d5d9ecad86506e7e9352621dcdb6da9aea24', 'db-2024-06-11.sql.gz': '265c5367c916b36ba6e47acc213f770113567554fb6ba275ac0e381ca1caa501', 'db-2024-06-13.sql.gz': '2b767fdbcf30b49affdb4d55d0ffe9132121086ec92c16188400b2571af69627', 'db-2024-06-14.sql.gz': 'c3bce22732ed68164d2ba30e8bae74dd2e3a515c724b519cc3b56d32e983bd17', 'db-2024-06-15.sql.gz': 'bf5f99e3acad258bc5bb6dedd6725ef78d0e5960238c8f5faacc89be0ea40bfa', 'db-2024-06-16.sql.gz': 'b806cfc16161aff3514ef2ba5fc8528e566d55b25ce0d7b49d6980bf9fc00c43', 'mysql-2024-04-28.sql.gz': 'f2b26773087689b574693cc44116197413b59dd2911f774b562f6b863d118546', 'mysql-2024-04-29.sql.gz': '6266b8ba587506854bd3248a4a21dd6244a43e50c54dd619a6911cf5222f7a8a', 'mysql-2024-05-02.sql.gz': 'c096046580868c11f40a4e54311d5dd356c61590aa8b85d15ed2d2989690f617', 'mysql-2024-05-03.sql.gz': 'd8f775e0826eca1bad220bcb9cdf034617d96a89523dc32bb50a5fc2c436ad3d', 'mysql-2024-05-08.sql.gz': 'e82ce425670b500787826e34b2c2dbf4b91835074976c895621e94e04bcf3043', 'mysql-2024-05-11.sql.gz': '83ec2e28e2084201a880722caa19287ab0526ed948d3dd50bfd168b52f2bfe1d', 'mysql-2024-05-12.sql.gz': '9830e21d840e74bfec11686bf1c0431c42c89b8fff2049d3b0b16f2a797e3eb2', 'mysql-2024-05-13.sql.gz': '91b62acbab00048cb45acb5510f809de817e0c7e1b1ca13c304c74048c4d7be6', 'mysql-2024-05-15.sql.gz': '1c8e86663b71eaa283111169e0d285d87c9dfb2459e6340874a4ad7ffc9ed603', 'mysql-2024-05-17.sql.gz': '9fb85083777d25d4aefce8efbbdaaadc48fd6bdf5d79c18b0731fdd53b0e9ca4', 'mysql-2024-05-18.sql.gz': '631deb7555982a148f639dee48c214003acf59112dca616082da4baebd9d14ab', 'mysql-2024-05-19.sql.gz': 'ff1136d1b733454daa7e3e104cb5d861dd47567eb7a6e117bf97debdadb961de', 'mysql-2024-05-20.sql.gz': '81ea55f97ef462babc83db28e0cf1c46c1f245b837c70e96df9451194a08c471', 'mysql-2024-05-21.sql.gz': 'b67afc3842ede540090c36fdd40d3bde4a06a602ee84763e28f875fef3e14fa9', 'mysql-2024-05-25.sql.gz': 'ac6864e6e33b2f7082b93dec3f94157bacc5130506e136b47830614494d4b1d2', 'mysql-2024-05-28.sql.gz': 'a2875aab7fce6c33e15e1096454c4c1fe1afa5df69d05f6b7f56fec981f3305a', 'mysql-2024-05-30.sql.gz': 'ffec1fbb63f90a20f4fd28cc5aa98772524f740ce2042a7ba5a7bd9a53988b7f', 'mysql-2024-05-31.sql.gz': '88231f091aa204696099fcddff78726f7bb39ee81221b3917d25b23d6d8feb53', 'mysql-2024-06-01.sql.gz': 'a86474492a478d5fb777c4221a4013f400ed6ec966691863966d8caaff23dbed', 'mysql-2024-06-02.sql.gz': '6a5d594212e2fc3249e4bdfbe0abf7cb8fd52c62d8bb9921dc47201350e8cf07', 'mysql-2024-06-04.sql.gz': 'e3a928e862b2186ee1eb190730e057982df6f45d56e86da414c63284976cafd4', 'mysql-2024-06-05.sql.gz': '1b021d1397735415c8ff028ed6848b515a5536503592fef1a87194d2dd18d313', 'mysql-2024-06-09.sql.gz': '99b8d6ae3e7e86e6b8bf61a8280dfb8e02f397c46518dd678dfa4baea9cb5a6a', 'mysql-2024-06-10.sql.gz': '82617b79ab03c5e3517d3aeb252c9bcf68db57e178ffd453bc630c896ea6862e', 'mysql-2024-06-11.sql.gz': 'f2e02444399c0171d70c89ea953309195aaa5d58abce0088cf53b32b4d172f9c', 'mysql-2024-06-13.sql.gz': '1a1edfa592d82a242bf8dc5543a1d6c1268c1d74ddb1b7b8059ce1f9a36ecb69', 'mysql-2024-06-14.sql.gz': 'bebb17c788dedcfd9bec898b8bc8b49ffa39d4bb92aba7ca3da8ef0197eb178b', 'mysql-2024-06-15.sql.gz': '96b046ff110e8834a4dfb18c5a405ee58008f5e169d4a71c4d5fbeba56a70f5d', 'mysql-2024-06-16.sql.gz': '9460fe320a621c897e341e5fab478dc29239024a6a953dd4ef857b40183ba48c', 'mysql-2024-06-18.sql.gz': '88f4fcf06edea6db9d93d86044a5beb6b4677f2b7a7dd0be4a06c9fd431a4061', 'pg-2024-05-04.sql.gz': 'ec9f512a1cdd085d3791301a936887b61fb04f02675a75423c59b68bc74c103e', 'pg-2024-05-05.sql.gz': '6c5ab434a3690556037b4708b1fdc9dba68d61b9538b8aaca67bfc9cffd0214f', 'pg-2024-05-07.sql.gz': 'd4065c65e0f7e1e415253ba8b7f5583747bec8a7b201af0ddca00bfae9d670b7', 'pg-2024-05-10.sql.gz': '08dbc3b8975a6722a9360f8126671d98e1f542aab4abe3a0482028634040e339', 'pg-2024-05-11.sql.gz': '0c6b51044055b3dd2b849fbd9bad6b3f0079b23b3748ec746da2ab5b59dc99e1', 'pg-2024-05-13.sql.gz': '51807c284cddf63bc18dfcc12bb381af28a702f42fc6e630af1e2939efed5781', 'pg-2024-05-15.sql.gz': 'f638105a2a06b710c91979f9bfaff2ffaa2c49f4287a5f4955acdfcf50d941d4', 'pg-2024-05-17.sql.gz': '3f2f53c38f4f8b610a8f796df4c1b184ee96723446eeb9be132eff2cf38568f9', 'pg-2024-05-18.sql.gz': '5a4961968fff61299b42dd4477d9e76f95a01b8d722d1b98dabaf19a65d2fde8', 'pg-2024-05-19.sql.gz': 'a655bbae5a806b965ed0b77143487fc4b434a11368b8e679f887f41ee39f67e3', 'pg-2024-05-22.sql.gz': '0a988a38f5c0fbec93837a453a28c7fdddd90d45c62941c8f03182765ce3ce66', 'pg-2024-05-23.sql.gz': '7ef570053111caeda71b91f6ba8f750d1f9cbbc2db8d8b8bbb0e860354e3e046', 'pg-2024-05-25.sql.gz': '0db20547787d9eaad07cc90e57097d2c84b5fc74a584c7039c7887257b8788a7', 'pg-2024-05-27.sql.gz': '7150062a884cc2699cc72b8d5fea5f27d5f94e6d216638fb0abbe96c6eabb0c5', 'pg-2024-06-01.sql.gz': '70264f6ae988517b41985e9f8e75f2d540204680f732206bf3fda898384d8876', 'pg-2024-06-02.sql.gz': '79ba6b360c2b7e70a32245bced120a82c5999f9bd9f42940826dc718dc27eebf', 'pg-2024-06-03.sql.gz': '10e1a80f394e02e1be1a2a8b9a6d0b29d886ba5b5038ed82622dd351c8166f48', 'pg-2024-06-04.sql.gz': '2c9a3e6ffc82b9f14e904341d71a7f50902d60b9098e9f3acb6de0861bd9a618', 'pg-2024-06-05.sql.gz': '0f78858d4c8b799c98e2b2fee6d8779a917be26246e293e5dea62bb3a6f70c71', 'pg-2024-06-06.sql.gz': '220cfa43ac817ec4d6cda7ccd7a61f34c79e20e948c7e92b49ae740da8e595f4', 'pg-2024-06-08.sql.gz': 'f0b04f6db65d2c4c11fc2d5cd3efaf8a94f6651f3f5001dce40a86f033cd0866', 'pg-2024-06-09.sql.gz': '82a776b1511e2f341a1c586393c543acab170ad54a1ee7281fef9a0f51fefd8e', 'pg-2024-06-10.sql.gz': '8facff67c391bbc488a584b4b5804bdf8868038136d6cb379f4fb7a87e1a8b22', 'pg-2024-06-11.sql.gz': '6a82b39301cea49467581769d6da21deded52c08deae7fbfe628dcf1c5a4f003', 'pg-2024-06-12.sql.gz': '3619e0e8ee7337f0ebacd920e283980ec6b6b670fec9369378828b6321c1c75a', 'pg-2024-06-14.sql.gz': '3cbce98f11bd60f7b2bcb68d72dd74ba6997fa2be349e8267528384421ec24ac', 'pg-2024-06-15.sql.gz': '61894454316813eac8dff26db8ca087a34e1b554520f759af26959909610acf0', 'pg-2024-06-16.sql.gz': '1b508db2d3651b35a13610c571c409c45f5e31b4df0f6478532bc9462b5989e7'}, 'links': {}, 'dirs': []}, '/app/db-dumps': {'files': {'MYSQL-2024-04-28.sql.gz': 'de27a286a854adf845dedb46894157d600928f7f256909a3784799ea39ec8503', 'README.txt': 'a7c91852a3312bef2a936c3b19b7eb63b6688a05b18daf2b912c3e5bbc5c1e21', 'db-2024-06-17.sql.gz': '2452952dde2342dd9977a96607c0b9ac1953e0372dc802503dec3d3895351edd', 'db-2024-06-18.sql.gz': 'a3385bb060a91f08cafaadbaadeaa55c4881d0558359ed309e1573f22a66eff5', 'db-2024-06-19.sql.gz': '50e68268e34b399e7cdcb165016129477b6f7b98600033ff9b4754738c487404', 'db-2024-06-20.sql.gz': '3c8fb9cbabec4b6a18396c54caa64bc309ede84b82f2bbc63978e06f38182a16', 'db-2024-06-22.sql.gz': '70333e1d3258fd687e8c848b116fdc924231e5535d0179cf9cf1022b9bcd043c', 'db-2024-06-23.sql.gz': '1f60183d5626b0a35db048a4be745bc56ffc19d05392612ab13ad7dc835eaa9a', 'db-2024-06-24.sql.gz': '6c2a90ff0268b92f0f076d8b7901464b9f34be48e87e815c96d8128b86758e36', 'keep-forever/mysql-2024-03-26.sql.gz': 'ee9dae0a4d7176b67bf84e4899d42c653a07a74c085d87183a8e01a23b6d40c6', 'mysql-2024-02-30.sql.gz': '46a8dcf6ed1a2f97428bed0cef67018c89adff8383231bc385d912aca2d2f575', 'mysql-2024-04-28.sql.gz.md5': 'bca37ad5d2054b724e4a9b19cce2d2843354dcaaff08320c001a54349f1ec848', 'mysql-2024-06-19.sql.gz': '49f53ca154cb95e4a8a258a6de1a89a02b4a2fd79c872e078d25fc611a135be7', 'mysql-2024-06-20.sql.gz': '1091fad6c34dd118e75b8ffbc59aaf56eb78a05657f6d23135d52ab5edcb9656', 'mysql-2024-06-21.sql.gz': 'e32210ff97524f889248959674e5db37f67f1cb22cf109854d7d43b494c0d7af', 'mysql-2024-06-22.sql.gz': 'd65ac48b351293085f42240ce4d2d1a3654550554d24941ac4f6b144d93b92da', 'mysql-2024-06-23.sql.gz': '157ef7bc3489d96c2cfed5fce8801f031dbd6b5c1dc57b2a6d88ee7d64438752', 'mysql-2024-06-24.sql.gz': '5c1beb0b8aae5e9158aea474bc8981d0b76ecfa4ed6acff5ac7e88e68727bfbb', 'mysql-2024-13-28.sql.gz': '2cb9a557cc72b53bc26ff92e2fdca2270dbd42051411fc6ba51cd68cd8215b22', 'mysql-24-04-28.sql.gz': '8b48ba3ded40a414b944fd36366193ce825b7803511bf85c03bfd957a5e2fe41', 'mysql-old-2024-05-01.sql.gz': '1fe1e528ed19902bc1159b17664115031cb6f43b2b12c558f1428237a14ef9ea', 'pg-2024-06-17.sql.gz': '1db39a21a9786fbcfeea542a55f6e0a24fe53f47eb31abba933dce414c9a5322', 'pg-2024-06-18.sql.gz': '65075f9382ebcc897b89fcaed70c48b41af3d11cf8938643ffb05c52497decf9', 'pg-2024-06-19.sql.gz': '7a089ea067508f982b8f88fbdd186c94e49ca058642ef47ab99493364fa1c9ca', 'pg-2024-06-20.sql.gz': '6c1808a2fa4340090c4abcfddedbd9a88bb6b6f2c262c9323b73e68ba5d6bdad', 'pg-2024-06-21.sql.gz': '69dcdedad0175a48b6b38e795bc69b9ebf529d8732b0b37f405becd1e1850576', 'pg-2024-06-22.sql.gz': '29dd353ab0fa07c1d98ef2ef0b314661854f0e0a7d55a496d30e080192cacc76', 'pg-2024-06-23.sql.gz': '9e16b83ebaada6a0385e55d5877d53c7a0c6983064d66cabd29702dc5f627783', 'pg-2024-06-24.sql.gz': '4ef03b1ea14978a0c1cc516943c7ed3c070fa12f9d34e63821565d3e99579cf1'}, 'links': {}, 'dirs': None}}
TEXTS = {'/app/expired.txt': 'db-2024-05-04.sql.gz\ndb-2024-05-07.sql.gz\ndb-2024-05-11.sql.gz\ndb-2024-05-13.sql.gz\ndb-2024-05-14.sql.gz\ndb-2024-05-15.sql.gz\ndb-2024-05-18.sql.gz\ndb-2024-05-19.sql.gz\ndb-2024-05-20.sql.gz\ndb-2024-05-21.sql.gz\ndb-2024-05-24.sql.gz\ndb-2024-05-25.sql.gz\ndb-2024-05-26.sql.gz\ndb-2024-05-27.sql.gz\ndb-2024-05-28.sql.gz\ndb-2024-05-31.sql.gz\ndb-2024-06-01.sql.gz\ndb-2024-06-02.sql.gz\ndb-2024-06-03.sql.gz\ndb-2024-06-04.sql.gz\ndb-2024-06-06.sql.gz\ndb-2024-06-07.sql.gz\ndb-2024-06-08.sql.gz\ndb-2024-06-10.sql.gz\ndb-2024-06-11.sql.gz\ndb-2024-06-13.sql.gz\ndb-2024-06-14.sql.gz\ndb-2024-06-15.sql.gz\ndb-2024-06-16.sql.gz\nmysql-2024-04-28.sql.gz\nmysql-2024-04-29.sql.gz\nmysql-2024-05-02.sql.gz\nmysql-2024-05-03.sql.gz\nmysql-2024-05-08.sql.gz\nmysql-2024-05-11.sql.gz\nmysql-2024-05-12.sql.gz\nmysql-2024-05-13.sql.gz\nmysql-2024-05-15.sql.gz\nmysql-2024-05-17.sql.gz\nmysql-2024-05-18.sql.gz\nmysql-2024-05-19.sql.gz\nmysql-2024-05-20.sql.gz\nmysql-2024-05-21.sql.gz\nmysql-2024-05-25.sql.gz\nmysql-2024-05-28.sql.gz\nmysql-2024-05-30.sql.gz\nmysql-2024-05-31.sql.gz\nmysql-2024-06-01.sql.gz\nmysql-2024-06-02.sql.gz\nmysql-2024-06-04.sql.gz\nmysql-2024-06-05.sql.gz\nmysql-2024-06-09.sql.gz\nmysql-2024-06-10.sql.gz\nmysql-2024-06-11.sql.gz\nmysql-2024-06-13.sql.gz\nmysql-2024-06-14.sql.gz\nmysql-2024-06-15.sql.gz\nmysql-2024-06-16.sql.gz\nmysql-2024-06-18.sql.gz\npg-2024-05-04.sql.gz\npg-2024-05-05.sql.gz\npg-2024-05-07.sql.gz\npg-2024-05-10.sql.gz\npg-2024-05-11.sql.gz\npg-2024-05-13.sql.gz\npg-2024-05-15.sql.gz\npg-2024-05-17.sql.gz\npg-2024-05-18.sql.gz\npg-2024-05-19.sql.gz\npg-2024-05-22.sql.gz\npg-2024-05-23.sql.gz\npg-2024-05-25.sql.gz\npg-2024-05-27.sql.gz\npg-2024-06-01.sql.gz\npg-2024-06-02.sql.gz\npg-2024-06-03.sql.gz\npg-2024-06-04.sql.gz\npg-2024-06-05.sql.gz\npg-2024-06-06.sql.gz\npg-2024-06-08.sql.gz\npg-2024-06-09.sql.gz\npg-2024-06-10.sql.gz\npg-2024-06-11.sql.gz\npg-2024-06-12.sql.gz\npg-2024-06-14.sql.gz\npg-2024-06-15.sql.gz\npg-2024-06-16.sql.gz\n'}
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
