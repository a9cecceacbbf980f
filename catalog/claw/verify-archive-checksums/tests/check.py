#!/usr/bin/env python3
"""Verifier for verify-archive-checksums."""
import hashlib, os, sys

ARCHIVE, QUARANTINE = "/app/archive", "/app/quarantine"

EXPECTED_REPORT = [
    'CORRUPT contracts/2023/globex nda (signed).pdf',
    'CORRUPT data/Events-2024-03.log.gz',
    'CORRUPT finance/invoices/INV-1003.pdf',
    'CORRUPT finance/ledger-2024.csv',
    'MISSING finance/payroll/2024-02.xlsx',
    'MISSING hr/policies/travel.md',
    'CORRUPT photos/offsite 2023/IMG_0003.jpg',
    'CORRUPT src/migrations.sql',
]

# files that must stay in /app/archive, with their current (untouched) digests
# (verified files, files not in the manifest, and SHA256SUMS itself)
STAY = {
    "README.txt": "ae110b117852d720711764f0088aa0ea286dfe1f722f6e14b5339d8c1ae42e2e",
    "SHA256SUMS": "957e5320bb631f7554c824d31030bbffb06f50af6fade7a2c74896ed857311a4",
    "contracts/2022/acme-msa.pdf": "939e4f125b0373301a9d11dad1f0d6e294990db413daf87e9d52c64a936c5dcb",
    "contracts/2022/acme-sow-01.pdf": "038fec66efcdc8e28c31fdf26567d760d7b52a6ad7a4526bd9e3bbf2c22b666e",
    "contracts/2023/globex-msa.pdf": "408b65f8e3dd9f5afd6afa0ea6c4ac1cba643eea0cdc64ee0d457f88ee4eaa75",
    "contracts/2023/initech-sow.pdf": "006f557f055d8efb5b874898edce02e8fa86138016057ec854b3e8efe081b218",
    "data/customers.jsonl": "43e1b783acb4597b726176edaf53f0fd11293983828135707334b0d11b7692df",
    "data/events-2024-03.log.gz": "ba6fb2e279e83f1eb17cd4f263cda903bfbd074cc4dc5bb852f2d1b10d04f984",
    "finance/invoices/INV-1001.pdf": "8ffdcff994f0221a1e509e13dada2bb4bfe345d4b8943ee80647d68ec4a7bd78",
    "finance/invoices/INV-1002.pdf": "f4fdb8c08f23cee2dbb157f46a48596a17e7ce0f4f07d45822aa7227f30e0596",
    "finance/invoices/INV-1004.pdf": "283667937feff59a97dde3e3c43c028c412ca71dbddebfa23e93936b32762f5e",
    "finance/ledger-2023.csv": "604dc530ef0934ce00a5e49241482a7728da97762f98bf720618550a8d8cfcbc",
    "finance/payroll/2024-01.xlsx": "0c4e2b98e3e29013ade9e49031cf190b23d31f3ce1f918d00446e35f67821ab6",
    "hr/handbook v3.docx": "a7b5d5675abae1726f4ac319f70aa20597a43712d2f5fe65f191e8ce6c226e13",
    "hr/policies/remote-work.md": "247f3dfebf15bfbe138abdde78b06491757b43f1cda02676b1936310a9434d46",
    "notes/empty.txt": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "notes/meeting-notes.txt": "75fc21a0e717bd54d9736adbcb4b41a2750cbdd11550648456ba23e0a363c72c",
    "notes/scratch.txt": "52a8cec5a1b91e2ac6fc31f4c49dcab9ac299b55296b6c9dda13f61ad5313b64",
    "notes/todo.txt": "f70d51e6f215fa5e30eb3404c9e7260b070bd98405f5a23203e73c8495615a94",
    "photos/logo.png": "e8f80522393af8cef183a4367530f3eb9d34c54e1e4ae0e5873be3112e0faece",
    "photos/offsite 2023/IMG_0001.jpg": "de0bdc13108332450032492be57e442f10bb63d069f9771450103811bf53d3c4",
    "photos/offsite 2023/IMG_0002.jpg": "b9cf15d9afb8fb3ba0d9ab36ecf539b8eddcecf1b10c2b9fc46a2f1a01f16057",
    "photos/offsite 2023/IMG_0004.jpg": "481c70131b217f570fb50f4034ded1e3835bcd3cb66f478171f459dfa4e8466a",
    "photos/offsite 2023/IMG_0005.jpg": "c0446dbf517d8d180a8597e80f7ad5e690dd91fdd99a223163f87954c46fb363",
    "src/backup-tool.tar.gz": "2c826844e402bda221e89022836f98fd4908706b04afd37ba0d28cb47053f6a0"
}

# corrupted files: must be in /app/quarantine/<path> with exactly this (damaged) content
QUARANTINED = {
    "contracts/2023/globex nda (signed).pdf": "1641d8a26e3870ff2a860285616712b1dd24af4464d50471b2987600a2c3eaea",
    "data/Events-2024-03.log.gz": "2efae24441eee8612008885d9c4f4a392a66bfb67328e27a3d38f04017070925",
    "finance/invoices/INV-1003.pdf": "7a07ddbe8eb37fe459e321d3c0d77965532aee159043a9df8d6dc35a87743b4c",
    "finance/ledger-2024.csv": "b69f7ce77bf949ba19cabe4de002eb41dd67d0af4e6468e6a5b8856255f58dd9",
    "photos/offsite 2023/IMG_0003.jpg": "4b4cd3e0b239e5d11e7d0513d746ddd0c58bd87e0ef8c790ad8bef72dca51629",
    "src/migrations.sql": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
}

MISSING = ['finance/payroll/2024-02.xlsx', 'hr/policies/travel.md']


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def main():
    fails = []
    try:
        text = open("/app/verify_report.txt", encoding="utf-8").read()
        lines = [l.rstrip("\r") for l in text.rstrip("\n").split("\n")] if text.strip() else []
        if lines != EXPECTED_REPORT:
            fails.append("verify_report.txt wrong:\n  got:      %r\n  expected: %r" % (lines, EXPECTED_REPORT))
    except (OSError, UnicodeDecodeError) as e:
        fails.append("cannot read /app/verify_report.txt: %s" % e)
    for rel, digest in STAY.items():
        p = os.path.join(ARCHIVE, rel)
        if not os.path.isfile(p):
            fails.append("file should still be in the archive: %s" % rel)
        elif sha(p) != digest:
            fails.append("file in the archive was modified: %s" % rel)
    for rel, digest in QUARANTINED.items():
        if os.path.lexists(os.path.join(ARCHIVE, rel)):
            fails.append("corrupt file still in the archive: %s" % rel)
        q = os.path.join(QUARANTINE, rel)
        if not os.path.isfile(q):
            fails.append("corrupt file not in quarantine: %s" % q)
        elif sha(q) != digest:
            fails.append("quarantined file content changed: %s" % q)
    for rel in MISSING:
        if os.path.lexists(os.path.join(ARCHIVE, rel)) or os.path.lexists(os.path.join(QUARANTINE, rel)):
            fails.append("missing file should not have been recreated: %s" % rel)
    if os.path.isdir(QUARANTINE):
        for dp, _, fs in os.walk(QUARANTINE):
            for f in fs:
                rel = os.path.relpath(os.path.join(dp, f), QUARANTINE)
                if rel not in QUARANTINED:
                    fails.append("unexpected file in quarantine: %s" % rel)
    for dp, _, fs in os.walk(ARCHIVE):
        for f in fs:
            rel = os.path.relpath(os.path.join(dp, f), ARCHIVE)
            if rel not in STAY:
                fails.append("unexpected file in archive: %s" % rel)
    for f in fails:
        print("FAIL:", f)
    print("PASS" if not fails else "FAILED")
    return 0 if not fails else 1


if __name__ == "__main__":
    sys.exit(main())
