#!/usr/bin/env python3
"""Build-time helper: create /app/archive, its SHA256SUMS manifest, then damage some files."""
import hashlib, os, random

rng = random.Random(99)
root = "/app/archive"
files = [
    "README.txt", "contracts/2022/acme-msa.pdf", "contracts/2022/acme-sow-01.pdf",
    "contracts/2023/globex-msa.pdf", "contracts/2023/globex nda (signed).pdf", "contracts/2023/initech-sow.pdf",
    "finance/ledger-2023.csv", "finance/ledger-2024.csv", "finance/invoices/INV-1001.pdf",
    "finance/invoices/INV-1002.pdf", "finance/invoices/INV-1003.pdf", "finance/invoices/INV-1004.pdf",
    "finance/payroll/2024-01.xlsx", "finance/payroll/2024-02.xlsx", "hr/handbook v3.docx",
    "hr/policies/remote-work.md", "hr/policies/travel.md", "photos/offsite 2023/IMG_0001.jpg",
    "photos/offsite 2023/IMG_0002.jpg", "photos/offsite 2023/IMG_0003.jpg", "photos/offsite 2023/IMG_0004.jpg",
    "photos/logo.png", "src/backup-tool.tar.gz", "src/migrations.sql", "notes/meeting-notes.txt",
    "notes/todo.txt", "notes/empty.txt", "data/customers.jsonl", "data/events-2024-03.log.gz",
    "data/Events-2024-03.log.gz",
]
text_like = (".txt", ".md", ".csv", ".sql", ".jsonl")
for rel in files:
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if rel == "notes/empty.txt":
        data = b""
    elif rel.endswith(text_like):
        lines = ["%s line %d: %s" % (rel, i, "".join(rng.choice("abcdefghij klmnop,;") for _ in range(40)))
                 for i in range(rng.randint(5, 60))]
        data = ("\n".join(lines) + "\n").encode()
    else:
        data = bytes(rng.getrandbits(8) for _ in range(rng.randint(2000, 30000)))
    with open(p, "wb") as fh:
        fh.write(data)

# manifest (mix of text-mode "  " and binary-mode " *" entries, not sorted)
order = files[:]
rng.shuffle(order)
with open(os.path.join(root, "SHA256SUMS"), "w") as fh:
    for rel in order:
        h = hashlib.sha256(open(os.path.join(root, rel), "rb").read()).hexdigest()
        sep = " *" if rel.endswith((".pdf", ".jpg", ".png", ".gz", ".xlsx", ".docx")) else "  "
        fh.write("%s%s%s\n" % (h, sep, rel))

# damage: flip a byte, truncate, overwrite with empty, append a line
def flip(rel, off):
    p = os.path.join(root, rel)
    b = bytearray(open(p, "rb").read())
    b[off] ^= 0x01
    open(p, "wb").write(bytes(b))

flip("contracts/2023/globex nda (signed).pdf", 1234)
flip("finance/invoices/INV-1003.pdf", 0)
with open(os.path.join(root, "photos/offsite 2023/IMG_0003.jpg"), "r+b") as fh:
    fh.truncate(1024)
open(os.path.join(root, "src/migrations.sql"), "wb").close()
with open(os.path.join(root, "finance/ledger-2024.csv"), "ab") as fh:
    fh.write(b"finance/ledger-2024.csv line 999: manual edit\n")
flip("data/Events-2024-03.log.gz", 500)
# missing files
os.remove(os.path.join(root, "hr/policies/travel.md"))
os.remove(os.path.join(root, "finance/payroll/2024-02.xlsx"))
# files not in the manifest
with open(os.path.join(root, "notes/scratch.txt"), "w") as fh:
    fh.write("not part of the manifest\n")
with open(os.path.join(root, "photos/offsite 2023/IMG_0005.jpg"), "wb") as fh:
    fh.write(bytes(rng.getrandbits(8) for _ in range(3000)))
